import { adminErrors, adminMeResponse, apiErrorSchema } from '@keycard/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, engines, type TestApp } from '../../test/helper.ts';
import { adminCall, operatorToken } from './admin.test-support.ts';

/**
 * The admin API's request limits (docs/admin-api.md#limits), set low here: per operator,
 * per address and for failed tokens per address, held in the shared store under concurrency.
 */
describe.each(engines)('admin API limits on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(engine, {
      env: {
        ADMIN_RATE_LIMIT_PER_MINUTE: '10',
        ADMIN_IP_RATE_LIMIT_PER_MINUTE: '25',
        ADMIN_AUTH_FAILURES_PER_MINUTE: '40',
      },
    });
  });
  afterAll(() => t.close());

  function expectLimited(answer: Awaited<ReturnType<typeof adminCall>>) {
    expect(answer.statusCode).toBe(429);
    const error = apiErrorSchema.parse(answer.json());
    expect(error.code).toBe(adminErrors.rateLimited);
    const wait = Number(answer.headers['retry-after']);
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    expect(error.fields?.retryAfterSeconds).toBe(String(wait));
  }

  it('lets exactly the limit of 50 simultaneous requests of one operator through, and the rest wait', async () => {
    const token = await operatorToken(t, 'burst-owner', 'owner');
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => adminCall(t.app, 'GET', '/me', { token, remoteAddress: '10.0.0.1' })),
    );
    const passed = answers.filter((answer) => answer.statusCode === 200);
    expect(passed).toHaveLength(10);
    for (const answer of passed) adminMeResponse.parse(answer.json());
    for (const answer of answers.filter((each) => each.statusCode !== 200)) expectLimited(answer);
    // The limit is the operator's, not the address's: from elsewhere it is still refused.
    expectLimited(await adminCall(t.app, 'GET', '/me', { token, remoteAddress: '10.0.0.9' }));
    // A minute later the bucket has drained.
    t.clock.advance(60_000);
    expect((await adminCall(t.app, 'GET', '/me', { token, remoteAddress: '10.0.0.1' })).statusCode).toBe(200);
  });

  it('limits one address across operators: 30 simultaneous requests of three operators, 25 pass', async () => {
    const tokens = await Promise.all(
      ['one', 'two', 'three'].map((name) => operatorToken(t, `address-${name}`, 'auditor')),
    );
    const answers = await Promise.all(
      tokens.flatMap((token) =>
        Array.from({ length: 10 }, () =>
          adminCall(t.app, 'GET', '/me', { token, remoteAddress: '10.0.0.2' }),
        ),
      ),
    );
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(25);
    for (const answer of answers.filter((each) => each.statusCode !== 200)) expectLimited(answer);
  });

  it('limits failed tokens per address, counted before the lookup, even when sent all at once', async () => {
    const guesses = await Promise.all(
      Array.from({ length: 45 }, (_, index) =>
        adminCall(t.app, 'GET', '/tenants', {
          token: `guess${String(index).padStart(40, '0')}`,
          remoteAddress: '10.0.0.3',
        }),
      ),
    );
    const refused = guesses.filter((answer) => answer.statusCode === 401);
    // The address's own allowance (25) is spent first; every guess beyond it waits.
    expect(refused).toHaveLength(25);
    for (const answer of refused) {
      expect(apiErrorSchema.parse(answer.json()).code).toBe(adminErrors.unauthenticated);
    }
    for (const answer of guesses.filter((each) => each.statusCode !== 401)) expectLimited(answer);
    // The address's own allowance is spent too, so a valid token from there waits; from
    // another address it works.
    const token = await operatorToken(t, 'after-guesses', 'auditor');
    expectLimited(await adminCall(t.app, 'GET', '/me', { token, remoteAddress: '10.0.0.3' }));
    expect((await adminCall(t.app, 'GET', '/me', { token, remoteAddress: '10.0.0.4' })).statusCode).toBe(200);
  });
});

