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
