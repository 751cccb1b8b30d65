import {
  accountErrors,
  errorCodes,
  lifecycleErrors,
  mfaErrors,
  passkeyErrors,
} from '@keycard/contract/errors';
import { type ErrorTable, lookupError, trustErrorCodes } from '../../lib/api.ts';
import type { PortalTextKey } from '../../lib/i18n.tsx';

// The families this table reads: trusted when it loads, before any call of its flow (lib/api.ts).
trustErrorCodes(accountErrors, lifecycleErrors, mfaErrors);

/** A form field a refusal belongs to. */
export type AccountField = 'currentPassword' | 'newPassword' | 'reproofPassword' | 'code' | 'passkeyName';

/**
 * What a refused call does on the account page:
 * - `reprove`: the change needs a recent sign-in — ask "confirm it's you" in place, then retry;
 * - `field`: the text goes on a field of the form that was sent;
 * - `gone`: the thing is not there (any more) — say so and read the lists again;
 * - `signedOut`: the session ended — to the login, and back here after it;
 * - `notice`: the text in the page's alert.
 */
export type AccountRow =
  | { kind: 'reprove' }
  | { kind: 'field'; field: AccountField; key: PortalTextKey }
  | { kind: 'gone'; key: PortalTextKey }
  | { kind: 'signedOut' }
  | { kind: 'notice'; key: PortalTextKey };

const tooMany: AccountRow = { kind: 'notice', key: 'account.errors.tooMany' };
const gone: AccountRow = { kind: 'gone', key: 'account.errors.gone' };

/** One table for every call of the page (docs/account.md lists the codes each call answers). */
export const accountPageErrors: ErrorTable<AccountRow> = {
  network: { kind: 'notice', key: 'account.errors.network' },
  codes: {
    [accountErrors.recentSignInRequired]: { kind: 'reprove' },
    // Recovery codes are renewed through the MFA API, which asks for a fresh factor its own way.
    [mfaErrors.freshVerificationRequired]: { kind: 'reprove' },
    [accountErrors.currentPasswordInvalid]: {
      kind: 'field',
      field: 'currentPassword',
      key: 'account.errors.currentPassword',
    },
    [lifecycleErrors.passwordHistory]: {
      kind: 'field',
      field: 'newPassword',
      key: 'lifecycle.passwordForm.errors.history',
    },
    [lifecycleErrors.passwordLeaked]: {
      kind: 'field',
      field: 'newPassword',
      key: 'lifecycle.passwordForm.errors.leaked',
    },
    [accountErrors.notFound]: gone,
    [passkeyErrors.notFound]: gone,
    [accountErrors.factorRequired]: { kind: 'notice', key: 'account.errors.factorRequired' },
    [errorCodes.sessionRequired]: { kind: 'signedOut' },
    // A session still owing a step (MFA, an expired password) sees none of the page: the login
    // finishes it and comes back.
    [errorCodes.sessionIncomplete]: { kind: 'signedOut' },
    [errorCodes.rateLimited]: tooMany,
    [errorCodes.tooManyAttempts]: tooMany,
    [mfaErrors.rateLimited]: tooMany,
    [mfaErrors.attemptsExceeded]: tooMany,
    [mfaErrors.resendTooSoon]: tooMany,
    [passkeyErrors.rateLimited]: tooMany,
    [mfaErrors.codeInvalid]: { kind: 'field', field: 'code', key: 'account.errors.codeInvalid' },
    [mfaErrors.codeExpired]: { kind: 'field', field: 'code', key: 'account.errors.codeExpired' },
    [passkeyErrors.verificationFailed]: { kind: 'notice', key: 'account.errors.passkeyFailed' },
    // Answered by a passkey sign-in only, never on this page; a row all the same.
    [passkeyErrors.unknownCredential]: { kind: 'notice', key: 'account.errors.passkeyFailed' },
    [passkeyErrors.challengeInvalid]: { kind: 'notice', key: 'account.errors.passkeyFailed' },
    [passkeyErrors.alreadyRegistered]: { kind: 'notice', key: 'account.errors.passkeyExists' },
    [passkeyErrors.limitReached]: { kind: 'notice', key: 'account.errors.passkeyLimit' },
    [passkeyErrors.notOffered]: { kind: 'notice', key: 'account.errors.passkeysOff' },
  },
  otherwise: { kind: 'notice', key: 'account.errors.unknown' },
};

export function accountRefusal(caught: unknown): AccountRow {
  return lookupError(accountPageErrors, caught);
}

/**
 * The same table while confirming it's you: a wrong password there is the confirm form's own
 * field (not the password-change form's), and asking to confirm again cannot loop.
 */
export function reproofRefusal(caught: unknown): AccountRow {
  const row = accountRefusal(caught);
  if (row.kind === 'field' && row.field === 'currentPassword') {
    return { kind: 'field', field: 'reproofPassword', key: 'account.errors.wrongPassword' };
  }
  if (row.kind === 'reprove') return { kind: 'notice', key: 'account.errors.unknown' };
  return row;
}