describe.each(engines)('admin API failed-token limit on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(engine, { env: { ADMIN_AUTH_FAILURES_PER_MINUTE: '5' } });
  });
  afterAll(() => t.close());

  it('refuses guesses beyond the limit, and gives valid tokens their charge back', async () => {
    const token = await operatorToken(t, 'steady', 'auditor');
    // Valid requests one after another never add up: each gives its charge back.
    for (let index = 0; index < 12; index++) {
      const answer = await adminCall(t.app, 'GET', '/me', { token, remoteAddress: '10.0.1.1' });
      expect(answer.statusCode).toBe(200);
    }
    const guesses = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        adminCall(t.app, 'GET', '/tenants', {
          token: `guess${String(index).padStart(40, '0')}`,
          remoteAddress: '10.0.1.1',
        }),
      ),
    );
    expect(guesses.filter((answer) => answer.statusCode === 401)).toHaveLength(5);
    const limited = guesses.filter((answer) => answer.statusCode === 429);
    expect(limited).toHaveLength(15);
    for (const answer of limited) {
      expect(apiErrorSchema.parse(answer.json()).code).toBe(adminErrors.rateLimited);
      expect(Number(answer.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }
    // Failures by others at the address never shut out a valid token: it is still looked up
    // and works, while a wrong one keeps waiting until the failures drain.
    const valid = await adminCall(t.app, 'GET', '/me', { token, remoteAddress: '10.0.1.1' });
    expect(valid.statusCode).toBe(200);
    adminMeResponse.parse(valid.json());
    const wrong = await adminCall(t.app, 'GET', '/me', { token: `x${token}`, remoteAddress: '10.0.1.1' });
    expect(wrong.statusCode).toBe(429);
    expect(apiErrorSchema.parse(wrong.json()).code).toBe(adminErrors.rateLimited);
    t.clock.advance(60_000);
    const drained = await adminCall(t.app, 'GET', '/me', { token: `x${token}`, remoteAddress: '10.0.1.1' });
    expect(drained.statusCode).toBe(401);
    expect(apiErrorSchema.parse(drained.json()).code).toBe(adminErrors.unauthenticated);
  });
});

/**
 * Behind load balancers that append to X-Forwarded-For (TRUST_PROXY lists them), the limits
 * count against the address the nearest untrusted hop reported, never the left-most entry,
 * which the client writes itself.
 */
describe.each(engines)('admin API limits behind listed load balancers on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(engine, {
      env: { TRUST_PROXY: '10.0.0.0/8,192.168.1.10', ADMIN_AUTH_FAILURES_PER_MINUTE: '5' },
    });
  });
  afterAll(() => t.close());
  const balancer = '10.0.0.1';
  const victim = '198.51.100.7';
  const attacker = '203.0.113.9';

  it('counts failed tokens against the connecting address, whatever the client writes left of it', async () => {
    const guesses = [];
    for (let index = 0; index < 12; index++) {
      guesses.push(
        await adminCall(t.app, 'GET', '/tenants', {
          token: `guess${String(index).padStart(40, '0')}`,
          remoteAddress: balancer,
          // A new invented address each time, or the victim's, then the address the balancer saw.
          headers: { 'x-forwarded-for': `${index % 2 ? victim : `192.0.2.${index}`}, ${attacker}` },
        }),
      );
    }
    expect(guesses.map((answer) => answer.statusCode)).toEqual([
      ...Array(5).fill(401),
      ...Array(7).fill(429),
    ]);
    for (const answer of guesses.slice(5)) {
      expect(apiErrorSchema.parse(answer.json()).code).toBe(adminErrors.rateLimited);
    }
    // The victim's own mistake is still a plain 401: the guesses were not charged to its address.
    const typo = await adminCall(t.app, 'GET', '/me', {
      token: `typo${'0'.repeat(40)}`,
      remoteAddress: balancer,
      headers: { 'x-forwarded-for': victim },
    });
    expect(typo.statusCode).toBe(401);
    expect(apiErrorSchema.parse(typo.json()).code).toBe(adminErrors.unauthenticated);
    // Through a second listed balancer the attacker is still the same address.
    const again = await adminCall(t.app, 'GET', '/tenants', {
      token: `again${'0'.repeat(40)}`,
      remoteAddress: '192.168.1.10',
      headers: { 'x-forwarded-for': `192.0.2.200, ${attacker}, 10.0.0.2` },
    });
    expect(again.statusCode).toBe(429);
  });

  it('lets a valid token through from an address whose failed-token allowance is full', async () => {
    const token = await operatorToken(t, 'behind-balancer', 'auditor');
    const answer = await adminCall(t.app, 'GET', '/me', {
      token,
      remoteAddress: balancer,
      headers: { 'x-forwarded-for': `192.0.2.1, ${attacker}` },
    });
    expect(answer.statusCode).toBe(200);
    adminMeResponse.parse(answer.json());
  });
});
