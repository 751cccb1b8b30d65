import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';
import { hashToken } from '../../platform/shared/crypto.ts';
import type { PasskeyRow } from './passkey.schema.ts';

/** What a ceremony's challenge is for; a challenge made for one is never accepted for another. */
export type CeremonyPurpose = 'sign-in' | 'register' | 'verify';

/** A challenge lives five minutes (the options' timeout), and is used once. */
export const challengeTtlMs = 5 * 60_000;

/** Where a ceremony's challenge is bound: tenant, domain, browser and (signed in) session. */
export interface CeremonyBinding {
  tenantCode: string;
  purpose: CeremonyPurpose;
  rpId: string;
  /** The browser's ceremony cookie (only its hash is stored). */
  browserToken: string;
  sessionId: string | null;
  userId: string | null;
}

/**
 * A new challenge (32 random bytes, base64url) stored by its hash with its binding. Expired
 * ceremonies of the tenant are dropped on the way: the table holds minutes of rows, not years.
 */
export async function issueChallenge(
  db: Kysely<Database>,
  binding: CeremonyBinding,
  now: number,
): Promise<string> {
  const challenge = randomBytes(32).toString('base64url');
  await db
    .deleteFrom('passkey_challenges')
    .where('tenant_code', '=', binding.tenantCode)
    .where('expires_at', '<', now - challengeTtlMs)
    .execute();
  await db
    .insertInto('passkey_challenges')
    .values({
      id: hashToken(challenge),
      tenant_code: binding.tenantCode,
      purpose: binding.purpose,
      rp_id: binding.rpId,
      browser: hashToken(binding.browserToken),
      session_id: binding.sessionId,
      user_id: binding.userId,
      created_at: now,
      expires_at: now + challengeTtlMs,
      consumed_at: null,
    })
    .execute();
  return challenge;
}

/**
 * Uses a challenge up: one guarded UPDATE … RETURNING, so of any number of concurrent requests
 * with it (on any instance) exactly one gets it. Only for the binding it was issued with: the
 * same tenant, domain, purpose, browser and session, within its five minutes. False otherwise.
 */
export async function consumeChallenge(
  db: Kysely<Database>,
  challenge: string,
  binding: CeremonyBinding,
  now: number,
): Promise<boolean> {
  if (challenge.length === 0 || challenge.length > 128 || binding.browserToken.length < 32) return false;
  let query = db
    .updateTable('passkey_challenges')
    .set({ consumed_at: now })
    .where('id', '=', hashToken(challenge))
    .where('tenant_code', '=', binding.tenantCode)
    .where('purpose', '=', binding.purpose)
    .where('rp_id', '=', binding.rpId)
    .where('browser', '=', hashToken(binding.browserToken))
    .where('consumed_at', 'is', null)
    .where('expires_at', '>', now);
  query =
    binding.sessionId === null
      ? query.where('session_id', 'is', null)
      : query.where('session_id', '=', binding.sessionId);
  if (binding.userId !== null) query = query.where('user_id', '=', binding.userId);
  const row = await query.returning('id').executeTakeFirst();
  return row !== undefined;
}

/** The account's random WebAuthn user handle, made on first use (never its e-mail or id). */
export async function userHandleOf(
  db: Kysely<Database>,
  tenantCode: string,
  userId: string,
): Promise<string> {
  const existing = await findUserHandle(db, tenantCode, userId);
  if (existing) return existing;
  await db
    .insertInto('passkey_user_handles')
    .values({ user_id: userId, tenant_code: tenantCode, handle: randomBytes(32).toString('base64url') })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
  const made = await findUserHandle(db, tenantCode, userId);
  if (!made) throw new Error('the user handle was not stored');
  return made;
}

export async function findUserHandle(
  db: Kysely<Database>,
  tenantCode: string,
  userId: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('passkey_user_handles')
    .select('handle')
    .where('user_id', '=', userId)
    .where('tenant_code', '=', tenantCode)
    .executeTakeFirst();
  return row?.handle;
}

