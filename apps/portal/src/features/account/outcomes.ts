import { errorCodes } from '@keycard/contract/errors';
import { lifecycleErrors } from '@keycard/contract/lifecycle-api';
import { ApiRequestError, isNetworkError } from '../../lib/api.ts';
import type { ServerPasswordProblem } from './new-password.tsx';

/** What a form shows after a refused submission: a message on the password, or a notice. */
export type FormOutcome = { refuse: ServerPasswordProblem } | { notice: string } | null;

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
    case errorCodes.rateLimited:
      return { notice: 'lifecycle.errors.rateLimited' };
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
