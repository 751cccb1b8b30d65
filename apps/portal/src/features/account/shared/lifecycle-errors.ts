import { errorCodes } from '@keycard/contract/errors';
import { lifecycleErrors } from '@keycard/contract/lifecycle-api';
import { ApiRequestError, type ErrorTable, lookupError, trustErrorCodes } from '../../../lib/api.ts';
import type { PortalTextKey } from '../../../lib/i18n.tsx';
import type { ServerPasswordProblem } from './new-password.tsx';

// The families this table reads: trusted when it loads, before any call of its flow (lib/api.ts).
trustErrorCodes(lifecycleErrors);

/**
 * A refusal with a wait (a rate limit): the text to show while it runs ({{when}} in words) and
 * the seconds it lasts. Forms that count it down use it; others show the notice alone.
 */
export interface Wait {
  key: PortalTextKey;
  seconds: number;
}

/** What a lifecycle flow does with a refusal, whatever its code was. */
export type LifecycleOutcome =
  /** Shown on the new password (its history or the leak list). */
  | { kind: 'password'; key: ServerPasswordProblem }
  /** Shown on the address field (it is not the one the link was sent to). */
  | { kind: 'address'; key: 'lifecycle.verifyEmail.mismatch' }
  /** A notice on the form; with a wait, the form's action is held until it ends. */
  | { kind: 'notice'; key: PortalTextKey; wait?: Wait }
  /** The link is invalid, used or expired: each flow has its own page for that. */
  | { kind: 'deadLink' }
  /** Anything else: the unknown-error page. */
  | { kind: 'unexpected' };

/** A table row: an outcome, and for a rate limit the text that says whose limit it is. */
type Row =
  | { kind: 'password'; key: ServerPasswordProblem }
  | { kind: 'address'; key: 'lifecycle.verifyEmail.mismatch' }
  | { kind: 'notice'; key: PortalTextKey; waitKey?: PortalTextKey }
  | { kind: 'deadLink' }
  | { kind: 'unexpected' };

const networkNotice: Row = { kind: 'notice', key: 'common.networkError' };
const unexpected: Row = { kind: 'unexpected' };
const deadLink: Row = { kind: 'deadLink' };

/** The captcha and the mail limit, as every form that sends a mail or a password shows them. */
const requestRows = {
  [lifecycleErrors.captchaFailed]: { kind: 'notice', key: 'lifecycle.errors.captcha' },
  // The mail requests are limited per client address (docs/accounts.md): the network's.
  [errorCodes.rateLimited]: {
    kind: 'notice',
    key: 'lifecycle.errors.rateLimited',
    waitKey: 'lifecycle.errors.rateLimitedNetwork',
  },
} as const satisfies ErrorTable<Row>['codes'];

/** A reused or leaked new password (SPEC §8) is shown on the password field. */
const passwordRows = {
  ...requestRows,
  [lifecycleErrors.passwordHistory]: { kind: 'password', key: 'lifecycle.passwordForm.errors.history' },
  [lifecycleErrors.passwordLeaked]: { kind: 'password', key: 'lifecycle.passwordForm.errors.leaked' },
} as const satisfies ErrorTable<Row>['codes'];

/** Asking for a mail (reset, a new activation link): a notice, or the unknown-error page. */
export const mailRequestErrors: ErrorTable<Row> = {
  network: networkNotice,
  codes: requestRows,
  otherwise: unexpected,
};

/** SPEC §8 activation: TokenInvalid (409) and TokenExpired (410) go to the activate-expired page. */
export const activationErrors: ErrorTable<Row> = {
  network: networkNotice,
  codes: {
    ...passwordRows,
    [lifecycleErrors.activateTokenInvalid]: deadLink,
    [lifecycleErrors.activateTokenExpired]: deadLink,
  },
  otherwise: unexpected,
};

/** SPEC §7 registration: an invalid link, or one whose address has an account already. */
export const registrationErrors: ErrorTable<Row> = {
  network: networkNotice,
  codes: {
    ...passwordRows,
    [lifecycleErrors.registerTokenInvalid]: deadLink,
    [lifecycleErrors.registerAccountExists]: deadLink,
  },
  otherwise: unexpected,
};

/** SPEC §8 reset: TokenNotFound (409) and TokenExpired (410) go back to the reset page. */
export const resetErrors: ErrorTable<Row> = {
  network: networkNotice,
  codes: {
    ...passwordRows,
    [lifecycleErrors.resetTokenNotFound]: deadLink,
    [lifecycleErrors.resetTokenExpired]: deadLink,
  },
  otherwise: unexpected,
};

/**
 * SPEC §8 e-mail verification: EmailInValid (400) is said on the address; an invalid or
 * expired link ends on verify-expired.
 */
export const verifyEmailErrors: ErrorTable<Row> = {
  network: networkNotice,
  codes: {
    [lifecycleErrors.verifyEmailInvalid]: { kind: 'address', key: 'lifecycle.verifyEmail.mismatch' },
    [lifecycleErrors.verifyTokenInvalid]: deadLink,
    [lifecycleErrors.verifyTokenExpired]: deadLink,
  },
  otherwise: unexpected,
};

/** Sending a verification mail: limited per account (docs/accounts.md), said with the wait. */
export const verificationMailErrors: ErrorTable<Row> = {
  network: networkNotice,
  codes: {
    [errorCodes.rateLimited]: {
      kind: 'notice',
      key: 'lifecycle.errors.rateLimited',
      waitKey: 'lifecycle.errors.rateLimitedVerification',
    },
  },
  otherwise: unexpected,
};

/** The wait a 429 names (fields.retryAfterSeconds), under the text that says whose limit it is. */
function waitOf(caught: unknown, key: PortalTextKey): Wait | undefined {
  const seconds = caught instanceof ApiRequestError ? Number(caught.fields?.retryAfterSeconds) : Number.NaN;
  return seconds > 0 ? { key, seconds } : undefined;
}

/** A refusal as the flow's table says, with the wait of a rate limit read from the answer. */
export function lifecycleOutcome(table: ErrorTable<Row>, caught: unknown): LifecycleOutcome {
  const row = lookupError(table, caught);
  if (row.kind !== 'notice') return row;
  const wait = row.waitKey ? waitOf(caught, row.waitKey) : undefined;
  return wait ? { kind: 'notice', key: row.key, wait } : { kind: 'notice', key: row.key };
}

/** What a password form shows after a refused submission: a message on the password, or a notice. */
export type FormOutcome = { refuse: ServerPasswordProblem } | { notice: PortalTextKey; wait?: Wait } | null;

/**
 * A password form's refusal: shown on the form (FormOutcome), or null when the flow acts on it
 * itself (`act`: a dead link, an unexpected answer).
 */
export function formOutcome(
  outcome: LifecycleOutcome,
  act: (outcome: LifecycleOutcome) => void,
): FormOutcome {
  if (outcome.kind === 'password') return { refuse: outcome.key };
  if (outcome.kind === 'notice')
    return outcome.wait ? { notice: outcome.key, wait: outcome.wait } : { notice: outcome.key };
  act(outcome);
  return null;
}
