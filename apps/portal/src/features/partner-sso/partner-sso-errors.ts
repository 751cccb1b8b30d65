import { paths } from '@keycard/contract/paths';
import { isNetworkError } from '../../lib/api.ts';

/** What the partner sign-in does with a failure. */
export type PartnerSsoFailure = { kind: 'retry' } | { kind: 'leave'; to: string };

/**
 * SPEC §8 'Partner SSO', the flow's one table: a request that got no answer may be retried
 * from the warning dialog; every refusal (unknown partner, invalid, expired or replayed token,
 * keys unavailable, account not linked or disabled) goes to the unknown-error page. The
 * reason is in the server's log, never on screen: it would tell a forger which check failed.
 */
export function partnerSsoFailure(caught: unknown): PartnerSsoFailure {
  return isNetworkError(caught) ? { kind: 'retry' } : { kind: 'leave', to: paths.error };
}
