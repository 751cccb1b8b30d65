/** Stable error codes of the MFA API (SPEC §8 MFA messages). */
export const mfaErrors = {
  codeInvalid: 'mfa.code_invalid',
  codeExpired: 'mfa.code_expired',
  attemptsExceeded: 'mfa.attempts_exceeded',
  rateLimited: 'mfa.rate_limited',
  resendTooSoon: 'mfa.resend_too_soon',
  countryCodeInvalid: 'mfa.country_code_invalid',
  phoneInvalid: 'mfa.phone_invalid',
  phoneNotMobile: 'mfa.phone_not_mobile',
  phoneBlocked: 'mfa.phone_blocked',
  deliveryRetryable: 'mfa.delivery_retryable',
  deliveryFailed: 'mfa.delivery_failed',
  phoneRejected: 'mfa.phone_rejected',
  telecomError: 'mfa.telecom_error',
  lineBusy: 'mfa.line_busy',
  notEnrolled: 'mfa.not_enrolled',
  alreadyEnrolled: 'mfa.already_enrolled',
  registrationNotStarted: 'mfa.registration_not_started',
  freshVerificationRequired: 'mfa.fresh_verification_required',
  /** The tenant does not offer this factor (its settings' mfa.methods): nothing is registered. */
  methodNotOffered: 'mfa.method_not_offered',
  unknown: 'mfa.unknown',
} as const;
export type MfaErrorCode = (typeof mfaErrors)[keyof typeof mfaErrors];
