import { createHash, randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * How many attempts a key may make. Each counted attempt fills the key's bucket by one; the
 * bucket drains `limit` attempts per `windowMs`, continuously (a leaky bucket, not a
 * clock-aligned window: no boundary to burst across). A full bucket refuses further
 * attempts until it drains. With `lockMs`, a failure that leaves the bucket full locks the
 * key for lockMs from that moment; attempts while locked are refused and change nothing.
 */
export interface LimitRule {
  limit: number;
  windowMs: number;
  lockMs: number;
}

export type Reservation = { allowed: true } | { allowed: false; retryAfterMs: number };

/**
 * Attempt limits shared by every instance (ARCHITECTURE: no state only in one process's
 * memory). Invariant 7: an attempt is counted atomically *before* its secret is checked
 * (`reserve`), so a burst of concurrent guesses cannot all slip past a check of the count.
 */
export interface RateLimiter {
  /** Counts one attempt on key, now. Refused (and not counted) while locked or full. */
  reserve(key: string, rule: LimitRule, now: number): Promise<Reservation>;
  /** The reserved attempt succeeded: its own count is given back, nothing else is forgiven. */
  release(key: string, rule: LimitRule, now: number): Promise<void>;
  /** The reserved attempt failed: answers whether the key is locked now (bucket full). */
  fail(key: string, rule: LimitRule, now: number): Promise<{ locked: boolean }>;
  /** Forgets the key: its attempts and any lock (the owner proved control of the mailbox). */
  clear(key: string): Promise<void>;
  close(): Promise<void>;
}

/** Room left for float error in level arithmetic: a bucket is full above limit - 1 + ε. */
export const levelTolerance = 1e-6;

export const drainPerMs = (rule: LimitRule) => rule.limit / rule.windowMs;

/** The bucket's level at `now`, drained since it was last written. */
export function drainedLevel(level: number, updatedAt: number, rule: LimitRule, now: number): number {
  return Math.max(0, level - Math.max(0, now - updatedAt) * drainPerMs(rule));
}

/** How long until a bucket at `level` takes one more attempt. */
export function retryAfterMs(level: number, lockedUntil: number, rule: LimitRule, now: number): number {
  if (lockedUntil > now) return lockedUntil - now;
  return Math.max(1, Math.ceil((level + 1 - rule.limit) / drainPerMs(rule)));
}

/**
 * Keys embed user input (an e-mail address can be 254 characters): a long key is stored as
 * its readable prefix plus a SHA-256 of the whole, so every key fits the column (255).
 */
export function storageKey(key: string): string {
  if (key.length <= 200) return key;
  return `${key.slice(0, 100)}#${createHash('sha256').update(key).digest('base64url')}`;
}

const real = (value: number) => sql<number>`cast(${value} as double precision)`;
const int = (value: number) => sql<number>`cast(${value} as bigint)`;

/**
 * The buckets in the database (SQLite or PostgreSQL), one row per key. A reservation is a
 * single INSERT … ON CONFLICT DO UPDATE: the row lock (PostgreSQL) or the single writer
 * (SQLite) serialises concurrent reservations, and the update's CASE decides from the row as
 * the previous writer left it. RETURNING the reservation nonce tells whether this one counted.
 */
export class SqlRateLimiter implements RateLimiter {
  readonly #db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  async reserve(rawKey: string, rule: LimitRule, now: number): Promise<Reservation> {
    const key = storageKey(rawKey);
    const nonce = randomUUID();
    const drained = sql<number>`(case when attempt_buckets.level - (case when ${int(now)} > attempt_buckets.updated_at then ${int(now)} - attempt_buckets.updated_at else 0 end) * ${real(drainPerMs(rule))} > 0 then attempt_buckets.level - (case when ${int(now)} > attempt_buckets.updated_at then ${int(now)} - attempt_buckets.updated_at else 0 end) * ${real(drainPerMs(rule))} else 0 end)`;
    const refused = sql<boolean>`(attempt_buckets.locked_until > ${int(now)} or ${drained} + 1 > ${real(rule.limit + levelTolerance)})`;
    const row = await this.#db
      .insertInto('attempt_buckets')
      .values({
        key,
        level: 1,
        updated_at: now,
        locked_until: 0,
        reservation: nonce,
        expires_at: now + rule.windowMs,
      })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          level: sql<number>`case when ${refused} then attempt_buckets.level else ${drained} + 1 end`,
          updated_at: sql<number>`case when ${refused} then attempt_buckets.updated_at else ${int(now)} end`,
          reservation: sql<string>`case when ${refused} then attempt_buckets.reservation else ${nonce} end`,
          expires_at: sql<number>`case when ${refused} then attempt_buckets.expires_at when attempt_buckets.locked_until > ${int(now + rule.windowMs)} then attempt_buckets.locked_until else ${int(now + rule.windowMs)} end`,
        }),
      )
      .returning(['level', 'updated_at', 'locked_until', 'reservation'])
      .executeTakeFirstOrThrow();
    if (row.reservation === nonce) return { allowed: true };
    const level = drainedLevel(Number(row.level), Number(row.updated_at), rule, now);
    return { allowed: false, retryAfterMs: retryAfterMs(level, Number(row.locked_until), rule, now) };
  }

  async release(rawKey: string, rule: LimitRule, now: number): Promise<void> {
    const drained = sql<number>`(attempt_buckets.level - (case when ${int(now)} > attempt_buckets.updated_at then ${int(now)} - attempt_buckets.updated_at else 0 end) * ${real(drainPerMs(rule))})`;
    await this.#db
      .updateTable('attempt_buckets')
      .set({
        level: sql<number>`case when ${drained} - 1 > 0 then ${drained} - 1 else 0 end`,
        updated_at: sql<number>`case when ${int(now)} > attempt_buckets.updated_at then ${int(now)} else attempt_buckets.updated_at end`,
      })
      .where('key', '=', storageKey(rawKey))
      .execute();
  }

  async fail(rawKey: string, rule: LimitRule, now: number): Promise<{ locked: boolean }> {
    const key = storageKey(rawKey);
    if (rule.lockMs <= 0) return { locked: false };
    const drained = sql<number>`(attempt_buckets.level - (case when ${int(now)} > attempt_buckets.updated_at then ${int(now)} - attempt_buckets.updated_at else 0 end) * ${real(drainPerMs(rule))})`;
    const lockedUntil = now + rule.lockMs;
    // The lock starts now and lasts its full period; a lock already running is not extended.
    const result = await this.#db
      .updateTable('attempt_buckets')
      .set({
        locked_until: lockedUntil,
        expires_at: sql<number>`case when attempt_buckets.expires_at > ${int(lockedUntil)} then attempt_buckets.expires_at else ${int(lockedUntil)} end`,
      })
      .where('key', '=', key)
      .where('locked_until', '<=', now)
      .where(sql<boolean>`${drained} + 1 > ${real(rule.limit + levelTolerance)}`)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) > 0) return { locked: true };
    const row = await this.#db
      .selectFrom('attempt_buckets')
      .select('locked_until')
      .where('key', '=', key)
      .executeTakeFirst();
    return { locked: Number(row?.locked_until ?? 0) > now };
  }

  async clear(rawKey: string): Promise<void> {
    await this.#db.deleteFrom('attempt_buckets').where('key', '=', storageKey(rawKey)).execute();
  }

  async close(): Promise<void> {}
}
