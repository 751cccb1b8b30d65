import type { MfaErrorCode } from '@keycard/contract';
import { AppError, retryAfter } from '../../platform/shared/errors.ts';

export interface MfaErrorDetails {
  /** Sent as fields.retryAfterSeconds, so the portal can count down. */
  retryAfterMs?: number;
  /** The provider's own code, shown in brackets (SPEC §3 'error code shown in brackets'). */
  providerCode?: string | null;
  /** A field the error is about (validation errors). */
  field?: string;
}

/**
 * An MFA error (status and message from the contract's catalogue) with the details the MFA
 * screens use: a retry countdown, the provider's code, the field it is about.
 */
export function mfaError(code: MfaErrorCode, details: MfaErrorDetails = {}): AppError {
  const fields: Record<string, string> = {};
  if (details.retryAfterMs !== undefined) Object.assign(fields, retryAfter(details.retryAfterMs));
  if (details.providerCode) fields.providerCode = details.providerCode;
  const error = new AppError(code, { fields });
  if (details.field) return new AppError(code, { fields: { ...fields, [details.field]: error.message } });
  return error;
}
