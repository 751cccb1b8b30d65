import type { AccountErrorCode } from './account-errors.ts';
import type { AdminErrorCode } from './admin-errors.ts';
import type { LifecycleError } from './lifecycle-errors.ts';
import type { MfaErrorCode } from './mfa-errors.ts';
import type { MobileErrorCode } from './mobile-errors.ts';
import type { PartnerErrorCode } from './partner-errors.ts';
import type { PasskeyErrorCode } from './passkey-errors.ts';

// Each family in a file of its own, so that a bundle carries only the families it reads (the
// portal's login route: this file's codes and the passkey sign-in's).
export { type AccountErrorCode, accountErrors } from './account-errors.ts';
export { type AdminErrorCode, adminErrors } from './admin-errors.ts';
export { type LifecycleError, lifecycleErrors } from './lifecycle-errors.ts';
export { type MfaErrorCode, mfaErrors } from './mfa-errors.ts';
export { type MobileErrorCode, mobileErrors } from './mobile-errors.ts';
export { type PartnerErrorCode, partnerErrors } from './partner-errors.ts';
export { type PasskeyErrorCode, passkeyErrors } from './passkey-errors.ts';

/**
 * Stable, namespaced error codes. The server answers `{ code, message }`; the portal maps
 * codes to behaviour (SPEC §8). Every code is declared once, here, and given its HTTP status
 * and API message once, in error-catalogue.ts (which the server imports; the portal needs the
 * codes only, so this module stays free of zod and messages).
 */
export const errorCodes = {
  validationFailed: 'common.validation_failed',
  payloadTooLarge: 'common.payload_too_large',
  uriTooLong: 'common.uri_too_long',
  unsupportedMediaType: 'common.unsupported_media_type',
  notFound: 'common.not_found',
  forbiddenOrigin: 'common.forbidden_origin',
  rateLimited: 'common.rate_limited',
  internal: 'common.internal',
  /** The database or the shared rate-limit store cannot be reached: try again shortly. */
  unavailable: 'common.unavailable',
  /**
   * This instance's password hashing is full (its concurrency and queue): refused before any
   * work, with Retry-After. Not an outage: the same request fits a moment later.
   */
  busy: 'common.busy',
  unknownDomain: 'tenant.unknown_domain',
  invalidCredentials: 'login.invalid_credentials',
  tooManyAttempts: 'login.too_many_attempts',
  passwordLeaked: 'login.password_leaked',
  codeInvalid: 'authenticate.code_invalid',
  sessionRequired: 'session.required',
  sessionIncomplete: 'session.incomplete',
  /** The app asked for a fresh sign-in (prompt=login, max_age): the password is asked again. */
  reauthenticationRequired: 'session.reauthentication_required',
  redirectNotAllowed: 'redirect.not_allowed',
  interactionNotFound: 'interaction.not_found',
  /** A signed webhook (Twilio's call status) whose signature does not verify. */
  signatureInvalid: 'webhook.signature_invalid',
  /** An Idempotency-Key header that is not 16–128 URL-safe characters. */
  idempotencyKeyInvalid: 'idempotency.key_invalid',
  /** The first request with this key is still running and did not finish in time. */
  idempotencyInProgress: 'idempotency.in_progress',
  /** The key was used before for a different request (another body or address). */
  idempotencyKeyReused: 'idempotency.key_reused',
} as const;

export type ErrorCode =
  | (typeof errorCodes)[keyof typeof errorCodes]
  | PasskeyErrorCode
  | AccountErrorCode
  | AdminErrorCode
  | MfaErrorCode
  | LifecycleError
  | PartnerErrorCode
  | MobileErrorCode;

export interface ApiError {
  code: ErrorCode;
  message: string;
  /** Field-level problems for validation errors: JSON path → message; retryAfterSeconds for 429s. */
  fields?: Record<string, string>;
}
