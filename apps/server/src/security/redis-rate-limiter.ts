import { Redis } from 'ioredis';
import { type RateLimiter, type RateLimitResult, storageKey } from './rate-limiter.ts';

/**
 * The same fixed-window counters in Redis, for deployments that run many instances and
 * would rather not write a row per attempt. INCR and PEXPIRE go in one MULTI.
 */
export class RedisRateLimiter implements RateLimiter {
  readonly #redis: Redis;

  constructor(url: string) {
    this.#redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 2, enableOfflineQueue: true });
  }

  #key(key: string, windowMs: number, now: number): { redisKey: string; windowStart: number } {
    const windowStart = Math.floor(now / windowMs) * windowMs;
    return { redisKey: `keycard:rl:${storageKey(key)}:${windowStart}`, windowStart };
  }

  async hit(key: string, limit: number, windowMs: number, now: number): Promise<RateLimitResult> {
    const { redisKey, windowStart } = this.#key(key, windowMs, now);
    const results = await this.#redis.multi().incr(redisKey).pexpire(redisKey, windowMs).exec();
    const count = Number(results?.[0]?.[1] ?? 0);
    return { count, allowed: count <= limit, retryAfterMs: windowStart + windowMs - now };
  }

  async peek(key: string, windowMs: number, now: number): Promise<number> {
    return Number((await this.#redis.get(this.#key(key, windowMs, now).redisKey)) ?? 0);
  }

  async reset(key: string): Promise<void> {
    let cursor = '0';
    do {
      const [next, keys] = await this.#redis.scan(
        cursor,
        'MATCH',
        `keycard:rl:${storageKey(key).replace(/[*?[\]\\]/g, '\\$&')}:*`,
        'COUNT',
        100,
      );
      if (keys.length > 0) await this.#redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  }

  async close(): Promise<void> {
    await this.#redis.quit();
  }
}
