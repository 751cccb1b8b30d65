import { partnerErrors } from '@keycard/contract/errors';
import { paths } from '@keycard/contract/paths';
import { type ErrorTable, lookupError, trustErrorCodes } from '../../lib/api.ts';

// The families this table reads: trusted when it loads, before any call of its flow (lib/api.ts).
trustErrorCodes(partnerErrors);

/** What the partner sign-in does with a failure. */
export type PartnerSsoFailure = { kind: 'retry' } | { kind: 'unverified' } | { kind: 'leave'; to: string };

/**
 * SPEC §8 'Partner SSO', the flow's one table: a request that got no answer may be retried
 * from the warning dialog; an address the partner did not confirm is said on the page (the
 * user can act on it: confirm it at the partner, or sign in with a password — issue 16); every
 * other refusal (unknown partner, invalid, expired or replayed token, keys unavailable, account
 * not linked or disabled) goes to the unknown-error page. Their reason is in the server's log,
 * never on screen: it would tell a forger which check failed.
 */
export const partnerSsoErrors: ErrorTable<PartnerSsoFailure> = {
  network: { kind: 'retry' },
  codes: {
    [partnerErrors.emailUnverified]: { kind: 'unverified' },
  },
  otherwise: { kind: 'leave', to: paths.error },
};

export function partnerSsoFailure(caught: unknown): PartnerSsoFailure {
  return lookupError(partnerSsoErrors, caught);
}
