import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, demo, engines, sessionCookieOf, type TestApp } from '../../test/helper.ts';
import { createUser } from '../accounts/user.repository.ts';

const state = 'state-0123456789abcdef';

describe.each(engines)('login API on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(engine, { env: { LOGIN_MAX_FAILURES: '3', LOGIN_IP_LIMIT_PER_MINUTE: '1000' } });
  });
  afterAll(() => t.close());

  const login = (body: unknown, options: Parameters<typeof call>[3] = {}) =>
    call(t.app, 'POST', '/api/login', { body, ...options });

  it('answers a single-use code for the right password', async () => {
    const response = await login({ email: demo.grandHotel.email, password: demo.password, state });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ code: expect.any(String), state });
    expect(response.json().code.length).toBeGreaterThanOrEqual(43);
  });

  it('accepts the e-mail in any case and with surrounding spaces', async () => {
    const response = await login({ email: '  DEMO@Grand-Hotel.test ', password: demo.password, state });
    expect(response.statusCode).toBe(200);
  });

  it('gives the same answer for a wrong password, an unknown e-mail and a pending account', async () => {
    await createUser(t.services.db, {
      tenantCode: 'grand-hotel',
      email: 'pending@grand-hotel.test',
      type: 'staff',
      locale: 'en',
      status: 'pending',
      password: demo.password,
    });
    const answers = await Promise.all([
      login({ email: 'wrong-pass@grand-hotel.test', password: 'nope', state }),
      login({ email: 'nobody@grand-hotel.test', password: demo.password, state }),
      login({ email: 'pending@grand-hotel.test', password: demo.password, state }),
    ]);
    for (const answer of answers) {
      expect(answer.statusCode).toBe(401);
      expect(answer.json()).toEqual({
        code: 'login.invalid_credentials',
        message: 'Invalid e-mail or password.',
      });
    }
  });

  it('does not let a user of one tenant sign in on another', async () => {
    const response = await login(
      { email: demo.grandHotel.email, password: demo.password, state },
      { host: demo.seaside.host },
    );
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('login.invalid_credentials');
  });

  it('locks an account after repeated failures, even for the right password', async () => {
    await createUser(t.services.db, {
      tenantCode: 'grand-hotel',
      email: 'lockme@grand-hotel.test',
      type: 'staff',
      locale: 'en',
      status: 'active',
      password: demo.password,
    });
    const codes: string[] = [];
    for (let i = 0; i < 3; i++) {
      codes.push(
        (await login({ email: 'lockme@grand-hotel.test', password: `Wrong-${i}a`, state })).json().code,
      );
    }
    expect(codes).toEqual([
      'login.invalid_credentials',
      'login.invalid_credentials',
      'login.too_many_attempts',
    ]);
    const right = await login({ email: 'lockme@grand-hotel.test', password: demo.password, state });
    expect(right.statusCode).toBe(429);
    expect(right.json().code).toBe('login.too_many_attempts');
    // The lock passes with its window.
    t.clock.advance(16 * 60_000);
    expect(
      (await login({ email: 'lockme@grand-hotel.test', password: demo.password, state })).statusCode,
    ).toBe(200);
  });

  it('locks unknown e-mails the same way, so lockout does not reveal accounts', async () => {
    const codes: string[] = [];
    for (let i = 0; i < 4; i++) {
      codes.push(
        (await login({ email: 'ghost@grand-hotel.test', password: `Wrong-${i}a`, state })).json().code,
      );
    }
    expect(codes.slice(2)).toEqual(['login.too_many_attempts', 'login.too_many_attempts']);
  });

  it('refuses a correct password that is on the leaked-password list', async () => {
    await createUser(t.services.db, {
      tenantCode: 'grand-hotel',
      email: 'leaky@grand-hotel.test',
      type: 'staff',
      locale: 'en',
      status: 'active',
      password: 'Password1',
    });
    const response = await login({ email: 'leaky@grand-hotel.test', password: 'Password1', state });
    expect(response.statusCode).toBe(403);
    expect(response.json().code).toBe('login.password_leaked');
    // A wrong password is still just wrong: the leak check never runs before the password is proven.
    const wrong = await login({ email: 'leaky@grand-hotel.test', password: 'password1', state });
    expect(wrong.json().code).toBe('login.invalid_credentials');
  });

  it.each([
    ['no body', undefined],
    ['an empty object', {}],
    ['an invalid e-mail', { email: 'not-an-email', password: 'x', state }],
    ['a missing state', { email: demo.grandHotel.email, password: demo.password }],
    ['a password over 2048 characters', { email: demo.grandHotel.email, password: 'A1a'.repeat(700), state }],
    ['a number for the e-mail', { email: 42, password: 'x', state }],
    ['an array', [1, 2, 3]],
    ['a NUL character', { email: 'demo\u0000@grand-hotel.test', password: 'x', state }],
    ['a NUL character in the password', { email: demo.grandHotel.email, password: 'a\u0000b', state }],
  ])('answers 400 validation_failed for %s', async (_name, body) => {
    const response = await login(body);
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('common.validation_failed');
  });

  it('answers 400 for malformed JSON, 413 for an oversized body and 415 for another media type', async () => {
    const malformed = await login('{"email":', {});
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().code).toBe('common.validation_failed');

    const huge = await login({ email: demo.grandHotel.email, password: 'x'.repeat(70 * 1024), state });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().code).toBe('common.payload_too_large');

    const form = await login('email=a', { headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(form.statusCode).toBe(415);
    expect(form.json().code).toBe('common.unsupported_media_type');
  });

  it('refuses cross-site requests before doing any work', async () => {
    const evil = await login(
      { email: demo.grandHotel.email, password: demo.password, state },
      { origin: 'http://evil.example' },
    );
    expect(evil.statusCode).toBe(403);
    expect(evil.json().code).toBe('common.forbidden_origin');
    const otherTenant = await login(
      { email: demo.grandHotel.email, password: demo.password, state },
      { origin: 'http://seaside.localhost:3000' },
    );
    expect(otherTenant.statusCode).toBe(403);
    const noOrigin = await login(
      { email: demo.grandHotel.email, password: demo.password, state },
      { origin: null },
    );
    expect(noOrigin.statusCode).toBe(403);
    const fetchMetadata = await login(
      { email: demo.grandHotel.email, password: demo.password, state },
      { origin: null, headers: { 'sec-fetch-site': 'same-origin' } },
    );
    expect(fetchMetadata.statusCode).toBe(200);
  });

  it('answers 404 unknown_domain on a host no tenant owns', async () => {
    const response = await login(
      { email: demo.grandHotel.email, password: demo.password, state },
      { host: 'unknown.localhost:3000' },
    );
    expect(response.statusCode).toBe(404);
    expect(response.json().code).toBe('tenant.unknown_domain');
  });
});

