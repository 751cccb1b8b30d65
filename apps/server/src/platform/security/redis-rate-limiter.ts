import { Redis } from 'ioredis';
import {
  drainPerMs,
  type Failure,
  type LimitRule,
  levelTolerance,
  type RateLimiter,
  type Reservation,
  refusal,
  storageKey,
} from './rate-limiter.ts';

// The same leaky buckets as SqlRateLimiter, one hash per key (level, updated_at, locked_until).
// Each operation is one Lua script: Redis runs it atomically, so concurrent reservations on
// every instance are serialised without a lock or a retry loop. Keys expire on their own
// once drained and unlocked, so nothing ever scans the keyspace. As in SQL, a bucket's time
// never goes back (math.max of the stored time and now): an attempt from a request that began
// before the bucket's last write drains nothing, and no interval is drained twice.
const drain = `
local function drained(level, updated, now, rate)
  local elapsed = now - updated
  if elapsed < 0 then elapsed = 0 end
  local value = level - elapsed * rate
  if value < 0 then return 0 end
  return value
end
`;

// KEYS[1] bucket; ARGV now, drain per ms, limit + tolerance, window ms.
// Returns {allowed (1/0), level, updated_at, locked_until} as strings.
const reserveScript = `${drain}
local now = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local full = tonumber(ARGV[3])
local window = tonumber(ARGV[4])
local state = redis.call('HMGET', KEYS[1], 'level', 'updated_at', 'locked_until')
local level = tonumber(state[1]) or 0
local updated = tonumber(state[2]) or now
local locked = tonumber(state[3]) or 0
local current = drained(level, updated, now, rate)
if locked > now or current + 1 > full then
  return {0, tostring(level), tostring(updated), tostring(locked)}
end
local latest = math.max(updated, now)
redis.call('HSET', KEYS[1], 'level', tostring(current + 1), 'updated_at', tostring(latest), 'locked_until', tostring(locked))
local ttl = latest - now + window
if locked - now > ttl then ttl = locked - now end
if redis.call('PTTL', KEYS[1]) < ttl then redis.call('PEXPIRE', KEYS[1], math.ceil(ttl)) end
return {1, tostring(current + 1), tostring(latest), tostring(locked)}
`;

// KEYS[1] bucket; ARGV now, drain per ms.
const releaseScript = `${drain}
local now = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local state = redis.call('HMGET', KEYS[1], 'level', 'updated_at')
if not state[1] then return 0 end
local level = drained(tonumber(state[1]), tonumber(state[2]), now, rate) - 1
if level < 0 then level = 0 end
local updated = tonumber(state[2])
if now > updated then updated = now end
redis.call('HSET', KEYS[1], 'level', tostring(level), 'updated_at', tostring(updated))
return 1
`;

// KEYS[1] bucket; ARGV now, drain per ms, limit + tolerance, lock ms. Returns the lock's end
// when locked (a lock already running keeps its own end), else 0.
const failScript = `${drain}
local now = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local full = tonumber(ARGV[3])
local lock = tonumber(ARGV[4])
local state = redis.call('HMGET', KEYS[1], 'level', 'updated_at', 'locked_until')
if not state[1] then return 0 end
local locked = tonumber(state[3]) or 0
if locked > now then return tostring(locked) end
if drained(tonumber(state[1]), tonumber(state[2]), now, rate) + 1 > full then
  redis.call('HSET', KEYS[1], 'locked_until', tostring(now + lock))
  local ttl = redis.call('PTTL', KEYS[1])
  if ttl < lock then redis.call('PEXPIRE', KEYS[1], lock) end
  return tostring(now + lock)
end
return 'level:' .. tostring(drained(tonumber(state[1]), tonumber(state[2]), now, rate))
`;

type Scripted = Redis & {
  keycardReserve(key: string, ...args: string[]): Promise<[number, string, string, string]>;
  keycardRelease(key: string, ...args: string[]): Promise<number>;
  keycardFail(key: string, ...args: string[]): Promise<string>;
};

/** The buckets in Redis, for deployments that would rather not write a row per attempt. */
export class RedisRateLimiter implements RateLimiter {
  readonly #redis: Scripted;

  constructor(url: string) {
    const redis = new Redis(url, {
      lazyConnect: false,
      enableOfflineQueue: true,
      // During an outage a command waits for at most one reconnection attempt, and attempts
      // come at most half a second apart: requests answer 503 within about a second, however
      // long the outage has lasted (ioredis would otherwise back off to 2 s per attempt).
      maxRetriesPerRequest: 1,
      retryStrategy: (times) => Math.min(times * 50, 500),
      connectTimeout: 2000,
    });
    redis.defineCommand('keycardReserve', { numberOfKeys: 1, lua: reserveScript });
    redis.defineCommand('keycardRelease', { numberOfKeys: 1, lua: releaseScript });
    redis.defineCommand('keycardFail', { numberOfKeys: 1, lua: failScript });
    // Errors reach the caller of each command (an outage answers 503); without a listener
    // ioredis would print every reconnection failure.
    redis.on('error', () => undefined);
    this.#redis = redis as Scripted;
  }

  #key(key: string): string {
    return `keycard:bucket:${storageKey(key)}`;
  }

  async reserve(key: string, rule: LimitRule, now: number): Promise<Reservation> {
    const [allowed, level, updated, locked] = await this.#redis.keycardReserve(
      this.#key(key),
      String(now),
      String(drainPerMs(rule)),
      String(rule.limit + levelTolerance),
      String(rule.windowMs),
    );
    if (allowed === 1) return { allowed: true };
    return refusal(
      { level: Number(level), updatedAt: Number(updated), lockedUntil: Number(locked) },
      rule,
      now,
    );
  }

  async release(key: string, rule: LimitRule, now: number): Promise<void> {
    await this.#redis.keycardRelease(this.#key(key), String(now), String(drainPerMs(rule)));
  }

  async fail(key: string, rule: LimitRule, now: number): Promise<Failure> {
    if (rule.lockMs <= 0) return { locked: false };
    const lockedUntil = await this.#redis.keycardFail(
      this.#key(key),
      String(now),
      String(drainPerMs(rule)),
      String(rule.limit + levelTolerance),
      String(rule.lockMs),
    );
    // Not locked: the script answers the bucket's level (drained to now) as `level:<n>`.
    if (String(lockedUntil).startsWith('level:')) {
      return { locked: false, level: Number(String(lockedUntil).slice('level:'.length)) };
    }
    const until = Number(lockedUntil);
    return until > now ? { locked: true, retryAfterMs: until - now } : { locked: false };
  }

  async clear(key: string): Promise<void> {
    await this.#redis.del(this.#key(key));
  }

  async lockedUntil(key: string, now: number): Promise<number> {
    const until = Number((await this.#redis.hget(this.#key(key), 'locked_until')) ?? 0);
    return until > now ? until : 0;
  }

  /** Readiness: Redis answers PING. */
  async ping(): Promise<void> {
    await this.#redis.ping();
  }

  async close(): Promise<void> {
    await this.#redis.quit().catch(() => this.#redis.disconnect());
  }
}
