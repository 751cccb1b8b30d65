import type { IdentityProvider } from '@keycard/contract';
import type { Kysely, Selectable } from 'kysely';
import type { Database, SessionsTable } from '../db/schema.ts';
import { DAY } from '../shared/clock.ts';
import { createToken, hashToken } from '../shared/crypto.ts';

export type SessionRow = Selectable<SessionsTable>;

/** SPEC §9: the session token cookie lives 30 days. */
export const sessionLifetimeMs = 30 * DAY;

export async function createSession(
  db: Kysely<Database>,
  input: { tenantCode: string; userId: string; provider: IdentityProvider; partnerCode?: string | null },
  now: number,
): Promise<{ token: string; session: SessionRow }> {
  const token = createToken();
  const session: SessionRow = {
    id: hashToken(token),
    tenant_code: input.tenantCode,
    user_id: input.userId,
    provider: input.provider,
    partner_code: input.partnerCode ?? null,
    mfa_verified_at: null,
    created_at: now,
    expires_at: now + sessionLifetimeMs,
    last_seen_at: now,
  };
  await db.insertInto('sessions').values(session).execute();
  return { token, session };
}

/** A session is found only on the tenant that issued it, and only while it lives. */
export async function findSession(
  db: Kysely<Database>,
  tenantCode: string,
  token: string | undefined,
  now: number,
): Promise<SessionRow | null> {
  if (!token || token.length > 128) return null;
  const row = await db
    .selectFrom('sessions')
    .selectAll()
    .where('id', '=', hashToken(token))
    .where('tenant_code', '=', tenantCode)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row ?? null;
}

/**
 * Marks the session as having passed MFA (the provider then reports amr 'mfa'). Only the
 * first check counts as the time of verification.
 */
export async function markSessionMfaVerified(db: Kysely<Database>, sessionId: string, now: number) {
  await db
    .updateTable('sessions')
    .set({ mfa_verified_at: now })
    .where('id', '=', sessionId)
    .where('mfa_verified_at', 'is', null)
    .execute();
}

export async function revokeSession(
  db: Kysely<Database>,
  tenantCode: string,
  token: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('sessions')
    .where('id', '=', hashToken(token))
    .where('tenant_code', '=', tenantCode)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function invalidateUserSessions(
  db: Kysely<Database>,
  userId: string,
  exceptSessionId?: string,
): Promise<void> {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (exceptSessionId) query = query.where('id', '!=', exceptSessionId);
  await query.execute();
}
