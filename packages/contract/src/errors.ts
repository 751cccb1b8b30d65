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

/**
 * Error codes of the lifecycle flows (SPEC §8). Statuses: token_invalid 409 and token_expired
 * 410 (activation), token_not_found 409 and token_expired 410 (reset), registration 403,
 * verification 403/410 and email_invalid 400.
 */
export const lifecycleErrors = {
  activateTokenInvalid: 'activate.token_invalid',
  activateTokenExpired: 'activate.token_expired',
  registerTokenInvalid: 'register.token_invalid',
  registerAccountExists: 'register.account_exists',
  resetTokenNotFound: 'reset.token_not_found',
  resetTokenExpired: 'reset.token_expired',
  verifyTokenInvalid: 'verify.token_invalid',
  verifyTokenExpired: 'verify.token_expired',
  verifyEmailInvalid: 'verify.email_invalid',
  verifyNotSessionEmail: 'verify.not_session_email',
  passwordHistory: 'password.history',
  passwordLeaked: 'password.leaked',
  captchaFailed: 'captcha.failed',
  /** Operator CLI: the account exists and is not waiting for activation. */
  inviteAccountExists: 'invite.account_exists',
} as const;
export type LifecycleError = (typeof lifecycleErrors)[keyof typeof lifecycleErrors];

/** Error codes of partner single sign-on (docs/partners.md). */
export const partnerErrors = {
  /** No partner with this code on the host's tenant. */
  unknown: 'partner.unknown',
  /**
   * The partner token does not verify: signature, key, algorithm, issuer, audience, times or
   * claims. One code for all, so a forger learns nothing; the reason is logged.
   */
  tokenInvalid: 'partner.token_invalid',
  /** The partner token's jti was accepted before (each is single use). */
  tokenReplayed: 'partner.token_replayed',
  /** The partner's keys (its JWKS URL) cannot be fetched right now. */
  keysUnavailable: 'partner.keys_unavailable',
  /** No account may be linked to this subject under the partner's linking policy. */
  accountNotLinked: 'partner.account_not_linked',
  /** The linked account is disabled or not active. */
  accountDisabled: 'partner.account_disabled',
  /** generate-token for a session that is not this partner's authx session, or a wrong token. */
  sessionMismatch: 'partner.session_mismatch',
  /**
   * A first sign-in of a subject whose address the partner does not assert as verified
   * (`email_verified: true`): nothing is linked or created on an unverified address.
   */
  emailUnverified: 'partner.email_unverified',
  /** Keeping a partner link from a session the owner did not open with their own credentials. */
  ownerSessionRequired: 'partner.owner_session_required',
  /** The signed-in account has no link to this partner subject. */
  linkNotFound: 'partner.link_not_found',
} as const;
export type PartnerErrorCode = (typeof partnerErrors)[keyof typeof partnerErrors];

/** Error codes of mobile-app MFA and its GraphQL endpoint (docs/mobile-mfa.md). */
export const mobileErrors = {
  /** SETUP_FAILED: the enrolment proof does not verify (signature, key, audience, times, jti). */
  setupFailed: 'mobile.setup_failed',
  /** SETUP_TIMEOUT_FAILED: the enrolment token expired (2 minutes) or was used before. */
  setupTimeout: 'mobile.setup_timeout',
  /** A primary device (or another factor) is enrolled; replacing it needs a fresh MFA check. */
  deviceExists: 'mobile.device_exists',
  /** The account has no primary device (numberChallenge), or the device was replaced or removed. */
  noDevice: 'mobile.no_device',
  /** A device proof or answer that does not verify, is expired, replayed or for someone else. */
  proofInvalid: 'mobile.proof_invalid',
  /** The device access token is missing, unknown or expired. */
  deviceUnauthenticated: 'mobile.device_unauthenticated',
  /** No such challenge or setup for this caller (another user's or tenant's looks the same). */
  notFound: 'mobile.not_found',
  /** The challenge was answered, timed out or was refused before. */
  challengeClosed: 'mobile.challenge_closed',
  /** Another sign-in is already waiting for this user's device. */
  challengePending: 'mobile.challenge_pending',
  /** RATE_LIMITED: the back-off after unanswered or refused challenges; retryAfterSeconds says how long. */
  rateLimited: 'mobile.rate_limited',
  /** The tenant does not offer the partner mobile app as a factor. */
  notOffered: 'mobile.not_offered',
  /** A GraphQL document that does not parse or validate against the schema. */
  invalidQuery: 'graphql.invalid_query',
  /** A GraphQL document nested deeper than the limit. */
  queryTooDeep: 'graphql.query_too_deep',
  /** A GraphQL document whose cost (fields × list sizes) is over the limit. */
  queryTooCostly: 'graphql.query_too_costly',
} as const;
export type MobileErrorCode = (typeof mobileErrors)[keyof typeof mobileErrors];

/** Error codes of the admin API (docs/admin-api.md). */
export const adminErrors = {
  /** No bearer token, or one that is unknown, expired, revoked or not for the admin API. */
  unauthenticated: 'admin.unauthenticated',
  /** The operator's role (or tenant scope) does not allow this route on this tenant. */
  forbidden: 'admin.forbidden',
  tenantNotFound: 'admin.tenant_not_found',
  tenantExists: 'admin.tenant_exists',
  /** A domain of another tenant: domains are never taken over. */
  domainTaken: 'admin.domain_taken',
  clientNotFound: 'admin.client_not_found',
  clientExists: 'admin.client_exists',
  /** The tenant's login client cannot be disabled. */
  loginClientRequired: 'admin.login_client_required',
  userNotFound: 'admin.user_not_found',
  operatorExists: 'admin.operator_exists',
  operatorNotFound: 'admin.operator_not_found',
  /** The last owner cannot be removed or given another role: someone must be able to act. */
  lastOwner: 'admin.last_owner',
  partnerNotFound: 'admin.partner_not_found',
  signingKeyNotFound: 'admin.signing_key_not_found',
  /** The key new tokens are signed with cannot be retired: rotate first. */
  signingKeyActive: 'admin.signing_key_active',
  /** The partner code in the body is not the one in the path. */
  partnerCodeMismatch: 'admin.partner_code_mismatch',
  /** An uploaded image whose content is not the type it claims, or an SVG that is not well-formed. */
  imageInvalid: 'admin.image_invalid',
  imageTooLarge: 'admin.image_too_large',
  /**
   * The operator tenant's clients, partners, settings, domains and accounts are not changed
   * through the tenant routes: operators through /operators, the rest by `keycard apply`.
   */
  operatorTenantManaged: 'admin.operator_tenant_managed',
  /** Too many requests from this operator or address (or failed tokens from the address). */
  rateLimited: 'admin.rate_limited',
  /**
   * An address the server would fetch (a partner's key set, the captcha check) that is, or
   * resolves to, a private, loopback or link-local address (SSRF).
   */
  privateAddress: 'admin.private_address',
  /**
   * The client's secret was rotated moments ago (by a request alongside this one): only the
   * first of rotations at once answers a secret, so every secret answered works.
   */
  secretRotatedRecently: 'admin.secret_rotated_recently',
  /** A tenant removal whose confirmation does not repeat the tenant's code. */
  confirmationMismatch: 'admin.confirmation_mismatch',
} as const;
export type AdminErrorCode = (typeof adminErrors)[keyof typeof adminErrors];

export type ErrorCode =
  | (typeof errorCodes)[keyof typeof errorCodes]
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
