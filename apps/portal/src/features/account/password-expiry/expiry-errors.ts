import { accountErrors, errorCodes, lifecycleErrors } from '@keycard/contract/errors';
import { type ErrorTable, lookupError, trustErrorCodes } from '../../../lib/api.ts';
import type { PortalTextKey } from '../../../lib/i18n.tsx';
import type { ServerPasswordProblem } from '../shared/new-password.tsx';

// The families this table reads: trusted when it loads, before any call of its flow (lib/api.ts).
trustErrorCodes(accountErrors, lifecycleErrors);

/**
 * What a refused in-place change does on the expiry pages: a wrong current password or a
 * refused new one is shown on its field; a session that ended starts the sign-in again; the
 * rest is a notice.
 */
export type ExpiryRow =
  | { kind: 'current'; key: PortalTextKey }
  | { kind: 'new'; key: ServerPasswordProblem }
  | { kind: 'signedOut' }
  /** The account has a factor: the password alone is not a recent sign-in, the factor is asked too. */
  | { kind: 'factor' }
  | { kind: 'notice'; key: PortalTextKey };

export const expiryChangeErrors: ErrorTable<ExpiryRow> = {
  network: { kind: 'notice', key: 'account.errors.network' },
  codes: {
    [accountErrors.currentPasswordInvalid]: { kind: 'current', key: 'account.errors.currentPassword' },
    [lifecycleErrors.passwordHistory]: { kind: 'new', key: 'lifecycle.passwordForm.errors.history' },
    [lifecycleErrors.passwordLeaked]: { kind: 'new', key: 'lifecycle.passwordForm.errors.leaked' },
    [accountErrors.recentSignInRequired]: { kind: 'factor' },
    [errorCodes.sessionRequired]: { kind: 'signedOut' },
    [errorCodes.rateLimited]: { kind: 'notice', key: 'account.errors.tooMany' },
    [errorCodes.tooManyAttempts]: { kind: 'notice', key: 'account.errors.tooMany' },
  },
  otherwise: { kind: 'notice', key: 'account.errors.unknown' },
};

export function expiryRefusal(caught: unknown): ExpiryRow {
  return lookupError(expiryChangeErrors, caught);
}
