import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';
import { DAY } from '../../platform/shared/clock.ts';
import { createToken, hashToken } from '../../platform/shared/crypto.ts';

/** A browser stays known for a year after its last sign-in (SPEC §9: device id, 365 days). */
export const knownBrowserLifetimeMs = 365 * DAY;

/**
 * Browsers that signed in to an account before. Each keeps an HttpOnly cookie with a token of
 * 256 random bits (only its hash is stored), bound to the account and tenant. It grants
 * nothing by itself: its only use is that the lockout counts its password attempts apart
 * from the address's (docs/security.md), so whoever guesses at an address elsewhere cannot
 * lock its owner out of the browsers they use.
 */
export async function findKnownBrowserId(
  db: Kysely<Database>,
  input: { tenantCode: string; userId: string; token: string },
  now: number,
): Promise<string | null> {
  if (input.token.length > 128) return null;
  const row = await db
    .selectFrom('known_browsers')
    .select('id')
    .where('id', '=', hashToken(input.token))
    .where('tenant_code', '=', input.tenantCode)
    .where('user_id', '=', input.userId)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row?.id ?? null;
}

/** Makes this browser known for the account; answers the token for its cookie. */
export async function rememberBrowser(
  db: Kysely<Database>,
  input: { tenantCode: string; userId: string },
  now: number,
): Promise<string> {
  const token = createToken();
  await db
    .insertInto('known_browsers')
    .values({
      id: hashToken(token),
      tenant_code: input.tenantCode,
      user_id: input.userId,
      created_at: now,
      expires_at: now + knownBrowserLifetimeMs,
    })
    .execute();
  return token;
}

/**
 * Forgets every browser of the account (its credentials changed, or it went); `exceptId` keeps
 * the one that made the change (a password changed on the account page).
 */
export async function forgetBrowsers(
  db: Kysely<Database>,
  tenantCode: string,
  userId: string,
  exceptId?: string | null,
): Promise<void> {
  let query = db
    .deleteFrom('known_browsers')
    .where('tenant_code', '=', tenantCode)
    .where('user_id', '=', userId);
  if (exceptId) query = query.where('id', '!=', exceptId);
  await query.execute();
}

/** How many browsers the account knows now (the new-browser mail skips an account's first). */
export async function countKnownBrowsers(
  db: Kysely<Database>,
  tenantCode: string,
  userId: string,
  now: number,
): Promise<number> {
  const row = await db
    .selectFrom('known_browsers')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('tenant_code', '=', tenantCode)
    .where('user_id', '=', userId)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}