describe.each(engines)('code exchange (POST /api/authenticate) on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(engine);
  });
  afterAll(() => t.close());

  async function freshCode(tenant = demo.grandHotel): Promise<string> {
    const response = await call(t.app, 'POST', '/api/login', {
      host: tenant.host,
      body: { email: tenant.email, password: demo.password, state },
    });
    return response.json().code;
  }

  it('opens a session with a secure cookie and answers the user identity', async () => {
    const response = await call(t.app, 'POST', '/api/authenticate', {
      body: { code: await freshCode(), tenantCode: 'grand-hotel' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      email: demo.grandHotel.email,
      type: 'staff',
      locale: 'en',
      state: 'AUTHENTICATED',
      emailVerificationRequired: false,
      defaultRedirectUri: 'http://localhost:3001/',
    });
    const cookie = response.cookies.find((c) => c.name === 'AUTH_X_TOKEN');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/', maxAge: 30 * 24 * 3600 });
    expect(cookie?.domain).toBeUndefined();
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('redeems a code once only', async () => {
    const code = await freshCode();
    const first = await call(t.app, 'POST', '/api/authenticate', {
      body: { code, tenantCode: 'grand-hotel' },
    });
    expect(first.statusCode).toBe(200);
    const replay = await call(t.app, 'POST', '/api/authenticate', {
      body: { code, tenantCode: 'grand-hotel' },
    });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().code).toBe('authenticate.code_invalid');
    expect(sessionCookieOf(replay)).toBeUndefined();
  });

  it('redeems concurrent replays of one code at most once', async () => {
    const code = await freshCode();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        call(t.app, 'POST', '/api/authenticate', { body: { code, tenantCode: 'grand-hotel' } }),
      ),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
  });

  it('refuses an expired code', async () => {
    const code = await freshCode();
    t.clock.advance(61_000);
    const response = await call(t.app, 'POST', '/api/authenticate', {
      body: { code, tenantCode: 'grand-hotel' },
    });
    t.clock.advance(-61_000);
    expect(response.statusCode).toBe(400);
  });

  it("refuses another tenant's code, on its host or with its tenant code", async () => {
    const code = await freshCode(demo.seaside);
    const onGrand = await call(t.app, 'POST', '/api/authenticate', { body: { code, tenantCode: 'seaside' } });
    expect(onGrand.statusCode).toBe(400);
    const wrongCode = await call(t.app, 'POST', '/api/authenticate', {
      host: demo.seaside.host,
      body: { code, tenantCode: 'grand-hotel' },
    });
    expect(wrongCode.statusCode).toBe(400);
    // The refusals did not consume it: the right tenant can still redeem it.
    const right = await call(t.app, 'POST', '/api/authenticate', {
      host: demo.seaside.host,
      body: { code, tenantCode: 'seaside' },
    });
    expect(right.statusCode).toBe(200);
  });

  it('answers 400 for malformed input', async () => {
    for (const body of [
      {},
      { code: '' },
      { code: 'x'.repeat(300), tenantCode: 'grand-hotel' },
      { code: 1, tenantCode: [] },
    ]) {
      const response = await call(t.app, 'POST', '/api/authenticate', { body });
      expect(response.statusCode).toBe(400);
      expect(response.json().code).toBe('common.validation_failed');
    }
  });
});

describe('login lockout with Redis counters (REDIS_URL)', () => {
  it('locks after repeated failures and refuses the right password while locked', async () => {
    const t = await buildTestApp('sqlite', {
      env: { REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', LOGIN_MAX_FAILURES: '2' },
    });
    try {
      const email = `redis-${Date.now()}@grand-hotel.test`;
      await createUser(t.services.db, {
        tenantCode: 'grand-hotel',
        email,
        type: 'staff',
        locale: 'en',
        status: 'active',
        password: demo.password,
      });
      const codes = [];
      for (const password of ['Wrong-1a', 'Wrong-2a', demo.password]) {
        codes.push(
          (await call(t.app, 'POST', '/api/login', { body: { email, password, state } })).json().code,
        );
      }
      expect(codes).toEqual([
        'login.invalid_credentials',
        'login.too_many_attempts',
        'login.too_many_attempts',
      ]);
    } finally {
      await t.close();
    }
  });
});
