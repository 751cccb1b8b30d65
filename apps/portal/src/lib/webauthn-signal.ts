import type { PasskeySummary } from '@keycard/contract/passkeys';

/**
 * The WebAuthn Signal API (WebAuthn L3 §5.1.10; docs/passkeys.md "Keeping authenticators in
 * step"): tells the person's passkey provider (phone, password manager) which passkeys Keycard
 * no longer knows, so it stops offering them. Static methods of PublicKeyCredential that only
 * some browsers have (Chromium 132+): each call is made only where its method exists, is
 * never awaited by a screen, and its failure is swallowed — a signal is a hint, never a step
 * of a flow. No library: the login route's lazy passkey chunk and the account page use it.
 */

export interface UnknownCredentialSignal {
  rpId: string;
  credentialId: string;
}

export interface AllAcceptedCredentialsSignal {
  rpId: string;
  userId: string;
  allAcceptedCredentialIds: string[];
}

export interface CurrentUserDetailsSignal {
  rpId: string;
  userId: string;
  name: string;
  displayName: string;
}

interface SignalMethods {
  signalUnknownCredential?: (options: UnknownCredentialSignal) => Promise<void>;
  signalAllAcceptedCredentials?: (options: AllAcceptedCredentialsSignal) => Promise<void>;
  signalCurrentUserDetails?: (options: CurrentUserDetailsSignal) => Promise<void>;
}

/** The page's relying party: the host, as the server takes it for every ceremony. */
export function pageRpId(): string {
  return window.location.hostname;
}

/** Calls one signal where the browser has it; answers whether it was sent. Never throws. */
function send<K extends keyof SignalMethods>(
  name: K,
  options: Parameters<NonNullable<SignalMethods[K]>>[0],
): boolean {
  if (typeof window === 'undefined' || typeof window.PublicKeyCredential !== 'function') return false;
  const api = window.PublicKeyCredential as unknown as SignalMethods;
  const method = api[name] as ((options: unknown) => Promise<void>) | undefined;
  if (typeof method !== 'function') return false;
  try {
    Promise.resolve(method.call(api, options)).catch(() => undefined);
  } catch {
    // A synchronous TypeError (a malformed id) or SecurityError (the RP ID): nothing to do.
  }
  return true;
}

/**
 * After a passkey is removed on the account page: what to tell authenticators, or null when
 * it was made for another domain of the tenant (another relying party: nothing of it is on
 * this page's authenticators under this RP ID).
 */
export function removedPasskeySignal(
  passkey: Pick<PasskeySummary, 'credentialId' | 'rpId' | 'usableHere'>,
  rpId: string,
): UnknownCredentialSignal | null {
  if (!passkey.usableHere || passkey.rpId !== rpId) return null;
  return { rpId, credentialId: passkey.credentialId };
}

/**
 * What the account page tells authenticators once it has the account's passkeys: every
 * credential id it holds for this relying party, and the account's current names (the e-mail
 * as name and display name, as the creation options give them). Null when there is nothing
 * safe to say:
 * - no user handle (no passkey was ever made for the account: nothing to name);
 * - the server's `usableHere` and the page's RP ID disagree about any passkey: the list for this
 *   RP ID could then be short, and an authenticator drops every passkey of the handle the list
 *   leaves out. An incomplete list is never sent.
 * The list must be the server's whole answer (GET /api/passkeys is never paged or cut short).
 */
export function accountPasskeySignals(
  list: {
    passkeys: ReadonlyArray<Pick<PasskeySummary, 'credentialId' | 'rpId' | 'usableHere'>>;
    userHandle: string | null;
  },
  email: string,
  rpId: string,
): { allAccepted: AllAcceptedCredentialsSignal; currentUser: CurrentUserDetailsSignal } | null {
  if (!list.userHandle) return null;
  if (list.passkeys.some((passkey) => passkey.usableHere !== (passkey.rpId === rpId))) return null;
  const allAcceptedCredentialIds = list.passkeys
    .filter((passkey) => passkey.rpId === rpId)
    .map((passkey) => passkey.credentialId);
  return {
    allAccepted: { rpId, userId: list.userHandle, allAcceptedCredentialIds },
    currentUser: { rpId, userId: list.userHandle, name: email, displayName: email },
  };
}

/** Tells authenticators this credential is unknown here (removed, or refused as unknown). */
export function signalUnknownCredential(signal: UnknownCredentialSignal | null): boolean {
  return signal !== null && send('signalUnknownCredential', signal);
}

/** Tells authenticators the account's complete list for this RP ID, and its current names. */
export function signalAccountPasskeys(signals: ReturnType<typeof accountPasskeySignals>): boolean {
  if (!signals) return false;
  const listed = send('signalAllAcceptedCredentials', signals.allAccepted);
  const named = send('signalCurrentUserDetails', signals.currentUser);
  return listed || named;
}
