import { flowStorage } from './storage.ts';

/**
 * The mark a password sign-in leaves in this tab, so that the hand-off (/authenticated) may
 * offer a passkey after it (docs/passkeys.md): set by the password step, taken by the hand-off,
 * cleared by a passkey sign-in. A session that was already there when an app asked (no sign-in
 * happened in this tab) carries no mark, so nobody is asked on every visit.
 */
const passwordSignInMark = 'AUTH_X_PASSWORD_SIGN_IN';

export const passwordSignIn = {
  mark: () => flowStorage.set(passwordSignInMark, '1'),
  clear: () => flowStorage.remove(passwordSignInMark),
  /** Whether this tab just signed in with a password; the mark is used up. */
  take: (): boolean => {
    const marked = flowStorage.get(passwordSignInMark) === '1';
    flowStorage.remove(passwordSignInMark);
    return marked;
  },
};
