import type { UserIdentity } from '@keycard/contract';
import type { Kysely } from 'kysely';
import { buildUserIdentity, isSessionComplete, userStateOf } from '../accounts/identity.ts';
import { findUserById, type UserRow } from '../accounts/user.repository.ts';
import type { Database } from '../db/schema.ts';
import { loadMfaFacts, mfaRequiredByRemainingInDays } from '../mfa/mfa-policy.ts';
import type { TenantContext } from '../tenants/tenant.types.ts';
import { findSession, type SessionRow } from './session.service.ts';

export interface ResolvedSession {
  session: SessionRow;
  user: UserRow;
  identity: UserIdentity;
  complete: boolean;
}

/**
 * The session behind a cookie on this tenant, with the user's current state: the one place
 * that decides, for every request and for the provider's login check, whether the session
 * has passed every step (password, MFA per the tenant's policy and the user's enrolment).
 */
export async function resolveSession(
  db: Kysely<Database>,
  tenant: TenantContext,
  token: string | undefined,
  now: number,
): Promise<ResolvedSession | null> {
  const session = await findSession(db, tenant.code, token, now);
  if (!session) return null;
  const user = await findUserById(db, tenant.code, session.user_id);
  if (user?.status !== 'active') return null;
  const mfa = await loadMfaFacts(db, tenant, user.id, now);
  const state = userStateOf(tenant, user, { mfaVerifiedAt: session.mfa_verified_at }, now, mfa);
  const identity = buildUserIdentity(tenant, user, state, now, mfaRequiredByRemainingInDays(tenant, now));
  return { session, user, identity, complete: isSessionComplete(identity) };
}
