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

/**
 * A refusal says how long until an attempt may pass, and whether the key is locked. A full
 * bucket that is not locked holds attempts still in flight (a success gives its count back):
 * its wait is the drain time, an upper bound, not a promise that nothing passes sooner.
 */
export type Reservation = { allowed: true } | { allowed: false; retryAfterMs: number; locked: boolean };

/**
 * Attempt limits shared by every instance (ARCHITECTURE: no state only in one process's
 * memory). Invariant 7: an attempt is counted atomically *before* its secret is checked
 * (`reserve`), so a burst of concurrent guesses cannot all slip past a check of the count.
 *
 * Buckets are monotonic: `now` comes from each instance's clock when its request began, and
 * requests commit in any order, so a write never moves a bucket's time back (GREATEST of the
 * stored time and now). An attempt older than the bucket drains nothing; were its older time
 * stored, the next attempt would drain the same interval a second time (issue 16: 700
 * requests over two instances got up to 700 answers where about 615 may).
 */
export interface RateLimiter {
  /** Counts one attempt on key, now. Refused (and not counted) while locked or full. */
  reserve(key: string, rule: LimitRule, now: number): Promise<Reservation>;
  /** The reserved attempt succeeded: its own count is given back, nothing else is forgiven. */
  release(key: string, rule: LimitRule, now: number): Promise<void>;
  /** The reserved attempt failed: answers whether the key is locked now (bucket full), and until when. */
  fail(key: string, rule: LimitRule, now: number): Promise<Failure>;
  /** Forgets the key: its attempts and any lock (the owner proved control of the mailbox). */
  clear(key: string): Promise<void>;
  /**
   * When the key's lock ends, or 0 when it is not locked at `now`: what an operator is shown
   * (the console's Unlock), never what an attempt is decided by (that is `reserve`).
   */
  lockedUntil(key: string, now: number): Promise<number>;
  close(): Promise<void>;
}

/**
 * A failure that did not lock says how full it left the bucket (`level`, drained to now), so a
 * caller can warn before the lock; the same for every key, account or not.
 */
export type Failure = { locked: false; level?: number } | { locked: true; retryAfterMs: number };

/** Room left for float error in level arithmetic: a bucket is full above limit - 1 + ε. */
export const levelTolerance = 1e-6;

export const drainPerMs = (rule: LimitRule) => rule.limit / rule.windowMs;

/** The bucket's level at `now`, drained since it was last written. */
export function drainedLevel(level: number, updatedAt: number, rule: LimitRule, now: number): number {
  return Math.max(0, level - Math.max(0, now - updatedAt) * drainPerMs(rule));
}

/**
 * How long until a bucket at `level` (drained to `now`) takes one more attempt. A bucket
 * written later than `now` (by an instance whose request began later) drains only from its
 * own time, so the wait counts from there.
 */
export function retryAfterMs(
  level: number,
  updatedAt: number,
  lockedUntil: number,
  rule: LimitRule,
  now: number,
): number {
  if (lockedUntil > now) return lockedUntil - now;
  const ahead = Math.max(0, updatedAt - now);
  return Math.max(1, ahead + Math.ceil((level + 1 - rule.limit) / drainPerMs(rule)));
}

/** The refusal of a bucket as its store returned it (level and time as last written). */
export function refusal(
  stored: { level: number; updatedAt: number; lockedUntil: number },
  rule: LimitRule,
  now: number,
): Reservation {
  const level = drainedLevel(stored.level, stored.updatedAt, rule, now);
  return {
    allowed: false,
    retryAfterMs: retryAfterMs(level, stored.updatedAt, stored.lockedUntil, rule, now),
    locked: stored.lockedUntil > now,
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `reserve` for a key whose attempts are settled afterwards (a success gives its count back, a
 * failure may lock). A full bucket that is not locked holds attempts still being checked: no
 * one knows yet whether they will give their count back (then a retry passes at once) or lock
 * the key (then the wait is the lock's), so any wait told now would be untrue (issue 16:
 * twenty simultaneous right passwords were told 180 s while an immediate retry worked). Such a
 * refusal waits, up to `settleMs`, for those attempts to settle and asks again; it costs no
 * secret check, and a burst of guesses still gets no more than the allowance checked.
 */
export async function reserveSettled(
  limiter: RateLimiter,
  key: string,
  rule: LimitRule,
  now: () => number,
  options: { settleMs?: number; beforeWaiting?: () => void } = {},
): Promise<Reservation> {
  const deadline = Date.now() + (options.settleMs ?? 5000);
  for (let wait = 10; ; wait = Math.min(wait * 2, 200)) {
    const reservation = await limiter.reserve(key, rule, now());
    if (reservation.allowed || reservation.locked || rule.lockMs <= 0 || Date.now() + wait > deadline) {
      return reservation;
    }
    options.beforeWaiting?.();
    await pause(wait);
  }
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
    // GREATEST(updated_at, now), written as CASE for both engines: the bucket's time never goes back.
    const latest = sql<number>`(case when ${int(now)} > attempt_buckets.updated_at then ${int(now)} else attempt_buckets.updated_at end)`;
    // Drained a window after its latest attempt, or when its lock ends; never sooner than before.
    const expires = sql<number>`(case when attempt_buckets.expires_at > ${latest} + ${int(rule.windowMs)} and attempt_buckets.expires_at > attempt_buckets.locked_until then attempt_buckets.expires_at when attempt_buckets.locked_until > ${latest} + ${int(rule.windowMs)} then attempt_buckets.locked_until else ${latest} + ${int(rule.windowMs)} end)`;
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
          updated_at: sql<number>`case when ${refused} then attempt_buckets.updated_at else ${latest} end`,
          reservation: sql<string>`case when ${refused} then attempt_buckets.reservation else ${nonce} end`,
          expires_at: sql<number>`case when ${refused} then attempt_buckets.expires_at else ${expires} end`,
        }),
      )
      .returning(['level', 'updated_at', 'locked_until', 'reservation'])
      .executeTakeFirstOrThrow();
    if (row.reservation === nonce) return { allowed: true };
    const stored = {
      level: Number(row.level),
      updatedAt: Number(row.updated_at),
      lockedUntil: Number(row.locked_until),
    };
    return refusal(stored, rule, now);
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

  async fail(rawKey: string, rule: LimitRule, now: number): Promise<Failure> {
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
    if (Number(result.numUpdatedRows) > 0) return { locked: true, retryAfterMs: rule.lockMs };
    const row = await this.#db
      .selectFrom('attempt_buckets')
      .select(['locked_until', 'level', 'updated_at'])
      .where('key', '=', key)
      .executeTakeFirst();
    // A lock another failure set runs until its own end, not lockMs from now.
    const until = Number(row?.locked_until ?? 0);
    if (until > now) return { locked: true, retryAfterMs: until - now };
    if (!row) return { locked: false };
    const elapsed = Math.max(0, now - Number(row.updated_at));
    return { locked: false, level: Math.max(0, Number(row.level) - elapsed * drainPerMs(rule)) };
  }

  async clear(rawKey: string): Promise<void> {
    await this.#db.deleteFrom('attempt_buckets').where('key', '=', storageKey(rawKey)).execute();
  }

  async lockedUntil(rawKey: string, now: number): Promise<number> {
    const row = await this.#db
      .selectFrom('attempt_buckets')
      .select('locked_until')
      .where('key', '=', storageKey(rawKey))
      .executeTakeFirst();
    const until = Number(row?.locked_until ?? 0);
    return until > now ? until : 0;
  }

  async close(): Promise<void> {}
}
