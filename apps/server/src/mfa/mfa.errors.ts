import { type MfaErrorCode, mfaErrors } from '@keycard/contract';
import { AppError } from '../shared/errors.ts';

/**
 * Status and API message of every MFA error (SPEC §8 MFA messages). The portal shows its own
 * translated text per code; these messages are for API clients and logs. Delivery failures
 * answer 422, never 502–504: the portal retries gateway statuses, and a refused number does
 * not get better by asking again.
 */
const table: Record<MfaErrorCode, { status: number; message: string }> = {
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
  [mfaErrors.freshVerificationRequired]: {
    status: 403,
    message: 'Verify with your second factor first.',
  },
  [mfaErrors.unknown]: { status: 422, message: 'Something went wrong.' },
};

export interface MfaErrorDetails {
  /** Sent as fields.retryAfterSeconds, so the portal can count down. */
  retryAfterMs?: number;
  /** The provider's own code, shown in brackets (SPEC §3 'error code shown in brackets'). */
  providerCode?: string | null;
  /** A field the error is about (validation errors). */
  field?: string;
}

export function mfaError(code: MfaErrorCode, details: MfaErrorDetails = {}): AppError {
  const { status, message } = table[code];
  const fields: Record<string, string> = {};
  if (details.retryAfterMs !== undefined)
    fields.retryAfterSeconds = String(Math.max(1, Math.ceil(details.retryAfterMs / 1000)));
  if (details.providerCode) fields.providerCode = details.providerCode;
  if (details.field) fields[details.field] = message;
  return new AppError(code, status, message, Object.keys(fields).length > 0 ? fields : undefined);
}
