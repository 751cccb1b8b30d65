import {
  errorCodes,
  type MobileErrorCode,
  mfaErrors,
  mobileErrors,
  type PasskeyErrorCode,
  passkeyErrors,
} from '@keycard/contract/errors';
import type { MfaErrorCode } from '@keycard/contract/mfa';
import { ApiRequestError, type ErrorTable, lookupError, trustErrorCodes } from '../../lib/api.ts';
import type { PortalTextKey } from '../../lib/i18n.tsx';
import { type CeremonyFailure, PasskeyCeremonyError } from '../../lib/webauthn.ts';

// The families this table reads: trusted when it loads, before any call of its flow (lib/api.ts).
trustErrorCodes(mfaErrors, mobileErrors);

/** A problem to show: a text key with its values, and the provider's code in brackets if any. */
export interface MfaProblem {
  key: PortalTextKey;
  values?: Record<string, string | number>;
  providerCode?: string;
  /** The field it belongs to, when it is about one input. */
  field?: 'countryCode' | 'phoneNumber';
  /** Seconds until a retry or a resend makes sense (the countdown). */
  retryAfterSeconds?: number;
  /** The session is gone: start again at the login. */
  signedOut?: boolean;
  /** A wrong, expired or spent code was entered (analytics: mfa_failed). */
  wrongCode?: boolean;
  /** Checks are locked for a while (too many wrong codes): nothing that needs one is offered. */
  locksChecks?: boolean;
  /** A code went out moments ago (a reload): wait for it rather than send another. */
  codeOnItsWay?: boolean;
  /** The partner app's sign-in requests are paused (refused or unanswered ones): a back-off. */
  pausesApprovals?: boolean;
}

/** A table row: the text, the text when no wait is named, and what the code means for a screen. */
interface MfaErrorRow {
  key: PortalTextKey;
  keyWithoutWait?: PortalTextKey;
  signedOut?: true;
  wrongCode?: true;
  locksChecks?: true;
  codeOnItsWay?: true;
  pausesApprovals?: true;
}

/** SPEC §8 MFA messages, one row per code (typed: a new code without a row fails to compile). */
const mfaRows: Record<MfaErrorCode, MfaErrorRow> = {
  [mfaErrors.codeInvalid]: { key: 'mfa.errors.codeInvalid', wrongCode: true },
  [mfaErrors.codeExpired]: { key: 'mfa.errors.codeExpired', wrongCode: true },
  [mfaErrors.attemptsExceeded]: { key: 'mfa.errors.attemptsExceeded', wrongCode: true },
  [mfaErrors.rateLimited]: {
    key: 'mfa.errors.rateLimited',
    keyWithoutWait: 'mfa.errors.rateLimitedLater',
    locksChecks: true,
  },
  [mfaErrors.resendTooSoon]: { key: 'mfa.errors.resendTooSoon', codeOnItsWay: true },
  [mfaErrors.countryCodeInvalid]: { key: 'mfa.errors.countryCodeInvalid' },
  [mfaErrors.phoneInvalid]: { key: 'mfa.errors.phoneInvalid' },
  [mfaErrors.phoneNotMobile]: { key: 'mfa.errors.phoneNotMobile' },
  [mfaErrors.phoneBlocked]: { key: 'mfa.errors.phoneBlocked' },
  [mfaErrors.deliveryRetryable]: { key: 'mfa.errors.deliveryRetryable' },
  [mfaErrors.deliveryFailed]: { key: 'mfa.errors.deliveryFailed' },
  [mfaErrors.phoneRejected]: { key: 'mfa.errors.phoneRejected' },
  [mfaErrors.telecomError]: { key: 'mfa.errors.telecomError' },
  [mfaErrors.lineBusy]: { key: 'mfa.errors.lineBusy' },
  [mfaErrors.notEnrolled]: { key: 'mfa.errors.unknown' },
  [mfaErrors.alreadyEnrolled]: { key: 'mfa.errors.unknown' },
  [mfaErrors.registrationNotStarted]: { key: 'mfa.errors.codeExpired' },
  [mfaErrors.freshVerificationRequired]: { key: 'mfa.errors.unknown' },
  // The screens offer only the tenant's methods: this is a policy changed while choosing.
  [mfaErrors.methodNotOffered]: { key: 'mfa.errors.unknown' },
  [mfaErrors.unknown]: { key: 'mfa.errors.unknown' },
};

