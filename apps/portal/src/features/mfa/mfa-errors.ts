import { errorCodes, type MobileErrorCode, mfaErrors, mobileErrors } from '@keycard/contract/errors';
import type { MfaErrorCode } from '@keycard/contract/mfa';
import { ApiRequestError, isNetworkError } from '../../lib/api.ts';

/** A problem to show: a text key with its values, and the provider's code in brackets if any. */
export interface MfaProblem {
  key: string;
  values?: Record<string, string | number>;
  providerCode?: string;
  /** The field it belongs to, when it is about one input. */
  field?: 'countryCode' | 'phoneNumber';
  /** Seconds until a retry or a resend makes sense (the countdown). */
  retryAfterSeconds?: number;
  /** The session is gone: start again at the login. */
  signedOut?: boolean;
}

/** SPEC §8 MFA messages, one row per error code (typed: a new code without a row fails to compile). */
const texts: Record<MfaErrorCode, string> = {
  [mfaErrors.codeInvalid]: 'mfa.errors.codeInvalid',
  [mfaErrors.codeExpired]: 'mfa.errors.codeExpired',
  [mfaErrors.attemptsExceeded]: 'mfa.errors.attemptsExceeded',
  [mfaErrors.rateLimited]: 'mfa.errors.rateLimited',
  [mfaErrors.resendTooSoon]: 'mfa.errors.resendTooSoon',
  [mfaErrors.countryCodeInvalid]: 'mfa.errors.countryCodeInvalid',
  [mfaErrors.phoneInvalid]: 'mfa.errors.phoneInvalid',
  [mfaErrors.phoneNotMobile]: 'mfa.errors.phoneNotMobile',
  [mfaErrors.phoneBlocked]: 'mfa.errors.phoneBlocked',
  [mfaErrors.deliveryRetryable]: 'mfa.errors.deliveryRetryable',
  [mfaErrors.deliveryFailed]: 'mfa.errors.deliveryFailed',
  [mfaErrors.phoneRejected]: 'mfa.errors.phoneRejected',
  [mfaErrors.telecomError]: 'mfa.errors.telecomError',
  [mfaErrors.lineBusy]: 'mfa.errors.lineBusy',
  [mfaErrors.notEnrolled]: 'mfa.errors.unknown',
  [mfaErrors.alreadyEnrolled]: 'mfa.errors.unknown',
  [mfaErrors.registrationNotStarted]: 'mfa.errors.codeExpired',
  [mfaErrors.freshVerificationRequired]: 'mfa.errors.unknown',
  // The screens offer only the tenant's methods: this is a policy changed while choosing.
  [mfaErrors.methodNotOffered]: 'mfa.errors.unknown',
  [mfaErrors.unknown]: 'mfa.errors.unknown',
};

/** Mobile-app MFA (GraphQL) failures, one row per code, like the MFA ones above. */
const mobileTexts: Record<MobileErrorCode, string> = {
  [mobileErrors.setupFailed]: 'mfa.mobile.errors.setupFailed',
  [mobileErrors.setupTimeout]: 'mfa.mobile.errors.setupTimeout',
  [mobileErrors.deviceExists]: 'mfa.mobile.errors.deviceExists',
  [mobileErrors.noDevice]: 'mfa.mobile.errors.noDevice',
  [mobileErrors.proofInvalid]: 'mfa.errors.unknown',
  [mobileErrors.deviceUnauthenticated]: 'mfa.errors.unknown',
  [mobileErrors.notFound]: 'mfa.mobile.errors.closed',
  [mobileErrors.challengeClosed]: 'mfa.mobile.errors.closed',
  [mobileErrors.challengePending]: 'mfa.mobile.errors.challengePending',
  [mobileErrors.rateLimited]: 'mfa.mobile.errors.rateLimited',
  [mobileErrors.notOffered]: 'mfa.mobile.errors.notOffered',
  [mobileErrors.invalidQuery]: 'mfa.errors.unknown',
  [mobileErrors.queryTooDeep]: 'mfa.errors.unknown',
  [mobileErrors.queryTooCostly]: 'mfa.errors.unknown',
};

/** Failures that mean the wrong code was entered (analytics: mfa_failed). */
export const wrongCodeErrors = new Set<string>([
  mfaErrors.codeInvalid,
  mfaErrors.codeExpired,
  mfaErrors.attemptsExceeded,
]);

export function describeMfaError(caught: unknown): MfaProblem {
  if (isNetworkError(caught)) return { key: 'common.networkError' };
  if (!(caught instanceof ApiRequestError)) return { key: 'mfa.errors.unknown' };
  if (caught.code === errorCodes.sessionRequired) return { key: 'mfa.errors.unknown', signedOut: true };
  const key =
    texts[caught.code as MfaErrorCode] ?? mobileTexts[caught.code as MobileErrorCode] ?? 'mfa.errors.unknown';
  const fields = caught.fields ?? {};
  const retryAfterSeconds = fields.retryAfterSeconds ? Number(fields.retryAfterSeconds) : undefined;
  const problem: MfaProblem = { key };
  if (fields.providerCode) problem.providerCode = fields.providerCode;
  // The wait is put into words ({{when}}, {{duration}}) in the page's language when shown.
  if (retryAfterSeconds !== undefined) problem.retryAfterSeconds = retryAfterSeconds;
  if (caught.code === mfaErrors.rateLimited && retryAfterSeconds === undefined)
    problem.key = 'mfa.errors.rateLimitedLater';
  if (caught.code === mobileErrors.rateLimited && retryAfterSeconds === undefined)
    problem.key = 'mfa.mobile.errors.rateLimitedLater';
  if (fields.countryCode) problem.field = 'countryCode';
  if (fields.phoneNumber) problem.field = 'phoneNumber';
  return problem;
}

export function isErrorCode(caught: unknown, code: MfaErrorCode | MobileErrorCode): boolean {
  return caught instanceof ApiRequestError && caught.code === code;
}
