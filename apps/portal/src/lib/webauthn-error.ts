/** Why a WebAuthn ceremony gave no credential (webauthn.ts). */
export type CeremonyFailure =
  /** The person closed the browser's dialog, or it timed out, or no passkey was there. */
  | 'cancelled'
  /** The page cancelled it (the signal, or a newer ceremony took over): nothing to show. */
  | 'aborted'
  /** This authenticator holds a passkey for the account already (creation only). */
  | 'exists'
  /** This browser or authenticator cannot do what was asked (no WebAuthn, no user verification). */
  | 'unsupported'
  /** The ceremony's code did not arrive (its chunk failed to load). */
  | 'network'
  /** Anything else the browser refused (a wrong domain, an authenticator error). */
  | 'failed';

export class PasskeyCeremonyError extends Error {
  readonly reason: CeremonyFailure;
  constructor(reason: CeremonyFailure, cause?: unknown) {
    super(`passkey ceremony ${reason}`, cause === undefined ? undefined : { cause });
    this.name = 'PasskeyCeremonyError';
    this.reason = reason;
  }
}