/** The account's passkeys, oldest first; on one domain when rpId is given. */
export async function listCredentials(
  db: Kysely<Database>,
  tenantCode: string,
  userId: string,
  rpId?: string,
): Promise<PasskeyRow[]> {
  let query = db
    .selectFrom('passkey_credentials')
    .selectAll()
    .where('tenant_code', '=', tenantCode)
    .where('user_id', '=', userId);
  if (rpId !== undefined) query = query.where('rp_id', '=', rpId);
  return query.orderBy('created_at').orderBy('id').execute();
}

export async function countCredentials(
  db: Kysely<Database>,
  tenantCode: string,
  userId: string,
): Promise<number> {
  const row = await db
    .selectFrom('passkey_credentials')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('tenant_code', '=', tenantCode)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * The credential an assertion names, with its account's user handle: always by tenant AND
 * domain, so a passkey signs in only on the domain it was made on, and never on another tenant.
 */
export async function findCredential(
  db: Kysely<Database>,
  where: { tenantCode: string; rpId: string; credentialId: string },
): Promise<(PasskeyRow & { handle: string | null }) | undefined> {
  return db
    .selectFrom('passkey_credentials as c')
    .leftJoin('passkey_user_handles as h', (join) =>
      join.onRef('h.user_id', '=', 'c.user_id').onRef('h.tenant_code', '=', 'c.tenant_code'),
    )
    .selectAll('c')
    .select('h.handle')
    .where('c.tenant_code', '=', where.tenantCode)
    .where('c.rp_id', '=', where.rpId)
    .where('c.credential_id', '=', where.credentialId)
    .executeTakeFirst();
}

/**
 * Records a verified use: the new counter, backup state and time, guarded by the counter read
 * before the check, so two assertions carrying the same counter (a cloned authenticator, or a
 * replay racing the original) cannot both pass. A counter that stays 0 (most synced passkeys
 * never count) guards nothing: those rely on the single-use challenge alone. False when
 * another use came first.
 */
export async function recordCredentialUse(
  db: Kysely<Database>,
  row: Pick<PasskeyRow, 'id' | 'tenant_code' | 'counter'>,
  use: { counter: number; backedUp: boolean },
  now: number,
): Promise<boolean> {
  const stored = Number(row.counter);
  const result = await db
    .updateTable('passkey_credentials')
    .set({
      counter: Math.max(stored, use.counter),
      backed_up: use.backedUp ? 1 : 0,
      last_used_at: now,
    })
    .where('id', '=', row.id)
    .where('tenant_code', '=', row.tenant_code)
    .where('counter', '=', stored)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Removes every passkey of an account (an MFA reset, the user's or an operator's). */
export async function removeAllCredentials(
  db: Kysely<Database>,
  tenantCode: string,
  userId: string,
): Promise<number> {
  const result = await db
    .deleteFrom('passkey_credentials')
    .where('tenant_code', '=', tenantCode)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** How many of the account's passkeys were made on this domain (usable here). */
export async function countPasskeysOnHost(
  db: Kysely<Database>,
  where: { tenantCode: string; userId: string; rpId: string },
): Promise<number> {
  const row = await db
    .selectFrom('passkey_credentials')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('tenant_code', '=', where.tenantCode)
    .where('user_id', '=', where.userId)
    .where('rp_id', '=', where.rpId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The domains (RP IDs) where the account has a passkey, each once. */
export async function passkeyDomainsOf(
  db: Kysely<Database>,
  tenantCode: string,
  userId: string,
): Promise<string[]> {
  const rows = await db
    .selectFrom('passkey_credentials')
    .select('rp_id')
    .distinct()
    .where('tenant_code', '=', tenantCode)
    .where('user_id', '=', userId)
    .orderBy('rp_id')
    .execute();
  return rows.map((row) => row.rp_id);
}
