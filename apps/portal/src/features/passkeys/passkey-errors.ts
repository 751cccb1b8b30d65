import { accountErrors, errorCodes, passkeyErrors } from '@keycard/contract/errors';
import { type ErrorTable, lookupError, trustErrorCodes } from '../../lib/api.ts';
import type { PortalTextKey } from '../../lib/i18n.tsx';
import { type CeremonyFailure, PasskeyCeremonyError } from '../../lib/webauthn.ts';

// The families this table reads: trusted when it loads, before any call of its flow (lib/api.ts).
trustErrorCodes(accountErrors);

/** What the offer and the step-up say when a passkey could not be made or used. */
export type PasskeyProblem =
  | 'cancelled'
  | 'exists'
  | 'limit'
  | 'failed'
  | 'expired'
  | 'unsupported'
  | 'rateLimited'
  | 'notFound'
  | 'signInAgain'
  | 'network'
  | 'unknown';

/** The text of each (literal keys: the translator checks them). */
export const passkeyProblemTexts = {
  cancelled: 'passkeys.errors.cancelled',
  exists: 'passkeys.errors.exists',
  limit: 'passkeys.errors.limit',
  failed: 'passkeys.errors.failed',
  expired: 'passkeys.errors.expired',
  unsupported: 'passkeys.errors.unsupported',
  rateLimited: 'passkeys.errors.rateLimited',
  notFound: 'passkeys.errors.notFound',
  signInAgain: 'passkeys.errors.signInAgain',
  network: 'common.networkError',
  unknown: 'passkeys.errors.unknown',
} as const satisfies Record<PasskeyProblem, PortalTextKey>;

/**
 * The server's refusals of creating or using a passkey after a sign-in (docs/passkeys.md),
 * one row per code. The session gone or no longer recent enough to add one reads the same:
 * the offer is skipped (the account page adds one later).
 */
export const passkeyErrorTable: ErrorTable<PasskeyProblem> = {
  network: 'network',
  codes: {
    [passkeyErrors.verificationFailed]: 'failed',
    [passkeyErrors.challengeInvalid]: 'expired',
    [passkeyErrors.alreadyRegistered]: 'exists',
    [passkeyErrors.limitReached]: 'limit',
    [passkeyErrors.notFound]: 'notFound',
    [passkeyErrors.rateLimited]: 'rateLimited',
    [passkeyErrors.notOffered]: 'unsupported',
    [accountErrors.recentSignInRequired]: 'signInAgain',
    [errorCodes.sessionIncomplete]: 'signInAgain',
    [errorCodes.sessionRequired]: 'signInAgain',
  },
  otherwise: 'unknown',
};

/** The browser's ceremony ending without a passkey; null: the page cancelled it (nothing to say). */
const ceremonyRows: Record<CeremonyFailure, PasskeyProblem | null> = {
  aborted: null,
  cancelled: 'cancelled',
  exists: 'exists',
  unsupported: 'unsupported',
  network: 'network',
  failed: 'failed',
};

export function passkeyProblem(caught: unknown): PasskeyProblem | null {
  if (caught instanceof PasskeyCeremonyError) return ceremonyRows[caught.reason];
  return lookupError(passkeyErrorTable, caught);
}
