import { z } from 'zod';
import { accountErrorCatalogue } from './account-error-messages.ts';
import type { ErrorDefinition } from './error-definition.ts';
import {
  adminErrors,
  type ErrorCode,
  errorCodes,
  lifecycleErrors,
  mfaErrors,
  mobileErrors,
  partnerErrors,
} from './errors.ts';
import { passkeyErrorCatalogue } from './passkey-error-messages.ts';

export type { ErrorDefinition } from './error-definition.ts';

/**
 * HTTP status and API message of every error code, each given once. Typed by ErrorCode, so a
 * new code without an entry (or an entry without a code) fails to compile. MFA delivery
 * failures answer 422, never 502–504: the portal retries gateway statuses, and a refused
 * number does not get better by asking again.
 */
export const errorCatalogue: { readonly [C in ErrorCode]: ErrorDefinition } = {
  ...passkeyErrorCatalogue,
  ...accountErrorCatalogue,
  [errorCodes.validationFailed]: { status: 400, message: 'The request is not valid.' },
  [errorCodes.payloadTooLarge]: { status: 413, message: 'The request body is too large.' },
  [errorCodes.uriTooLong]: { status: 414, message: 'The request URL is too long.' },
  [errorCodes.unsupportedMediaType]: { status: 415, message: 'Send the request body as application/json.' },
  [errorCodes.notFound]: { status: 404, message: 'There is nothing at this address.' },
  [errorCodes.forbiddenOrigin]: { status: 403, message: 'Cross-site requests are not allowed.' },
  [errorCodes.rateLimited]: { status: 429, message: 'Too many requests; try again later.' },
  [errorCodes.internal]: { status: 500, message: 'Something went wrong.' },
  [errorCodes.unavailable]: {
    status: 503,
    message: 'The service is briefly unavailable; try again in a moment.',
  },
  [errorCodes.busy]: {
    status: 503,
    message: 'Too many passwords are being checked right now; try again in a few seconds.',
  },
  [errorCodes.unknownDomain]: { status: 404, message: 'No tenant is configured for this domain.' },
  [errorCodes.invalidCredentials]: { status: 401, message: 'Invalid e-mail or password.' },
  [errorCodes.tooManyAttempts]: { status: 429, message: 'Too many attempts.' },
  [errorCodes.passwordLeaked]: {
    status: 403,
    message: 'This password appears in public leaks and must be changed.',
  },
  [errorCodes.codeInvalid]: { status: 400, message: 'The sign-in code is invalid or has expired.' },
  [errorCodes.sessionRequired]: { status: 401, message: 'Sign in first.' },
  [errorCodes.sessionIncomplete]: { status: 403, message: 'Every sign-in step must be completed first.' },
  [errorCodes.reauthenticationRequired]: {
    status: 401,
    message: 'The app asks you to enter your password again.',
  },
  [errorCodes.redirectNotAllowed]: { status: 400, message: 'This redirect address is not registered.' },
  [errorCodes.interactionNotFound]: { status: 404, message: 'This sign-in request has expired.' },
  [errorCodes.signatureInvalid]: { status: 403, message: 'Invalid signature.' },
  [errorCodes.idempotencyKeyInvalid]: {
    status: 400,
    message: 'The Idempotency-Key header must be 16 to 128 letters, digits, - or _.',
  },
  [errorCodes.idempotencyInProgress]: {
    status: 409,
    message: 'A request with this Idempotency-Key is still being processed; try again shortly.',
  },
  [errorCodes.idempotencyKeyReused]: {
    status: 422,
    message: 'This Idempotency-Key was used for a different request.',
  },

  [adminErrors.unauthenticated]: {
    status: 401,
    message: 'Send a valid bearer access token of the operator tenant for the admin API.',
  },
  [adminErrors.forbidden]: { status: 403, message: 'Your role does not allow this here.' },
  [adminErrors.tenantNotFound]: { status: 404, message: 'There is no tenant with this code.' },
  [adminErrors.tenantExists]: { status: 409, message: 'A tenant with this code exists already.' },
  [adminErrors.domainTaken]: { status: 409, message: 'This domain belongs to another tenant.' },
  [adminErrors.clientNotFound]: { status: 404, message: 'The tenant has no client with this id.' },
  [adminErrors.clientExists]: { status: 409, message: 'The tenant has a client with this id already.' },
  [adminErrors.loginClientRequired]: {
    status: 409,
    message: "The tenant's login client cannot be disabled or removed.",
  },
  [adminErrors.userNotFound]: { status: 404, message: 'The tenant has no account with this id.' },
  [adminErrors.operatorExists]: { status: 409, message: 'This operator exists already.' },
  [adminErrors.operatorNotFound]: { status: 404, message: 'There is no operator with this id.' },
  [adminErrors.partnerNotFound]: { status: 404, message: 'The tenant has no partner with this code.' },
  [adminErrors.signingKeyNotFound]: { status: 404, message: 'The tenant has no signing key with this id.' },
  [adminErrors.signingKeyActive]: {
    status: 409,
    message: 'The active signing key cannot be retired; rotate to a new one first.',
  },
  [adminErrors.partnerCodeMismatch]: {
    status: 400,
    message: 'The partner code in the body must be the one in the address.',
  },
  [adminErrors.lastOwner]: {
    status: 409,
    message: 'The last owner cannot be removed or given another role.',
  },
  [adminErrors.imageInvalid]: {
    status: 422,
    message: 'The image is not a PNG, WebP, ICO or well-formed SVG of the type it claims.',
  },
  [adminErrors.imageTooLarge]: { status: 413, message: 'The image is larger than this slot allows.' },
  [adminErrors.operatorTenantManaged]: {
    status: 403,
    message:
      "The operator tenant's clients, partners, settings, domains and accounts change through /operators or keycard apply.",
  },
  [adminErrors.rateLimited]: { status: 429, message: 'Too many requests; try again after Retry-After.' },
  [adminErrors.privateAddress]: {
    status: 400,
    message: 'The server does not fetch private, loopback or link-local addresses.',
  },
  [adminErrors.secretRotatedRecently]: {
    status: 409,
    message: "The client's secret was rotated moments ago; use that secret, or rotate again later.",
  },
  [adminErrors.confirmationMismatch]: {
    status: 400,
    message: "Repeat the tenant's code in the confirmation to remove it.",
  },

  [partnerErrors.unknown]: { status: 404, message: 'This partner is not known here.' },
  [partnerErrors.tokenInvalid]: { status: 401, message: 'The partner sign-in link is not valid.' },
  [partnerErrors.tokenReplayed]: { status: 409, message: 'This partner sign-in link was used before.' },
  [partnerErrors.keysUnavailable]: {
    status: 503,
    message: "The partner's signing keys cannot be fetched; try again in a moment.",
  },
  [partnerErrors.accountNotLinked]: {
    status: 403,
    message: 'No account can be signed in from this partner for this user.',
  },
  [partnerErrors.accountDisabled]: { status: 403, message: 'This account is disabled.' },
  [partnerErrors.sessionMismatch]: {
    status: 403,
    message: 'This session was not opened through this partner.',
  },
  [partnerErrors.emailUnverified]: {
    status: 403,
    message:
      'The partner has not confirmed this e-mail address, so no account can be linked or created for it.',
  },
  [partnerErrors.ownerSessionRequired]: {
    status: 403,
    message: 'Sign in with your own password to keep a partner link.',
  },
  [partnerErrors.linkNotFound]: { status: 404, message: 'Your account has no such partner link.' },

  [mfaErrors.codeInvalid]: { status: 400, message: 'Invalid code. Please try again.' },
  [mfaErrors.codeExpired]: { status: 400, message: 'This code has expired. Request a new one.' },
  [mfaErrors.attemptsExceeded]: {
    status: 429,
    message: 'You have exceeded the verification attempts for this code. Request a new one.',
  },
  [mfaErrors.rateLimited]: { status: 429, message: 'You have attempted this too often. Try again later.' },
  [mfaErrors.resendTooSoon]: { status: 429, message: 'Wait before requesting another code.' },
  [mfaErrors.countryCodeInvalid]: { status: 400, message: 'Invalid country code' },
  [mfaErrors.phoneInvalid]: { status: 400, message: 'This number is invalid' },
  [mfaErrors.phoneNotMobile]: { status: 400, message: 'This number cannot receive text messages.' },
  [mfaErrors.phoneBlocked]: { status: 422, message: 'This phone number is blocked. Contact support.' },
  [mfaErrors.deliveryRetryable]: {
    status: 422,
    message: 'The code could not be delivered right now. Try again later.',
  },
  [mfaErrors.deliveryFailed]: { status: 422, message: 'The code could not be delivered. Contact support.' },
  [mfaErrors.phoneRejected]: {
    status: 422,
    message: 'This phone number cannot receive codes. Use another number.',
  },
  [mfaErrors.telecomError]: { status: 422, message: 'An unexpected telecom error occurred.' },
  [mfaErrors.lineBusy]: { status: 422, message: 'The line is busy.' },
  [mfaErrors.notEnrolled]: { status: 409, message: 'No second factor is set up.' },
  [mfaErrors.alreadyEnrolled]: { status: 409, message: 'A second factor is already set up.' },
  [mfaErrors.registrationNotStarted]: { status: 409, message: 'Start the registration first.' },
  [mfaErrors.freshVerificationRequired]: { status: 403, message: 'Verify with your second factor first.' },
  [mfaErrors.methodNotOffered]: { status: 403, message: 'This verification method is not offered here.' },
  [mfaErrors.unknown]: { status: 422, message: 'Something went wrong.' },

  [lifecycleErrors.activateTokenInvalid]: { status: 409, message: 'This activation link is not valid.' },
  [lifecycleErrors.activateTokenExpired]: { status: 410, message: 'This activation link has expired.' },
  [lifecycleErrors.registerTokenInvalid]: { status: 403, message: 'This registration link is not valid.' },
  [lifecycleErrors.registerAccountExists]: { status: 409, message: 'This address already has an account.' },
  [lifecycleErrors.resetTokenNotFound]: { status: 409, message: 'This reset link is not valid.' },
  [lifecycleErrors.resetTokenExpired]: { status: 410, message: 'This reset link has expired.' },
  [lifecycleErrors.verifyTokenInvalid]: { status: 403, message: 'This verification link is not valid.' },
  [lifecycleErrors.verifyTokenExpired]: { status: 410, message: 'This verification link has expired.' },
  [lifecycleErrors.verifyEmailInvalid]: { status: 400, message: "This e-mail doesn't match our records." },
  [lifecycleErrors.verifyNotSessionEmail]: { status: 403, message: 'Only your own address can be verified.' },
  [lifecycleErrors.passwordHistory]: {
    status: 400,
    message: 'The new password cannot be the same as one of the last four passwords.',
  },
  [lifecycleErrors.passwordLeaked]: {
    status: 400,
    message: 'This password appears in public leaks; choose another one.',
  },
  [lifecycleErrors.captchaFailed]: {
    status: 400,
    message: 'The captcha check failed; reload the page and try again.',
  },
  [lifecycleErrors.inviteAccountExists]: { status: 409, message: 'This address already has an account.' },

  [mobileErrors.setupFailed]: { status: 400, message: 'The mobile app could not be set up.' },
  [mobileErrors.setupTimeout]: { status: 410, message: 'The mobile app setup timed out. Start again.' },
  [mobileErrors.deviceExists]: {
    status: 409,
    message: 'A primary device is already set up. Replace it after verifying with it.',
  },
  [mobileErrors.noDevice]: { status: 409, message: 'No mobile app is set up for this account.' },
  [mobileErrors.proofInvalid]: { status: 401, message: 'The device proof is not valid.' },
  [mobileErrors.deviceUnauthenticated]: { status: 401, message: 'Sign the device in first.' },
  [mobileErrors.notFound]: { status: 404, message: 'There is no such request.' },
  [mobileErrors.challengeClosed]: { status: 409, message: 'This sign-in request is no longer open.' },
  [mobileErrors.challengePending]: {
    status: 409,
    message: 'Another sign-in is waiting for approval on the mobile app.',
  },
  [mobileErrors.rateLimited]: { status: 429, message: 'Too many sign-in requests; try again later.' },
  [mobileErrors.notOffered]: { status: 403, message: 'The mobile app is not offered here.' },
  [mobileErrors.invalidQuery]: { status: 400, message: 'The GraphQL document is not valid.' },
  [mobileErrors.queryTooDeep]: { status: 400, message: 'The GraphQL document is nested too deeply.' },
  [mobileErrors.queryTooCostly]: { status: 400, message: 'The GraphQL document asks for too much.' },
};

export const allErrorCodes = Object.keys(errorCatalogue) as ErrorCode[];

/** Every error answer of the API: a known code, its message, and optional field details. */
export const apiErrorSchema = z
  .object({
    code: z.enum(allErrorCodes as [ErrorCode, ...ErrorCode[]]),
    message: z.string().min(1),
    fields: z.record(z.string(), z.string()).optional(),
  })
  .strict();
