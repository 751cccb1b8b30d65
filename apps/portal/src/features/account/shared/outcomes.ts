import { errorCodes } from '@keycard/contract/errors';
import { lifecycleErrors } from '@keycard/contract/lifecycle-api';
import { ApiRequestError, isNetworkError } from '../../../lib/api.ts';
import type { ServerPasswordProblem } from './new-password.tsx';

/**
 * A refusal with a wait (a rate limit): the text to show while it runs ({{when}} in words) and
 * the seconds it lasts. Forms that count it down use it; others show the notice alone.
 */
export interface Wait {
  key: string;
  seconds: number;
}

/** What a form shows after a refused submission: a message on the password, or a notice. */
export type FormOutcome = { refuse: ServerPasswordProblem } | { notice: string; wait?: Wait } | null;

/** The wait a 429 names (fields.retryAfterSeconds), under the text that says whose limit it is. */
export function waitOf(error: unknown, key: string): Wait | undefined {
  const seconds = error instanceof ApiRequestError ? Number(error.fields?.retryAfterSeconds) : Number.NaN;
  return seconds > 0 ? { key, seconds } : undefined;
}

/**
 * The answers every password form treats alike (SPEC §8 plus the captcha and rate limits):
 * a reused or leaked password is shown on the field, the rest as a notice. Undefined: the
 * flow's own table decides (expired links, unknown errors).
 */
export function commonOutcome(error: unknown): FormOutcome | undefined {
  if (isNetworkError(error)) return { notice: 'common.networkError' };
  if (!(error instanceof ApiRequestError)) return undefined;
  switch (error.code) {
    case lifecycleErrors.passwordHistory:
      return { refuse: 'lifecycle.passwordForm.errors.history' };
    case lifecycleErrors.passwordLeaked:
      return { refuse: 'lifecycle.passwordForm.errors.leaked' };
    case lifecycleErrors.captchaFailed:
      return { notice: 'lifecycle.errors.captcha' };
    case errorCodes.rateLimited: {
      // The mail requests are limited per client address (docs/accounts.md): the network's.
      const wait = waitOf(error, 'lifecycle.errors.rateLimitedNetwork');
      return wait
        ? { notice: 'lifecycle.errors.rateLimited', wait }
        : { notice: 'lifecycle.errors.rateLimited' };
    }
    default:
      return undefined;
  }
}

export function statusOf(error: unknown): number {
  return error instanceof ApiRequestError ? error.status : 0;
}

export function codeOf(error: unknown): string {
  return error instanceof ApiRequestError ? error.code : '';
}
