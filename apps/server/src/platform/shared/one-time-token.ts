import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { createToken, hashToken } from './crypto.ts';

export type TokenPurpose =
  | 'LOGIN_CODE'
  | 'ACTIVATE'
  | 'REGISTER'
  | 'RESET'
  | 'VERIFY_EMAIL'
  | 'PARTNER_HANDOFF';

/** Issues a single-use token: 256 random bits, only the hash stored, bound to tenant and purpose. */
export async function issueToken(
  db: Kysely<Database>,
  input: { tenantCode: string; userId: string | null; purpose: TokenPurpose; ttlMs: number; data?: unknown },
  now: number,
): Promise<string> {
  const token = createToken();
  await db
    .insertInto('one_time_tokens')
    .values({
      id: hashToken(token),
      tenant_code: input.tenantCode,
      user_id: input.userId,
      purpose: input.purpose,
      data: input.data === undefined ? null : JSON.stringify(input.data),
      created_at: now,
      expires_at: now + input.ttlMs,
      consumed_at: null,
    })
    .execute();
  return token;
}

export type RedeemResult =
  | { ok: true; userId: string | null; data: unknown }
  | { ok: false; reason: 'not_found' | 'expired' | 'consumed' };

/**
 * Consumes a token atomically: one UPDATE … RETURNING, so two concurrent redemptions of the
 * same token cannot both succeed (replay defence), on either engine.
 */
export async function redeemToken(
  db: Kysely<Database>,
  input: { tenantCode: string; purpose: TokenPurpose; token: string },
  now: number,
): Promise<RedeemResult> {
  if (input.token.length > 256) return { ok: false, reason: 'not_found' };
  const id = hashToken(input.token);
  const row = await db
    .updateTable('one_time_tokens')
    .set({ consumed_at: now })
    .where('id', '=', id)
    .where('tenant_code', '=', input.tenantCode)
    .where('purpose', '=', input.purpose)
    .where('consumed_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['user_id', 'data'])
    .executeTakeFirst();
  if (row) return { ok: true, userId: row.user_id, data: row.data ? JSON.parse(row.data) : null };
  const existing = await db
    .selectFrom('one_time_tokens')
    .select(['consumed_at', 'expires_at'])
    .where('id', '=', id)
    .where('tenant_code', '=', input.tenantCode)
    .where('purpose', '=', input.purpose)
    .executeTakeFirst();
  if (!existing) return { ok: false, reason: 'not_found' };
  return { ok: false, reason: existing.consumed_at !== null ? 'consumed' : 'expired' };
}

/**
 * Checks a token without consuming it: pages validate a link before the form is filled in,
 * and the redemption that counts comes later (redeemToken, still atomic and single use).
 */
export async function peekToken(
  db: Kysely<Database>,
  input: { tenantCode: string; purpose: TokenPurpose; token: string },
  now: number,
): Promise<RedeemResult> {
  if (input.token.length > 256) return { ok: false, reason: 'not_found' };
  const row = await db
    .selectFrom('one_time_tokens')
    .select(['user_id', 'data', 'consumed_at', 'expires_at'])
    .where('id', '=', hashToken(input.token))
    .where('tenant_code', '=', input.tenantCode)
    .where('purpose', '=', input.purpose)
    .executeTakeFirst();
  if (!row) return { ok: false, reason: 'not_found' };
  if (row.consumed_at !== null) return { ok: false, reason: 'consumed' };
  if (row.expires_at <= now) return { ok: false, reason: 'expired' };
  return { ok: true, userId: row.user_id, data: row.data ? JSON.parse(row.data) : null };
}

/** Retires every live token of one purpose for a user (a used reset link ends its siblings). */
export async function consumeUserTokens(
  db: Kysely<Database>,
  input: { tenantCode: string; userId: string; purpose: TokenPurpose },
  now: number,
): Promise<void> {
  await db
    .updateTable('one_time_tokens')
    .set({ consumed_at: now })
    .where('tenant_code', '=', input.tenantCode)
    .where('user_id', '=', input.userId)
    .where('purpose', '=', input.purpose)
    .where('consumed_at', 'is', null)
    .execute();
}
