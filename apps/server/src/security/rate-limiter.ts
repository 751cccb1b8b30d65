import { createHash } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.ts';

export interface RateLimitResult {
  count: number;
  allowed: boolean;
  retryAfterMs: number;
}

export interface RateLimiter {
  /** Counts one hit on key in a fixed window; allowed while count <= limit. */
  hit(key: string, limit: number, windowMs: number, now: number): Promise<RateLimitResult>;
  peek(key: string, windowMs: number, now: number): Promise<number>;
  reset(key: string): Promise<void>;
}

/**
 * Keys embed user input (an e-mail address can be 254 characters): a long key is stored as
 * its readable prefix plus a SHA-256 of the whole, so every key fits the column (255).
 */
export function storageKey(key: string): string {
  if (key.length <= 200) return key;
  return `${key.slice(0, 100)}#${createHash('sha256').update(key).digest('base64url')}`;
}

/**
 * Fixed-window counters in the database, so every instance shares them (ARCHITECTURE: no
 * state only in one process's memory). One atomic upsert per hit on SQLite and PostgreSQL.
 */
export class SqlRateLimiter implements RateLimiter {
  readonly #db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  async hit(rawKey: string, limit: number, windowMs: number, now: number): Promise<RateLimitResult> {
    const key = storageKey(rawKey);
    const windowStart = Math.floor(now / windowMs) * windowMs;
    const expiresAt = windowStart + windowMs;
    const row = await this.#db
      .insertInto('rate_limits')
      .values({ key, window_start: windowStart, count: 1, expires_at: expiresAt })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          count: sql<number>`case when rate_limits.window_start = excluded.window_start then rate_limits.count + 1 else 1 end`,
          window_start: sql<number>`excluded.window_start`,
          expires_at: sql<number>`excluded.expires_at`,
        }),
      )
      .returning('count')
      .executeTakeFirstOrThrow();
    const count = Number(row.count);
    return { count, allowed: count <= limit, retryAfterMs: expiresAt - now };
  }

  async peek(rawKey: string, windowMs: number, now: number): Promise<number> {
    const key = storageKey(rawKey);
    const windowStart = Math.floor(now / windowMs) * windowMs;
    const row = await this.#db
      .selectFrom('rate_limits')
      .select('count')
      .where('key', '=', key)
      .where('window_start', '=', windowStart)
      .executeTakeFirst();
    return row ? Number(row.count) : 0;
  }

  async reset(key: string): Promise<void> {
    await this.#db.deleteFrom('rate_limits').where('key', '=', storageKey(key)).execute();
  }
}
