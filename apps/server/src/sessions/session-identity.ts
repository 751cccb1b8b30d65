import type { UserIdentity } from '@keycard/contract';
import type { Kysely } from 'kysely';
import { buildUserIdentity, isSessionComplete, userStateOf } from '../accounts/identity.ts';
import { findUserById, type UserRow } from '../accounts/user.repository.ts';
import type { Database } from '../db/schema.ts';
import type { TenantContext } from '../tenants/tenant.types.ts';
import { findSession, type SessionRow } from './session.service.ts';

export interface ResolvedSession {
  session: SessionRow;
  user: UserRow;
  identity: UserIdentity;
  complete: boolean;
}

/** The session behind a cookie on this tenant, with the user's current state. */
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
  const state = userStateOf(tenant, user, { mfaVerifiedAt: session.mfa_verified_at }, now);
  const identity = buildUserIdentity(tenant, user, state, now);
  return { session, user, identity, complete: isSessionComplete(identity) };
}
