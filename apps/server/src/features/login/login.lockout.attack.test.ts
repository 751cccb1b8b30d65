import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../../test/helper.ts';
import { type Cluster, oneInstance, twoInstances } from '../../test/instances.ts';
import { activeUser, uniqueEmail } from '../accounts/test-support.ts';

/**
 * Invariant 7 for the password step, attacked over real HTTP: the lockout counts each guess
 * before the password is checked, so a burst of concurrent guesses — from as many client
 * addresses, on several instances — gets LOGIN_MAX_FAILURES checks and no more; the lock
 * lasts LOGIN_LOCKOUT_MINUTES from the failure that reached it, not to a clock boundary; and
 * a success forgives nothing but itself.
 */
const maxFailures = 5;
const lockoutMs = 15 * 60_000;
const state = 'state-0123456789abcdef';
// Every request comes from its own client address (TRUST_PROXY, X-Forwarded-For) and the
// per-address limit is out of reach, so only the per-account lockout can refuse a guess.
// The lockout is under test, not the hashing queue: room for the whole burst, so a loaded
// machine's queue never answers 503 common.busy in its place (login.hashing-flood.load.test.ts
// tests the queue).
const env = { TRUST_PROXY: 'true', LOGIN_IP_LIMIT_PER_MINUTE: '100000', HASHING_QUEUE_LENGTH: '1000' };
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

const setups: Array<[string, () => Promise<Cluster>]> = [
  ['SQLite, one instance', () => oneInstance('sqlite', { env })],
  ['PostgreSQL, two instances', () => twoInstances({ env })],
  ['Redis store, two instances on PostgreSQL', () => twoInstances({ env: { ...env, REDIS_URL: redisUrl } })],
];

interface Answer {
  status: number;
  code: string;
  retryAfterSeconds: number | undefined;
}

describe.each(setups)('login lockout under attack (%s)', (_name, setup) => {
  let cluster: Cluster;
  let origin: string;
  beforeAll(async () => {
    cluster = await setup();
    origin = cluster.origin('grand-hotel');
  });
  afterAll(() => cluster.close());

  let address = 0;
  /** POST /api/login from a client address of its own, through the i-th instance. */
  async function attempt(i: number, email: string, password: string): Promise<Answer> {
    address += 1;
    const fetch = cluster.instances[i % cluster.instances.length]!.fetch;
    const response = await fetch(`${origin}/api/login`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin,
        'x-forwarded-for': `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`,
      },
      body: JSON.stringify({ email, password, state }),
    });
    const body = (await response.json()) as { code: string; fields?: { retryAfterSeconds?: string } };
    const retryAfter = body.fields?.retryAfterSeconds;
    return {
      status: response.status,
      code: body.code,
      retryAfterSeconds: retryAfter === undefined ? undefined : Number(retryAfter),
    };
  }

  const refused = { status: 429, code: 'login.too_many_attempts' };
  const wrong = { status: 401, code: 'login.invalid_credentials' };

  /** A fresh account, so no test shares its attempt counter with another. */
  async function account(): Promise<string> {
    const email = uniqueEmail('lockout');
    await activeUser(cluster.t, email, demo.password);
    return email;
  }

  /** Moves the clock to `ms` before the next 15-minute wall-clock boundary. */
  function toBeforeBoundary(ms: number): number {
    const now = cluster.t.clock.now();
    let boundary = Math.ceil(now / lockoutMs) * lockoutMs;
    if (boundary - ms - now < 1000) boundary += lockoutMs;
    cluster.t.clock.advance(boundary - ms - now);
    return boundary;
  }

  /** Moves the clock forward to the given moment. */
  function advanceTo(moment: number): void {
    cluster.t.clock.advance(moment - cluster.t.clock.now());
  }

  it('answers 100 concurrent wrong guesses with at most LOGIN_MAX_FAILURES invalid_credentials, then refuses even the right password', async () => {
    const email = await account();
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => attempt(i, email, `Wrong-guess-${i}`)),
    );
    const checked = answers.filter((a) => a.status === wrong.status && a.code === wrong.code);
    const locked = answers.filter((a) => a.status === refused.status && a.code === refused.code);
    // At most the allowance was checked. (A checked failure that finds the bucket full with
    // guesses still in flight already answers too_many_attempts, so fewer may say so.)
    expect(checked.length).toBeLessThanOrEqual(maxFailures);
    expect(locked.length).toBe(100 - checked.length);

    expect(await attempt(0, email, demo.password)).toMatchObject(refused);
    expect(await attempt(1, email, demo.password)).toMatchObject(refused);
  });

  it('checks no more than the allowance of a burst: the right password sent last is refused, and after it', async () => {
    const email = await account();
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => attempt(i, email, i === 99 ? demo.password : `Wrong-guess-${i}`)),
    );
    expect(answers[99]).toMatchObject(refused);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(0);
    expect(answers.filter((a) => a.status === wrong.status).length).toBeLessThanOrEqual(maxFailures);
    expect(await attempt(0, email, demo.password)).toMatchObject(refused);
  });

  it('does not let a success forgive the failures before it: the fifth failure in total locks', async () => {
    const email = await account();
    for (let i = 0; i < maxFailures - 1; i++) {
      expect(await attempt(i, email, `Wrong-guess-${i}`)).toMatchObject(wrong);
    }
    expect((await attempt(0, email, demo.password)).status).toBe(200);
    // The fifth failure in total, not the first after the success.
    expect(await attempt(1, email, 'Wrong-guess-again')).toMatchObject(refused);
    expect(await attempt(0, email, demo.password)).toMatchObject(refused);
  });

  it('keeps the lock for the full period from the failure that reached it, across a clock boundary', async () => {
    const email = await account();
    // Locked 30 s before a 15-minute boundary: a lock tied to clock-aligned windows would
    // end at the boundary, 14½ minutes early.
    const boundary = toBeforeBoundary(30_000);
    for (let i = 0; i < maxFailures - 1; i++) {
      expect(await attempt(i, email, `Wrong-guess-${i}`)).toMatchObject(wrong);
    }
    const locking = await attempt(maxFailures, email, 'Wrong-guess-last');
    const lockedAt = cluster.t.clock.now();
    expect(locking).toMatchObject(refused);
    expect(locking.retryAfterSeconds).toBe(lockoutMs / 1000);

    advanceTo(boundary + 1000);
    expect(await attempt(0, email, demo.password)).toMatchObject(refused);
    // Two seconds before the period ends: still refused, the right password included, and
    // the client is told how long is left.
    advanceTo(lockedAt + lockoutMs - 2000);
    const late = await attempt(1, email, demo.password);
    expect(late).toMatchObject(refused);
    expect(late.retryAfterSeconds).toBeLessThanOrEqual(2);
    // At the end of the period the right password is accepted again.
    advanceTo(lockedAt + lockoutMs);
    expect((await attempt(0, email, demo.password)).status).toBe(200);
  });

  it('locks on 8 wrong guesses in 15 s spread across a 15-minute wall-clock boundary', async () => {
    const email = await account();
    toBeforeBoundary(7000);
    const answers: Answer[] = [];
    for (let i = 0; i < 8; i++) {
      answers.push(await attempt(i, email, `Wrong-guess-${i}`));
      cluster.t.clock.advance(2000);
    }
    expect(answers.map((a) => a.code)).toEqual([
      ...Array(maxFailures - 1).fill(wrong.code),
      ...Array(8 - maxFailures + 1).fill(refused.code),
    ]);
    expect(await attempt(0, email, demo.password)).toMatchObject(refused);
  });
});