/** Mobile-app MFA (GraphQL) failures, one row per code, like the MFA ones above. */
const mobileRows: Record<MobileErrorCode, MfaErrorRow> = {
  [mobileErrors.setupFailed]: { key: 'mfa.mobile.errors.setupFailed' },
  [mobileErrors.setupTimeout]: { key: 'mfa.mobile.errors.setupTimeout' },
  [mobileErrors.deviceExists]: { key: 'mfa.mobile.errors.deviceExists' },
  [mobileErrors.noDevice]: { key: 'mfa.mobile.errors.noDevice' },
  [mobileErrors.proofInvalid]: { key: 'mfa.errors.unknown' },
  [mobileErrors.deviceUnauthenticated]: { key: 'mfa.errors.unknown' },
  [mobileErrors.notFound]: { key: 'mfa.mobile.errors.closed' },
  [mobileErrors.challengeClosed]: { key: 'mfa.mobile.errors.closed' },
  [mobileErrors.challengePending]: { key: 'mfa.mobile.errors.challengePending' },
  [mobileErrors.rateLimited]: {
    key: 'mfa.mobile.errors.rateLimited',
    keyWithoutWait: 'mfa.mobile.errors.rateLimitedLater',
    pausesApprovals: true,
  },
  [mobileErrors.notOffered]: { key: 'mfa.mobile.errors.notOffered' },
  [mobileErrors.invalidQuery]: { key: 'mfa.errors.unknown' },
  [mobileErrors.queryTooDeep]: { key: 'mfa.errors.unknown' },
  [mobileErrors.queryTooCostly]: { key: 'mfa.errors.unknown' },
};

/**
 * Passing MFA with a passkey or security key (docs/passkeys.md), one row per passkey code: a
 * key that does not verify is a wrong proof, as a wrong code is.
 */
const passkeyRows: Record<PasskeyErrorCode, MfaErrorRow> = {
  [passkeyErrors.verificationFailed]: { key: 'passkeys.errors.failed', wrongCode: true },
  [passkeyErrors.challengeInvalid]: { key: 'passkeys.errors.expired' },
  [passkeyErrors.notFound]: { key: 'passkeys.errors.notFound' },
  [passkeyErrors.rateLimited]: { key: 'passkeys.errors.rateLimited' },
  [passkeyErrors.notOffered]: { key: 'passkeys.errors.unsupported' },
  // Not answered while passing MFA: creating and step-up codes.
  [passkeyErrors.alreadyRegistered]: { key: 'mfa.errors.unknown' },
  [passkeyErrors.limitReached]: { key: 'mfa.errors.unknown' },
  [passkeyErrors.stepUpRequired]: { key: 'mfa.errors.unknown' },
  // Answered by a passkey sign-in only (the verify ceremony says verificationFailed).
  [passkeyErrors.unknownCredential]: { key: 'passkeys.errors.failed', wrongCode: true },
};

/** The browser's ceremony ending without a key; null: the page cancelled it (nothing to say). */
const ceremonyRows: Record<CeremonyFailure, PortalTextKey | null> = {
  aborted: null,
  cancelled: 'passkeys.errors.cancelled',
  exists: 'mfa.errors.unknown',
  unsupported: 'passkeys.errors.unsupported',
  network: 'common.networkError',
  failed: 'passkeys.errors.failed',
};

/** The MFA flow's one table (setup, sign-in, reset, the partner app). */
export const mfaErrorTable: ErrorTable<MfaErrorRow> = {
  network: { key: 'common.networkError' },
  codes: {
    ...mfaRows,
    ...mobileRows,
    ...passkeyRows,
    // The session ended meanwhile: start again at the login.
    [errorCodes.sessionRequired]: { key: 'mfa.errors.unknown', signedOut: true },
  },
  otherwise: { key: 'mfa.errors.unknown' },
};

export function describeMfaError(caught: unknown): MfaProblem {
  const row = lookupError(mfaErrorTable, caught);
  const fields = (caught instanceof ApiRequestError ? caught.fields : undefined) ?? {};
  const retryAfterSeconds = fields.retryAfterSeconds ? Number(fields.retryAfterSeconds) : undefined;
  // The wait is put into words ({{when}}, {{duration}}) in the page's language when shown.
  const problem: MfaProblem = {
    key: retryAfterSeconds === undefined && row.keyWithoutWait ? row.keyWithoutWait : row.key,
  };
  if (fields.providerCode) problem.providerCode = fields.providerCode;
  if (retryAfterSeconds !== undefined) problem.retryAfterSeconds = retryAfterSeconds;
  if (fields.countryCode) problem.field = 'countryCode';
  if (fields.phoneNumber) problem.field = 'phoneNumber';
  if (row.signedOut) problem.signedOut = true;
  if (row.wrongCode) problem.wrongCode = true;
  if (row.locksChecks) problem.locksChecks = true;
  if (row.codeOnItsWay) problem.codeOnItsWay = true;
  if (row.pausesApprovals) problem.pausesApprovals = true;
  return problem;
}

/** A passkey or security key that did not pass MFA: the ceremony's reason or the server's code. */
export function describePasskeyFailure(caught: unknown): MfaProblem | null {
  if (caught instanceof PasskeyCeremonyError) {
    const key = ceremonyRows[caught.reason];
    return key ? { key } : null;
  }
  return describeMfaError(caught);
}
