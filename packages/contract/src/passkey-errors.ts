/**
 * Error codes of passkeys (WebAuthn) sign-in, enrolment and management (docs/passkeys.md).
 * The union ErrorCode (errors.ts) includes them; their statuses and messages are in
 * passkey-error-messages.ts.
 */
export const passkeyErrors = {
  /** The tenant's `passkeys` setting is `off`. */
  notOffered: 'passkey.not_offered',
  /** The ceremony's challenge is unknown, expired, used before, or another browser's. */
  challengeInvalid: 'passkey.challenge_invalid',
  /**
   * The assertion or attestation does not verify: signature, origin, RP ID, user verification,
   * user handle, a counter that went backwards or a disabled account. One code for all, so a
   * forger learns nothing; the reason is logged and audited.
   */
  verificationFailed: 'passkey.verification_failed',
  /**
   * A passkey sign-in named a credential this tenant does not hold on this domain (removed, or
   * never registered here). Only this says so, so the portal can tell the authenticator to drop
   * it (WebAuthn Signal API, `signalUnknownCredential`); a stored passkey that fails any check
   * answers `verificationFailed`, and an authenticator must never be told to drop that one.
   */
  unknownCredential: 'passkey.unknown_credential',
  /** This authenticator holds a passkey for the account already. */
  alreadyRegistered: 'passkey.already_registered',
  /** The account has as many passkeys as it may have. */
  limitReached: 'passkey.limit_reached',
  /** The signed-in account has no passkey with this id (or none usable on this domain). */
  notFound: 'passkey.not_found',
  /**
   * The app asked for a phishing-resistant sign-in (`acr_values=phr` or `phrh`) that this
   * session has not made: sign in with a passkey (the verify ceremony) and authorize again.
   * A password can never meet it.
   */
  stepUpRequired: 'passkey.step_up_required',
  /** Too many passkey attempts from this client address, or on this account: wait and retry. */
  rateLimited: 'passkey.rate_limited',
} as const;
export type PasskeyErrorCode = (typeof passkeyErrors)[keyof typeof passkeyErrors];
