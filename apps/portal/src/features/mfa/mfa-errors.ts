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
  'mfa.code_invalid': 'mfa.errors.codeInvalid',
  'mfa.code_expired': 'mfa.errors.codeExpired',
  'mfa.attempts_exceeded': 'mfa.errors.attemptsExceeded',
  'mfa.rate_limited': 'mfa.errors.rateLimited',
  'mfa.resend_too_soon': 'mfa.errors.resendTooSoon',
  'mfa.country_code_invalid': 'mfa.errors.countryCodeInvalid',
  'mfa.phone_invalid': 'mfa.errors.phoneInvalid',
  'mfa.phone_not_mobile': 'mfa.errors.phoneNotMobile',
  'mfa.phone_blocked': 'mfa.errors.phoneBlocked',
  'mfa.delivery_retryable': 'mfa.errors.deliveryRetryable',
  'mfa.delivery_failed': 'mfa.errors.deliveryFailed',
  'mfa.phone_rejected': 'mfa.errors.phoneRejected',
  'mfa.telecom_error': 'mfa.errors.telecomError',
  'mfa.line_busy': 'mfa.errors.lineBusy',
  'mfa.not_enrolled': 'mfa.errors.unknown',
  'mfa.already_enrolled': 'mfa.errors.unknown',
  'mfa.registration_not_started': 'mfa.errors.codeExpired',
  'mfa.fresh_verification_required': 'mfa.errors.unknown',
  'mfa.unknown': 'mfa.errors.unknown',
};

/** Failures that mean the wrong code was entered (analytics: mfa_failed). */
export const wrongCodeErrors = new Set<string>([
  'mfa.code_invalid',
  'mfa.code_expired',
  'mfa.attempts_exceeded',
]);

export function describeMfaError(caught: unknown): MfaProblem {
  if (isNetworkError(caught)) return { key: 'common.networkError' };
  if (!(caught instanceof ApiRequestError)) return { key: 'mfa.errors.unknown' };
  if (caught.code === 'session.required') return { key: 'mfa.errors.unknown', signedOut: true };
  const key = texts[caught.code as MfaErrorCode] ?? 'mfa.errors.unknown';
  const fields = caught.fields ?? {};
  const retryAfterSeconds = fields.retryAfterSeconds ? Number(fields.retryAfterSeconds) : undefined;
  const problem: MfaProblem = { key };
  if (fields.providerCode) problem.providerCode = fields.providerCode;
  if (retryAfterSeconds !== undefined) {
    problem.retryAfterSeconds = retryAfterSeconds;
    problem.values = { seconds: retryAfterSeconds };
  }
  if (caught.code === 'mfa.rate_limited' && retryAfterSeconds === undefined)
    problem.key = 'mfa.errors.rateLimitedLater';
  if (fields.countryCode) problem.field = 'countryCode';
  if (fields.phoneNumber) problem.field = 'phoneNumber';
  return problem;
}

export function isErrorCode(caught: unknown, code: MfaErrorCode): boolean {
  return caught instanceof ApiRequestError && caught.code === code;
}
