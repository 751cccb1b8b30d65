import type { SessionRow } from '../sessions/index.ts';

/** How recent a sign-in must be for a sensitive change on the account page (issue 18). */
export const recentSignInMs = 5 * 60 * 1000;

/** A session's MFA was passed with a passkey or security key (mfa_method passkey-…). */
export function isPasskeyMethod(method: string | null): boolean {
  return method === 'passkey-hwk' || method === 'passkey-swk';
}

/**
 * Whether the browser proved who it is recently enough for a sensitive change (changing the
 * password, adding or removing a sign-in method, ending other sessions): within five minutes,
 * either a passkey (a phishing-resistant sign-in or re-check on its own), or the password
 * (the sign-in itself, or proven again on the account page) together with the factor when the
 * account has one. A partner's sign-in proved neither here, so it must prove one again.
 */
export function isRecentSignIn(
  session: Pick<
    SessionRow,
    'provider' | 'created_at' | 'mfa_method' | 'mfa_verified_at' | 'reauthenticated_at'
  >,
  mfaEnrolled: boolean,
  now: number,
): boolean {
  const since = now - recentSignInMs;
  const factorAt = session.mfa_verified_at ?? 0;
  if (isPasskeyMethod(session.mfa_method) && factorAt > since) return true;
  const passwordAt = Math.max(
    session.provider === 'keycard' ? session.created_at : 0,
    session.reauthenticated_at ?? 0,
  );
  if (passwordAt <= since) return false;
  return !mfaEnrolled || factorAt > since;
}
