/**
 * Stable, namespaced error codes. The server answers `{ code, message }`; the portal maps
 * codes to behaviour (SPEC §8). Declared once here so neither side types a code twice.
 */
export const errorCodes = {
  validationFailed: 'common.validation_failed',
  payloadTooLarge: 'common.payload_too_large',
  unsupportedMediaType: 'common.unsupported_media_type',
  notFound: 'common.not_found',
  forbiddenOrigin: 'common.forbidden_origin',
  rateLimited: 'common.rate_limited',
  internal: 'common.internal',
  unknownDomain: 'tenant.unknown_domain',
  invalidCredentials: 'login.invalid_credentials',
  tooManyAttempts: 'login.too_many_attempts',
  passwordLeaked: 'login.password_leaked',
  codeInvalid: 'authenticate.code_invalid',
  sessionRequired: 'session.required',
  sessionIncomplete: 'session.incomplete',
  redirectNotAllowed: 'redirect.not_allowed',
  interactionNotFound: 'interaction.not_found',
} as const;

export type ErrorCode = (typeof errorCodes)[keyof typeof errorCodes];

export interface ApiError {
  code: ErrorCode | string;
  message: string;
  /** Field-level problems for validation errors: JSON path → message. */
  fields?: Record<string, string>;
}
