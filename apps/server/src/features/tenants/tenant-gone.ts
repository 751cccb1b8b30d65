import { adminErrors, type ErrorCode, errorCodes } from '@keycard/contract';
import type { FastifyRequest } from 'fastify';
import { type Kysely, PostgresAdapter, sql } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';

/**
 * How a write fails when the tenant it names is being deleted under it: PostgreSQL's
 * foreign_key_violation (23503), or a deadlock (40P01) with the deletion's transaction, which
 * locks the tenant and then its accounts while the write holds an account and waits for the
 * tenant; SQLite's FOREIGN KEY constraint (extended code 787).
 */
export function isTenantRaceFailure(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const { code, errcode, message } = current as { code?: unknown; errcode?: unknown; message?: unknown };
    if (code === '23503' || code === '40P01' || errcode === 787) return true;
    if (typeof message === 'string' && /FOREIGN KEY constraint failed/.test(message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** `for key share` on PostgreSQL (SQLite has one writer at a time, and no such clause). */
export function keyShareLock(db: Kysely<Database>) {
  return sql.raw(db.getExecutor().adapter instanceof PostgresAdapter ? 'for key share' : '');
}

/**
 * Does a tenant of this code exist? Read from the database, never from a cache; on PostgreSQL
 * it waits for a deletion in progress (which holds the tenant's row) to commit or roll back.
 */
export async function tenantExists(db: Kysely<Database>, code: string): Promise<boolean> {
  const { rows } = await sql`select code from tenants where code = ${code} ${keyShareLock(db)}`.execute(db);
  return rows.length > 0;
}

/** The tenant an admin API path names (/admin/api/v1/tenants/{code}/…), if any. */
function adminTenantOf(url: string): string | undefined {
  const match = /^\/admin\/api\/v\d+\/tenants\/([^/?#]+)/.exec(url);
  return match ? decodeURIComponent(match[1]!) : undefined;
}

/**
 * What a request answers when a write of it failed because its tenant was deleted meanwhile
 * (issue 16): the tenant's 404 — an unknown host on the tenant's own domains, the admin API's
 * admin.tenant_not_found there — rather than a 500. Null when the tenant still exists (the
 * failure is something else, and stays a 500).
 */
export function tenantGoneAnswer(db: Kysely<Database>) {
  return async (request: FastifyRequest, error: unknown): Promise<ErrorCode | null> => {
    if (!isTenantRaceFailure(error)) return null;
    const admin = adminTenantOf(request.url);
    const code = admin ?? request.tenant?.code;
    if (!code || (await tenantExists(db, code).catch(() => true))) return null;
    return admin ? adminErrors.tenantNotFound : errorCodes.unknownDomain;
  };
}

/** `for update` on PostgreSQL (SQLite runs one write transaction at a time). */
export function forUpdate(db: Kysely<Database>) {
  return sql.raw(db.getExecutor().adapter instanceof PostgresAdapter ? 'for update' : '');
}

/**
 * Runs a transaction again when PostgreSQL ended it to break a deadlock (40P01): the other
 * side has gone on, and the next attempt usually finds the way clear. A few attempts, then
 * the failure stands.
 */
export async function retryOnDeadlock<T>(work: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if ((error as { code?: unknown }).code !== '40P01' || attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10 * attempt + Math.random() * 20));
    }
  }
}
