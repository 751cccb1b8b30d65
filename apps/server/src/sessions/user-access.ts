import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { revokeUserGrants } from '../oidc/adapter.ts';
import { invalidateUserSessions } from './session.service.ts';

/**
 * Invariant 7: a credential change (password reset, MFA reset, an account disabled or
 * deleted) ends everything that carried the old credentials: every Keycard session of the
 * user and every provider grant, access token, refresh token, code and provider session on
 * the tenant. `keepSessionId` spares the session that made the change itself (an MFA reset
 * continues in the same session to set a factor up again). Run it inside the transaction of
 * the change, so both happen or neither.
 */
export async function endUserAccess(
  db: Kysely<Database>,
  input: { tenantCode: string; userId: string; keepSessionId?: string },
): Promise<void> {
  await invalidateUserSessions(db, input.userId, input.keepSessionId);
  await revokeUserGrants(db, input.tenantCode, input.userId);
}
