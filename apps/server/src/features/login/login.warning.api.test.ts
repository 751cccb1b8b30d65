import { randomUUID } from 'node:crypto';
import { apiErrorSchema, loginFailureFields } from '@keycard/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LimitRule, SqlRateLimiter } from '../../platform/security/rate-limiter.ts';
import { RedisRateLimiter } from '../../platform/security/redis-rate-limiter.ts';
import { buildTestApp, call, engines, type TestApp } from '../../test/helper.ts';
import { activeUser, uniqueEmail } from '../accounts/test-support.ts';
import { lockoutWarning } from './login.service.ts';

const password = 'Anchor-bay-2020';
const state = 'state-0123456789abcdef';

/** What a refused password step said: its status, code and fields (checked against the contract). */
function answerOf(answer: LightMyRequestResponse) {
  const body = apiErrorSchema.parse(answer.json());
  if (body.code === 'login.invalid_credentials' && body.fields) loginFailureFields.parse(body.fields);
  return { status: answer.statusCode, code: body.code, attemptsLeft: body.fields?.attemptsLeft };
}

/**
 * Issue 19, item 17: after three failures a wrong password is told how many attempts are left
 * before the lockout — the same for an address with an account and one without.
 */
describe.each(engines)('the warning before a login lockout, on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    // The default lockout: 5 failures in 15 minutes.
    t = await buildTestApp(engine, { env: { TRUST_PROXY: 'true', LOGIN_IP_LIMIT_PER_MINUTE: '1000' } });
  });
  afterAll(() => t.close());

  let client = 0;
  const newAddress = () => {
    client += 1;
    return `10.9.${(client >> 8) & 255}.${client & 255}`;
  };
  const login = (email: string, secret: string) =>
    call(t.app, 'POST', '/api/login', {
      body: { email, password: secret, state },
      headers: { 'x-forwarded-for': newAddress() },
    });

  it('says nothing for two failures, then the attempts left, the same with an account and without', async () => {
    const known = uniqueEmail('warned');
    const unknown = uniqueEmail('nobody-warned');
    await activeUser(t, known, password);
    const said: Record<string, ReturnType<typeof answerOf>[]> = { [known]: [], [unknown]: [] };
    for (const email of [known, unknown]) {
      for (let i = 0; i < 5; i++) said[email]!.push(answerOf(await login(email, `Wrong-${i}-a`)));
    }
    expect(said[known]).toEqual([
      { status: 401, code: 'login.invalid_credentials', attemptsLeft: undefined },
      { status: 401, code: 'login.invalid_credentials', attemptsLeft: undefined },
      { status: 401, code: 'login.invalid_credentials', attemptsLeft: '2' },
      { status: 401, code: 'login.invalid_credentials', attemptsLeft: '1' },
      { status: 429, code: 'login.too_many_attempts', attemptsLeft: undefined },
    ]);
    expect(said[unknown], 'an address without an account hears the same').toEqual(said[known]);
  });

  it('still signs in with the right password after three failures, which it does not forgive', async () => {
    const email = uniqueEmail('recovers');
    await activeUser(t, email, password);
    for (let i = 0; i < 3; i++) await login(email, `Wrong-${i}-b`);
    expect((await login(email, password)).statusCode).toBe(200);
    // A success forgives nothing already failed: the next failure is the fourth.
    expect(answerOf(await login(email, 'Wrong-4-b')).attemptsLeft).toBe('1');
    // Once the bucket drains (5 per 15 minutes), the warning goes with it.
    t.clock.advance(15 * 60_000);
    expect(answerOf(await login(email, 'Wrong-5-b')).attemptsLeft).toBeUndefined();
  });
});

/** The level a failure reports is the bucket's, on every store (SQL engines and Redis). */
describe.each([...engines, 'redis'] as const)('a failure reports its bucket level on %s', (store) => {
  const rule: LimitRule = { limit: 5, windowMs: 15 * 60_000, lockMs: 15 * 60_000 };
  let t: TestApp | undefined;
  let limiter: SqlRateLimiter | RedisRateLimiter;
  beforeAll(async () => {
    if (store === 'redis')
      limiter = new RedisRateLimiter(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
    else {
      t = await buildTestApp(store, { seed: false });
      limiter = new SqlRateLimiter(t.services.db);
    }
  });
  afterAll(async () => {
    await limiter.close();
    await t?.close();
  });

  it('counts up with each failure, drains with time and locks at the limit', async () => {
    const key = `test:${randomUUID()}`;
    const now = 1_000_000_000_000;
    const levels: unknown[] = [];
    for (let i = 0; i < 4; i++) {
      await limiter.reserve(key, rule, now);
      levels.push(await limiter.fail(key, rule, now));
    }
    expect(levels).toEqual([1, 2, 3, 4].map((level) => ({ locked: false, level })));
    // Three minutes later one attempt has drained (5 per 15 minutes).
    const later = now + 3 * 60_000;
    await limiter.reserve(key, rule, later);
    const failure = await limiter.fail(key, rule, later);
    expect(failure.locked).toBe(false);
    expect(failure.locked === false && failure.level).toBeCloseTo(4, 5);
    await limiter.reserve(key, rule, later);
    expect((await limiter.fail(key, rule, later)).locked).toBe(true);
  });
});

describe('the attempts left, by lockout size', () => {
  const policy = (maxFailures: number) => ({ maxFailures, lockoutMinutes: 15, ipLimitPerMinute: 20 });
  it('warns from the third failure on, never for a lockout of three or fewer, and reads a drained level', () => {
    expect([1, 2, 3, 4].map((level) => lockoutWarning(policy(5), level))).toEqual([
      undefined,
      undefined,
      2,
      1,
    ]);
    expect([1, 2].map((level) => lockoutWarning(policy(3), level))).toEqual([undefined, undefined]);
    expect(lockoutWarning(policy(10), 3)).toBe(7);
    // Three failures a moment ago have drained a little: still three, two left.
    expect(lockoutWarning(policy(5), 2.999)).toBe(2);
    expect(lockoutWarning(policy(5), undefined)).toBeUndefined();
  });
});
