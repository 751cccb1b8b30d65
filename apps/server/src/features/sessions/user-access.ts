import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';
import { consumeUserTokens } from '../../platform/shared/one-time-token.ts';
import { forgetBrowsers } from './known-browser.ts';
import { invalidateUserSessions } from './session.service.ts';

/**
 * Invariant 7: a credential change (password reset, MFA reset, an account disabled or
 * deleted) ends everything that carried the old credentials: every Keycard session of the
 * user, every provider grant, access token, refresh token, code and provider session on the
 * tenant, every login code and partner hand-off code not yet redeemed, and the browsers known
 * for the account. `keepSessionId` spares the session that made the change itself (an MFA reset
 * continues in the same session to set a factor up again). Run it inside the transaction of
 * the change, so both happen or neither.
 */
export async function endUserAccess(
  db: Kysely<Database>,
  input: { tenantCode: string; userId: string; keepSessionId?: string },
  now: number,
): Promise<void> {
  await invalidateUserSessions(db, input.userId, input.keepSessionId);
  await revokeUserGrants(db, input.tenantCode, input.userId);
  // A login code checked against the old credentials must not open a session afterwards.
  await consumeUserTokens(
    db,
    { tenantCode: input.tenantCode, userId: input.userId, purpose: 'LOGIN_CODE' },
    now,
  );
  // A partner hand-off code (issue 8) issued from a session that just ended must not reach an
  // app afterwards: its sessions, partner ones included, are gone, so are its codes (issue 16).
  await consumeUserTokens(
    db,
    { tenantCode: input.tenantCode, userId: input.userId, purpose: 'PARTNER_HANDOFF' },
    now,
  );
  await forgetBrowsers(db, input.tenantCode, input.userId);
}

/**
 * Invariant 7: a credential change ends every grant. Removes all of a user's provider
 * artifacts on the tenant — grants, access and refresh tokens, codes and the provider's own
 * sessions — in one statement.
 */
async function revokeUserGrants(db: Kysely<Database>, tenantCode: string, userId: string): Promise<void> {
  await db
    .deleteFrom('oidc_payloads')
    .where('tenant_code', '=', tenantCode)
    .where('account_id', '=', userId)
    .execute();
}
