import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, engines, type TestApp } from '../test/helper.ts';
import { type RateLimiter, SqlRateLimiter } from './rate-limiter.ts';
import { RedisRateLimiter } from './redis-rate-limiter.ts';

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const stores = [...engines, 'redis'] as const;

describe.each(stores)('rate limiter on %s', (store) => {
  let t: TestApp | undefined;
  let limiter: RateLimiter;
  beforeAll(async () => {
    if (store === 'redis') {
      limiter = new RedisRateLimiter(redisUrl);
    } else {
      t = await buildTestApp(store, { seed: false });
      limiter = new SqlRateLimiter(t.services.db);
    }
  });
  afterAll(async () => {
    if (limiter instanceof RedisRateLimiter) await limiter.close();
    await t?.close();
  });

  it('allows up to the limit in a window, then refuses with the time left', async () => {
    const key = `test:${randomUUID()}`;
    const now = 1_000_000_000_000;
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await limiter.hit(key, 3, 60_000, now + i));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
    expect(results[3]?.count).toBe(4);
    expect(results[3]?.retryAfterMs).toBeLessThanOrEqual(60_000);
    expect(await limiter.peek(key, 60_000, now)).toBe(4);
  });

  it('starts counting again in the next window, and after a reset', async () => {
    const key = `test:${randomUUID()}`;
    const now = 1_000_000_020_000;
    await limiter.hit(key, 1, 60_000, now);
    expect((await limiter.hit(key, 1, 60_000, now)).allowed).toBe(false);
    expect((await limiter.hit(key, 1, 60_000, now + 60_000)).allowed).toBe(true);
    await limiter.reset(key);
    expect(await limiter.peek(key, 60_000, now + 60_000)).toBe(0);
  });

  it('takes keys of any length (they embed e-mail addresses) and keeps long keys apart', async () => {
    const now = 1_000_000_060_000;
    const a = `test:${randomUUID()}:${'a'.repeat(300)}`;
    const b = `${a.slice(0, -1)}b`;
    await limiter.hit(a, 5, 60_000, now);
    await limiter.hit(a, 5, 60_000, now);
    expect((await limiter.hit(b, 5, 60_000, now)).count).toBe(1);
    expect(await limiter.peek(a, 60_000, now)).toBe(2);
    await limiter.reset(a);
    expect(await limiter.peek(a, 60_000, now)).toBe(0);
    expect(await limiter.peek(b, 60_000, now)).toBe(1);
  });

  it('counts concurrent hits exactly', async () => {
    const key = `test:${randomUUID()}`;
    const now = 1_000_000_040_000;
    const results = await Promise.all(Array.from({ length: 20 }, () => limiter.hit(key, 10, 60_000, now)));
    expect(results.filter((r) => r.allowed)).toHaveLength(10);
    expect(new Set(results.map((r) => r.count)).size).toBe(20);
  });
});
