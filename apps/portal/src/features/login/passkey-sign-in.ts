import { passkeyErrors } from '@keycard/contract/errors';
import { paths } from '@keycard/contract/paths';
import { codeOf } from '../../lib/api.ts';
import { passwordSignIn } from '../../lib/passkey-offer.ts';
import { flowStorage, loginStateKey, randomState } from '../../lib/storage.ts';
import { getPasskey, isConditionalAvailable } from '../../lib/webauthn.ts';
import { signalUnknownCredential } from '../../lib/webauthn-signal.ts';
import { passkeyLoginApi } from './passkey-api.ts';
import { passkeyLoginFailure } from './passkey-login-errors.ts';
import type { PasskeyLoginError } from './passkey-login-texts.ts';

/**
 * A passkey sign-in's work, loaded when the e-mail step offers one (use-passkey-login.ts keeps
 * only the step's state in the login route): ask the server for a challenge, the browser for
 * an assertion, and the server for the single-use code, as a password's. Answers where the
 * sign-in goes on (/authenticate?code&state), or what to say.
 */
export type PasskeyOutcome = { to: string } | { error: PasskeyLoginError | null };

async function signInWith(
  credential: Awaited<ReturnType<typeof getPasskey>>,
  rpId: string,
): Promise<PasskeyOutcome> {
  const state = randomState();
  flowStorage.set(loginStateKey, state);
  let answer: Awaited<ReturnType<typeof passkeyLoginApi.passkeySignIn>>;
  try {
    answer = await passkeyLoginApi.passkeySignIn(credential, state);
  } catch (caught) {
    // The server holds no such passkey here (removed, or never made here): the authenticator
    // may drop it, so it is not offered again (WebAuthn Signal API). Only for this code: a
    // stored passkey that fails a check is never named.
    if (codeOf(caught) === passkeyErrors.unknownCredential) {
      signalUnknownCredential({ rpId, credentialId: credential.id });
    }
    throw caught;
  }
  // A passkey sign-in: no offer to make one afterwards.
  passwordSignIn.clear();
  const query = new URLSearchParams({ code: answer.code, state: answer.state, applyMfa: 'true' });
  return { to: `${paths.authenticate}?${query}` };
}

/** The button: a passkey now (cancelling the autofill request, which the library does). */
export async function signInNow(): Promise<PasskeyOutcome> {
  try {
    const { options } = await passkeyLoginApi.passkeyOptions();
    return await signInWith(await getPasskey(options), options.rpId);
  } catch (caught) {
    return { error: passkeyLoginFailure(caught) };
  }
}

/**
 * The autofill (conditional UI), where the browser has it: stays pending until the person picks
 * a passkey, or `signal` ends it. Null when it ended without one (not available, cancelled,
 * taken over by the button): the person did not ask, so nothing is said. `picked` is called
 * when a passkey was chosen and is being checked.
 */
export async function signInByAutofill(
  signal: AbortSignal,
  picked: () => void,
): Promise<PasskeyOutcome | null> {
  let credential: Awaited<ReturnType<typeof getPasskey>>;
  let rpId: string;
  try {
    if (!(await isConditionalAvailable()) || signal.aborted) return null;
    const { options } = await passkeyLoginApi.passkeyOptions();
    if (signal.aborted) return null;
    rpId = options.rpId;
    credential = await getPasskey(options, { conditional: true, signal });
  } catch {
    return null;
  }
  if (signal.aborted) return null;
  picked();
  try {
    return await signInWith(credential, rpId);
  } catch (caught) {
    return { error: passkeyLoginFailure(caught) };
  }
}
