import { createHash } from 'node:crypto';
import type { AccountSession, AccountSignInMethod } from '@keycard/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';
import { browserSummary } from './user-agent.ts';

/** A session's last use is written at most this often (per instance), so requests stay reads. */
export const sessionTouchIntervalMs = 5 * 60_000;

const maxUserAgent = 512;
/** Sessions this instance noted lately, by id: when it last wrote their use. */
const touched = new Map<string, number>();
const maxRemembered = 50_000;

/**
 * The account page's name for a session: a one-way digest of its id (itself the digest of the
 * cookie's token), so the page can point at a session without the value that finds it.
 */
export function sessionRef(sessionId: string): string {
  return createHash('sha256').update(`keycard.session-ref\0${sessionId}`).digest('base64url').slice(0, 32);
}

/**
 * Notes that a session was used (its browser, its address, when), for the account page. The
 * hot path stays a read: each instance writes a session's use at most once every five minutes
 * and keeps the time it did in memory; a lost memory costs one more write. A session that ended
 * meanwhile (its row is gone) is not noted.
 */
export async function noteSessionUse(
  db: Kysely<Database>,
  session: { id: string; tenant_code: string },
  seen: { userAgent?: string | null | undefined; ip?: string | null | undefined },
  now: number,
): Promise<void> {
  const last = touched.get(session.id);
  if (last !== undefined && now >= last && now - last < sessionTouchIntervalMs) return;
  if (touched.size >= maxRemembered) touched.clear();
  touched.set(session.id, now);
  const details = {
    user_agent: seen.userAgent ? seen.userAgent.slice(0, maxUserAgent) : null,
    ip: seen.ip ? seen.ip.slice(0, 64) : null,
    last_used_at: now,
  };
  try {
    await db
      .insertInto('session_details')
      .values({ session_id: session.id, tenant_code: session.tenant_code, ...details })
      .onConflict((oc) => oc.column('session_id').doUpdateSet(details))
      .execute();
  } catch {
    // The session ended between its check and this write (its row is gone): nothing to note.
    touched.delete(session.id);
  }
}

/** Forgets what this instance remembers of sessions' use (tests start from nothing). */
export function forgetSessionUse(): void {
  touched.clear();
}

/** How a session signed in, as the account page says it: password, passkey or partner. */
export function sessionSignInMethod(row: {
  provider: string;
  mfa_method: string | null;
  mfa_verified_at: number | null;
  created_at: number;
}): AccountSignInMethod {
  if (row.provider === 'authx') return 'partner';
  if (row.provider === 'passkey') return 'passkey';
  // A passkey sign-in passes MFA as the session is made (docs/passkeys.md).
  const passkey = row.mfa_method?.startsWith('passkey-') ?? false;
  return passkey && Number(row.mfa_verified_at) === Number(row.created_at) ? 'passkey' : 'password';
}

/** The account's live sessions on the tenant for the account page: this one first, then by last use. */
export async function listSessions(
  db: Kysely<Database>,
  input: { tenantCode: string; userId: string; currentSessionId: string },
  now: number,
): Promise<AccountSession[]> {
  const rows = await db
    .selectFrom('sessions as s')
    .leftJoin('session_details as d', 'd.session_id', 's.id')
    .select([
      's.id',
      's.provider',
      's.created_at',
      's.mfa_method',
      's.mfa_verified_at',
      's.reauthenticated_at',
      'd.user_agent',
      'd.ip',
      'd.last_used_at',
    ])
    .where('s.tenant_code', '=', input.tenantCode)
    .where('s.user_id', '=', input.userId)
    .where('s.expires_at', '>', now)
    .execute();
  const sessions = rows.map((row) => ({
    id: sessionRef(row.id),
    current: row.id === input.currentSessionId,
    createdAt: Number(row.created_at),
    lastUsedAt: Math.max(
      Number(row.created_at),
      Number(row.last_used_at ?? 0),
      Number(row.mfa_verified_at ?? 0),
      Number(row.reauthenticated_at ?? 0),
    ),
    browser: browserSummary(row.user_agent),
    ip: row.ip,
    method: sessionSignInMethod(row),
  }));
  return sessions.sort((a, b) => Number(b.current) - Number(a.current) || b.lastUsedAt - a.lastUsedAt);
}

/** The id of the account's session the page names `ref`, if it has one. */
export async function findSessionByRef(
  db: Kysely<Database>,
  input: { tenantCode: string; userId: string; ref: string },
): Promise<string | null> {
  const rows = await db
    .selectFrom('sessions')
    .select('id')
    .where('tenant_code', '=', input.tenantCode)
    .where('user_id', '=', input.userId)
    .execute();
  return rows.find((row) => sessionRef(row.id) === input.ref)?.id ?? null;
}
