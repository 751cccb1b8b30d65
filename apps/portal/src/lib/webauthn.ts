import type {
  PasskeyAssertion,
  PasskeyAttestation,
  PasskeyCreationOptions,
  PasskeyRequestOptions,
} from '@keycard/contract/passkeys';
import { PasskeyCeremonyError } from './webauthn-error.ts';
import { isWebAuthnAvailable } from './webauthn-support.ts';

export { type CeremonyFailure, PasskeyCeremonyError } from './webauthn-error.ts';
export { isWebAuthnAvailable } from './webauthn-support.ts';

/**
 * The portal's WebAuthn ceremonies (docs/passkeys.md): creating a passkey, and using one to
 * sign in, to pass MFA or a step-up. The ceremonies run through @simplewebauthn/browser, which
 * is loaded with their code (webauthn-ceremony.ts) only when one starts: a dynamic import, its
 * own chunk, never in the login route's entry. The availability checks use the browser's own
 * API and load nothing; the login route's (webauthn-support.ts) is in its entry.
 *
 * One ceremony runs at a time (the browser allows no more): starting one cancels the one
 * before it, so the button "Sign in with a passkey" takes over from the autofill request.
 */

/** The latest ceremony started here; an older one never cancels or starts over a newer one. */
let latest = 0;

/** The ceremonies' code (and the library): loaded when the first one starts. */
function ceremonies(): Promise<typeof import('./webauthn-ceremony.ts')> {
  return import('./webauthn-ceremony.ts').catch((error: unknown) => {
    throw new PasskeyCeremonyError('network', error);
  });
}

/**
 * Loads the ceremonies' code ahead of a click (where a passkey is offered), so the browser's
 * dialog opens at once: Safari keeps a click's permission to open it only for a short while.
 */
export function prepareCeremonies(): void {
  if (isWebAuthnAvailable()) ceremonies().catch(() => undefined);
}

/**
 * Uses a passkey (or a security key): a sign-in, MFA or a step-up. `conditional`: offered in
 * the autofill of the field marked `autocomplete="username webauthn"` (the promise stays
 * pending until the person picks one, or `signal` aborts it).
 */
export async function getPasskey(
  options: PasskeyRequestOptions,
  { conditional = false, signal }: { conditional?: boolean; signal?: AbortSignal } = {},
): Promise<PasskeyAssertion> {
  if (!isWebAuthnAvailable()) throw new PasskeyCeremonyError('unsupported');
  const mine = ++latest;
  const run = await ceremonies();
  return run.getAssertion(options, conditional, { signal, current: () => mine === latest });
}

/** Creates a passkey on the signed-in account (the server's creation options, as they are). */
export async function createPasskey(
  options: PasskeyCreationOptions,
  { signal }: { signal?: AbortSignal } = {},
): Promise<PasskeyAttestation> {
  if (!isWebAuthnAvailable()) throw new PasskeyCeremonyError('unsupported');
  const mine = ++latest;
  const run = await ceremonies();
  return run.createCredential(options, { signal, current: () => mine === latest });
}

/** The browser can offer passkeys in the e-mail field's autofill (conditional mediation). */
export async function isConditionalAvailable(): Promise<boolean> {
  if (!isWebAuthnAvailable()) return false;
  const check = (
    PublicKeyCredential as unknown as { isConditionalMediationAvailable?: () => Promise<boolean> }
  ).isConditionalMediationAvailable;
  if (typeof check !== 'function') return false;
  try {
    return await check.call(PublicKeyCredential);
  } catch {
    return false;
  }
}

/**
 * The device itself can keep a passkey behind its fingerprint, face or screen lock (a
 * user-verifying platform authenticator): where the offer to create one makes sense.
 */
export async function isPlatformAuthenticatorAvailable(): Promise<boolean> {
  if (!isWebAuthnAvailable()) return false;
  try {
    return await PublicKeyCredential.isUserVerifyingPlatformAuthenticatorAvailable();
  } catch {
    return false;
  }
}
