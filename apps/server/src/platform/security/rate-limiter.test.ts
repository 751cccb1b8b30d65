import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, engines, type TestApp } from '../../test/helper.ts';
import { openDatabase } from '../db/database.ts';
import { drainPerMs, type LimitRule, type RateLimiter, SqlRateLimiter } from './rate-limiter.ts';
import { RedisRateLimiter } from './redis-rate-limiter.ts';

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const stores = [...engines, 'redis'] as const;
const minute = 60_000;

/** Five attempts, draining five per 15 minutes, a 15-minute lock: the login lockout's shape. */
const lockout: LimitRule = { limit: 5, windowMs: 15 * minute, lockMs: 15 * minute };
const key = () => `test:${randomUUID()}`;

describe.each(stores)('attempt limiter on %s', (store) => {
  let t: TestApp | undefined;
  /** Two limiters on one store: two app instances (separate connection pools on PostgreSQL). */
  let one: RateLimiter;
  let two: RateLimiter;
  let closeSecond: () => Promise<void> = async () => {};

  beforeAll(async () => {
    if (store === 'redis') {
      one = new RedisRateLimiter(redisUrl);
      two = new RedisRateLimiter(redisUrl);
    } else {
      t = await buildTestApp(store, { seed: false });
      one = new SqlRateLimiter(t.services.db);
      if (store === 'postgres') {
        const second = await openDatabase({ databaseUrl: t.config.databaseUrl });
        two = new SqlRateLimiter(second.kysely);
        closeSecond = () => second.close();
      } else {
        two = one;
      }
    }
  });
  afterAll(async () => {
    await one.close();
    await two.close();
    await closeSecond();
    await t?.close();
  });

  it('lets a burst of the limit through, then refuses until one attempt has drained', async () => {
    const k = key();
    const now = Date.now();
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await one.reserve(k, lockout, now));
    expect(answers.map((a) => a.allowed)).toEqual([true, true, true, true, true, false]);
    const refused = answers[5] as { allowed: false; retryAfterMs: number };
    // Five per 15 minutes drain one every 3 minutes.
    expect(refused.retryAfterMs).toBe(3 * minute);
    expect((await one.reserve(k, lockout, now + 3 * minute - 1000)).allowed).toBe(false);
    expect((await one.reserve(k, lockout, now + 3 * minute)).allowed).toBe(true);
    expect((await one.reserve(k, lockout, now + 3 * minute)).allowed).toBe(false);
  });

  it('has no clock-aligned boundary: guesses spread across any minute mark still fill the bucket', async () => {
    const k = key();
    // Start 2 s before a 15-minute boundary of the wall clock, then carry on past it.
    const boundary = Math.ceil(Date.now() / (15 * minute)) * 15 * minute;
    const allowed = [];
    for (let i = 0; i < 8; i++) {
      const at = boundary - 2000 + i * 2000;
      const answer = await one.reserve(k, lockout, at);
      allowed.push(answer.allowed);
      if (answer.allowed) await one.fail(k, lockout, at);
    }
    expect(allowed.filter(Boolean)).toHaveLength(5);
  });

  it('locks for the full period from the failure that filled the bucket, without extension', async () => {
    const k = key();
    const start = Date.now();
    for (let i = 0; i < 4; i++) {
      expect((await one.reserve(k, lockout, start + i)).allowed).toBe(true);
      expect(await one.fail(k, lockout, start + i)).toMatchObject({ locked: false });
    }
    const lockedAt = start + 10_000;
    expect((await one.reserve(k, lockout, lockedAt)).allowed).toBe(true);
    expect(await one.fail(k, lockout, lockedAt)).toEqual({ locked: true, retryAfterMs: 15 * minute });
    // Another failure during the lock is told the lock's own end, not a new full period.
    expect(await one.fail(k, lockout, lockedAt + minute)).toEqual({
      locked: true,
      retryAfterMs: 14 * minute,
    });
    // Attempts during the lock are refused with the time left, and do not push it further.
    const during = await one.reserve(k, lockout, lockedAt + 14 * minute);
    expect(during).toEqual({ allowed: false, retryAfterMs: minute, locked: true });
    expect((await one.reserve(k, lockout, lockedAt + 15 * minute - 1)).allowed).toBe(false);
    // The bucket drained while locked: a full burst again once the lock ends.
    expect((await one.reserve(k, lockout, lockedAt + 15 * minute)).allowed).toBe(true);
  });

  it('gives back only the successful attempt: failures in flight stay counted', async () => {
    const k = key();
    const now = Date.now();
    // Four guesses reserved at once, then the owner's right password (the fifth).
    for (let i = 0; i < 4; i++) await one.reserve(k, lockout, now);
    expect((await one.reserve(k, lockout, now)).allowed).toBe(true);
    await one.release(k, lockout, now);
    // The four guesses fail after the success: the bucket is still at four.
    for (let i = 0; i < 4; i++) await one.fail(k, lockout, now);
    expect((await one.reserve(k, lockout, now)).allowed).toBe(true);
    expect((await one.reserve(k, lockout, now)).allowed).toBe(false);
  });

  it('counts exactly under 100 concurrent reservations from two instances', async () => {
    const k = key();
    const now = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => (i % 2 === 0 ? one : two).reserve(k, lockout, now)),
    );
    expect(answers.filter((a) => a.allowed)).toHaveLength(5);
  });

  it('never moves a bucket back in time: an attempt older than its last write drains nothing twice', async () => {
    const k = key();
    // Three per minute, one drained every 20 s. Instance two's request began 20 s after instance
    // one's older requests but commits first: the older ones must not re-open those 20 s.
    const rule = { limit: 3, windowMs: minute, lockMs: 0 };
    const start = Date.now();
    const later = start + 20_000;
    const answers = [
      await one.reserve(k, rule, start),
      await one.reserve(k, rule, start),
      await two.reserve(k, rule, later), // drains one: level 2 at `later`
      await one.reserve(k, rule, start), // older: drains nothing, level 3, time stays `later`
      await two.reserve(k, rule, later), // nothing drained since `later`: full
    ];
    expect(answers.map((answer) => answer.allowed)).toEqual([true, true, true, true, false]);
    // The wait counts from the bucket's own time, not from the older request's.
    expect(await one.reserve(k, rule, start)).toEqual({
      allowed: false,
      retryAfterMs: 40_000,
      locked: false,
    });
    expect((await two.reserve(k, rule, later + 20_000 - 1)).allowed).toBe(false);
    expect((await two.reserve(k, rule, later + 20_000)).allowed).toBe(true);
  });

  it('holds limit + rate × elapsed + 1 under 700 parallel reservations from two instances whose clocks disagree', async () => {
    const k = key();
    // The admin API's per-operator shape, scaled: 100 a minute, one drained every 600 ms.
    const rule = { limit: 100, windowMs: minute, lockMs: 0 };
    // Instance two's clock runs 20 s behind instance one's: requests alternate between them,
    // so commits come in every order of their times.
    const skew = 20_000;
    const clocks = [() => Date.now(), () => Date.now() - skew];
    const stamps: number[] = [];
    const answers = await Promise.all(
      Array.from({ length: 700 }, async (_, i) => {
        const now = clocks[i % 2]!();
        stamps.push(now);
        return (i % 2 === 0 ? one : two).reserve(k, rule, now);
      }),
    );
    const elapsed = Math.max(...stamps) - Math.min(...stamps);
    const allowed = answers.filter((answer) => answer.allowed).length;
    expect(allowed).toBeGreaterThanOrEqual(rule.limit);
    expect(allowed).toBeLessThanOrEqual(rule.limit + Math.floor(elapsed * drainPerMs(rule)) + 1);
  });

  it('takes keys of any length (they embed e-mail addresses) and keeps long keys apart', async () => {
    const now = Date.now();
    const a = `${key()}:${'a'.repeat(300)}`;
    const b = `${a.slice(0, -1)}b`;
    const rule = { limit: 1, windowMs: minute, lockMs: 0 };
    expect((await one.reserve(a, rule, now)).allowed).toBe(true);
    expect((await one.reserve(a, rule, now)).allowed).toBe(false);
    expect((await one.reserve(b, rule, now)).allowed).toBe(true);
  });

  it('forgets a key when cleared, lock included', async () => {
    const k = key();
    const now = Date.now();
    for (let i = 0; i < 5; i++) {
      await one.reserve(k, lockout, now);
      await one.fail(k, lockout, now);
    }
    expect((await one.reserve(k, lockout, now)).allowed).toBe(false);
    await two.clear(k);
    expect((await one.reserve(k, lockout, now)).allowed).toBe(true);
  });

  it('never locks under a rule without a lock; the rate alone applies', async () => {
    const k = key();
    const now = Date.now();
    const rule = { limit: 2, windowMs: minute, lockMs: 0 };
    await one.reserve(k, rule, now);
    await one.reserve(k, rule, now);
    expect(await one.fail(k, rule, now)).toEqual({ locked: false });
    expect(await one.reserve(k, rule, now + 30_000)).toEqual({ allowed: true });
  });
});
