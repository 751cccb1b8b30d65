import { errorCodes } from '@keycard/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRegistrationLink, inviteUser } from '../../features/accounts/invitation.service.ts';
import { lastMailTo, tenantOf, tokenIn, uniqueEmail } from '../../features/accounts/test-support.ts';
import { mfaCall, newUser, passwordSignIn, summit, totpAt } from '../../features/mfa/mfa.test-support.ts';
import { buildTestApp, call, demo, engines, sessionCookieOf, type TestApp } from '../../test/helper.ts';
import { captureLog } from '../../test/log-capture.ts';
import { AppError } from '../shared/errors.ts';

const state = 'state-0123456789abcdef';
const forbiddenOrigin = { code: 'common.forbidden_origin', message: 'Cross-site requests are not allowed.' };

describe.each(engines)('HTTP hardening on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    // Behind a proxy (client addresses from X-Forwarded-For), five logins per address a minute.
    t = await buildTestApp(engine, { env: { TRUST_PROXY: 'true', LOGIN_IP_LIMIT_PER_MINUTE: '5' } });
  });
  afterAll(() => t.close());

  // Each test speaks from addresses of its own, so the per-address limit is its own business.
  let lastIp = 0;
  const newIp = () => `198.51.100.${++lastIp}`;
  const from = (ip: string) => ({ 'x-forwarded-for': ip });

  describe('Host header', () => {
    const invalidHosts = [
      'grand-hotel.localhost:99999',
      'grand-hotel.localhost:65536',
      'grand-hotel.localhost:0',
      'grand-hotel.localhost:80a',
      'grand-hotel.localhost:3000:3000',
      'grand-hotel.localhost/evil',
      'grand hotel.localhost',
      '[::1',
    ];

    it.each(invalidHosts)(
      'refuses Host %j with 400 common.validation_failed on /oidc and /api',
      async (host) => {
        for (const [method, url] of [
          ['GET', '/oidc/.well-known/openid-configuration'],
          ['GET', '/api/session'],
          ['POST', '/api/login'],
        ] as const) {
          const response = await call(t.app, method, url, {
            host,
            origin: null,
            ...(method === 'POST'
              ? { body: { email: demo.grandHotel.email, password: demo.password, state } }
              : {}),
          });
          expect(response.statusCode, `${method} ${url}`).toBe(400);
          expect(response.json(), `${method} ${url}`).toEqual({
            code: 'common.validation_failed',
            message: 'The request is not valid.',
            fields: { host: 'invalid host' },
          });
        }
      },
    );

    it('refuses an invalid X-Forwarded-Host from the trusted proxy the same way', async () => {
      const response = await call(t.app, 'GET', '/oidc/.well-known/openid-configuration', {
        origin: null,
        headers: { 'x-forwarded-host': 'grand-hotel.localhost:99999' },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().code).toBe('common.validation_failed');
    });

    it('answers valid hosts, with or without a port (an IP literal is valid, of no tenant)', async () => {
      for (const host of ['grand-hotel.localhost:3000', 'grand-hotel.localhost', 'localhost:3000']) {
        const discovery = await call(t.app, 'GET', '/oidc/.well-known/openid-configuration', {
          host,
          origin: null,
        });
        expect(discovery.statusCode, host).toBe(200);
      }
      const unknownIp = await call(t.app, 'GET', '/api/session', { host: '127.0.0.1:3000', origin: null });
      expect(unknownIp.json().code).toBe('tenant.unknown_domain');
    });
  });

  describe('dev outbox', () => {
    const outboxPaths = ['/_dev/outbox', '/_dev/outbox.json'];

    it('answers a plain local request, and one a local proxy forwarded for a local client', async () => {
      for (const headers of [{}, { 'x-forwarded-for': '127.0.0.1' }, { forwarded: 'for="[::1]:5173"' }]) {
        for (const url of outboxPaths) {
          const response = await t.app.inject({ method: 'GET', url, headers });
          expect(response.statusCode, `${url} ${JSON.stringify(headers)}`).toBe(200);
        }
      }
      const json = await t.app.inject({ method: 'GET', url: '/_dev/outbox.json' });
      expect(Array.isArray(json.json())).toBe(true);
    });

    it.each([
      { 'x-forwarded-for': '203.0.113.7' },
      { 'x-forwarded-for': '127.0.0.1, 203.0.113.7' },
      { 'x-forwarded-for': '203.0.113.7, 127.0.0.1' },
      { forwarded: 'for=203.0.113.7;proto=https' },
      { forwarded: 'for="[2001:db8::7]:4711"' },
      { forwarded: 'for=127.0.0.1, for=203.0.113.7' },
      { 'x-real-ip': '203.0.113.7' },
    ])('answers 404 on a loopback socket when a proxy header names a remote client: %j', async (headers) => {
      for (const url of outboxPaths) {
        const response = await t.app.inject({ method: 'GET', url, headers });
        expect(response.statusCode, url).toBe(404);
        expect(response.json().code, url).toBe('common.not_found');
        expect(response.body).not.toContain('<li>');
      }
    });
  });

  describe('Origin of state-changing calls', () => {
    const own = 'http://grand-hotel.localhost:3000';
    const refusedOrigins = [
      'https://grand-hotel.localhost:3000', // another scheme
      'http://grand-hotel.localhost:3001', // another port
      'http://grand-hotel.localhost', // the default port, not this one
      'http://grand-hotel.localhost.evil.example:3000', // a look-alike host
      'http://evil-grand-hotel.localhost:3000',
      'http://grand-hotel.localhost:3000@evil.example',
      'http://seaside.localhost:3000', // another tenant, same site
      'null',
    ];
    const calls = [
      ['/api/login', () => ({ email: demo.grandHotel.email, password: demo.password, state })],
      ['/api/authorize', () => ({})],
      ['/api/logout', () => ({})],
      // A partner link signs a browser in: another site must not (login CSRF).
      ['/api/partners/demo-partner/sso', () => ({ token: 'not.a.token' })],
      ['/api/partners/demo-partner/generate-token', () => ({ token: 'identity' })],
    ] as const;

    it.each(calls)('refuses %s from another scheme, port or look-alike host with 403', async (url, body) => {
      for (const origin of refusedOrigins) {
        const response = await call(t.app, 'POST', url, { origin, body: body(), headers: from(newIp()) });
        expect(response.statusCode, origin).toBe(403);
        expect(response.json(), origin).toEqual(forbiddenOrigin);
      }
    });

    it.each(calls)('refuses %s without Origin unless Fetch Metadata says same-origin', async (url, body) => {
      for (const site of ['cross-site', 'same-site', 'none', undefined]) {
        const headers: Record<string, string> = {
          ...from(newIp()),
          ...(site ? { 'sec-fetch-site': site } : {}),
        };
        const response = await call(t.app, 'POST', url, { origin: null, body: body(), headers });
        expect(response.statusCode, String(site)).toBe(403);
        expect(response.json(), String(site)).toEqual(forbiddenOrigin);
      }
    });

    it.each(calls)(
      'accepts %s from its own origin, or same-origin Fetch Metadata without Origin',
      async (url, body) => {
        const withOrigin = await call(t.app, 'POST', url, {
          origin: own,
          body: body(),
          headers: from(newIp()),
        });
        const sameOrigin = await call(t.app, 'POST', url, {
          origin: null,
          body: body(),
          headers: { ...from(newIp()), 'sec-fetch-site': 'same-origin' },
        });
        for (const response of [withOrigin, sameOrigin]) {
          expect(response.statusCode).not.toBe(403);
          expect(response.statusCode).toBeLessThan(500);
        }
        if (url === '/api/login') {
          expect(withOrigin.statusCode).toBe(200);
          expect(sameOrigin.statusCode).toBe(200);
        }
      },
    );
  });

  describe('caching', () => {
    it('marks every answer with a code, token or personal data no-store; the public theme stays cacheable', async () => {
      const noStore: Array<[string, { statusCode: number; headers: Record<string, unknown> }]> = [];
      const ip = from(newIp());
      const anonymous = await call(t.app, 'GET', '/api/session', { headers: ip });
      noStore.push(['GET /api/session (none)', anonymous]);
      const wrong = await call(t.app, 'POST', '/api/login', {
        body: { email: demo.grandHotel.email, password: 'Wrong-password-1', state },
        headers: ip,
      });
      noStore.push(['POST /api/login (401)', wrong]);
      const login = await call(t.app, 'POST', '/api/login', {
        body: { email: demo.grandHotel.email, password: demo.password, state },
        headers: ip,
      });
      noStore.push(['POST /api/login', login]);
      const authenticate = await call(t.app, 'POST', '/api/authenticate', {
        body: { code: login.json().code, tenantCode: 'grand-hotel' },
        headers: ip,
      });
      noStore.push(['POST /api/authenticate', authenticate]);
      const cookie = sessionCookieOf(authenticate)!;
      noStore.push(['GET /api/session', await call(t.app, 'GET', '/api/session', { cookie, headers: ip })]);

      // MFA answers: status, a TOTP secret, recovery codes, a device token.
      const who = await newUser(t, summit);
      const { cookie: mfaCookie } = await passwordSignIn(t.app, who);
      noStore.push(['GET /api/mfa/status', await mfaCall(t, who, 'GET', '/api/mfa/status', mfaCookie)]);
      const registerTotp = await mfaCall(t, who, 'POST', '/api/mfa/register-totp', mfaCookie);
      noStore.push(['POST /api/mfa/register-totp', registerTotp]);
      const enrolled = await newUser(t, summit);
      const { cookie: enrolledCookie } = await passwordSignIn(t.app, enrolled);
      const { secret } = (
        await mfaCall(t, enrolled, 'POST', '/api/mfa/register-totp', enrolledCookie)
      ).json();
      const verify = await mfaCall(t, enrolled, 'POST', '/api/mfa/verify', enrolledCookie, {
        code: await totpAt(secret, t.clock.now()),
        deliveryType: 'totp',
      });
      expect(verify.json().recoveryCodes).toHaveLength(10);
      noStore.push(['POST /api/mfa/verify', verify]);
      noStore.push([
        'POST /api/mfa/user-device-tokens',
        await mfaCall(t, enrolled, 'POST', '/api/mfa/user-device-tokens', enrolledCookie),
      ]);
      noStore.push([
        'POST /api/mfa/recovery-codes',
        await mfaCall(t, enrolled, 'POST', '/api/mfa/recovery-codes', enrolledCookie),
      ]);

      // Lifecycle token checks answer the account's e-mail address.
      const tenant = await tenantOf(t);
      const invited = uniqueEmail('invited');
      await inviteUser(t.services, tenant, { email: invited, type: 'staff', locale: 'en' }, t.clock.now());
      const activationToken = tokenIn(await lastMailTo(t, invited, 'account.activation'));
      noStore.push([
        'POST /api/user/validate-token',
        await call(t.app, 'POST', '/api/user/validate-token', { body: { token: activationToken } }),
      ]);
      const { link } = await createRegistrationLink(
        t.services,
        tenant,
        { email: uniqueEmail('newcomer'), type: 'partner', locale: 'en' },
        t.clock.now(),
      );
      noStore.push([
        'POST /api/validate-registration-token',
        await call(t.app, 'POST', '/api/validate-registration-token', {
          body: { token: new URL(link).searchParams.get('token') },
        }),
      ]);

      const answered = noStore.map(
        ([name, response]) => `${name}: ${response.statusCode} ${response.headers['cache-control']}`,
      );
      expect(answered).toEqual(noStore.map(([name, response]) => `${name}: ${response.statusCode} no-store`));
      expect(noStore.filter(([, response]) => response.statusCode >= 300).map(([name]) => name)).toEqual([
        'POST /api/login (401)',
      ]);

      const theme = await call(t.app, 'GET', '/api/login-domains/grand-hotel.localhost');
      expect(theme.statusCode).toBe(200);
      expect(theme.headers['cache-control']).toBe('no-cache');
    });
  });

  describe('login attempts per client address', () => {
    const attempt = (ip: string) =>
      call(t.app, 'POST', '/api/login', {
        // A new unknown address each time: only the per-address limit is in play.
        body: { email: uniqueEmail('nobody'), password: 'Wrong-password-1', state },
        headers: from(ip),
      });

    it('refuses the 6th attempt a minute from one address, not another address, and drains', async () => {
      const ip = newIp();
      for (let i = 1; i <= 5; i++) {
        const response = await attempt(ip);
        expect(response.statusCode, `attempt ${i}`).toBe(401);
        expect(response.json().code).toBe('login.invalid_credentials');
      }
      const sixth = await attempt(ip);
      expect(sixth.statusCode).toBe(429);
      const refused = sixth.json();
      expect(refused).toMatchObject({ code: 'login.too_many_attempts', message: 'Too many attempts.' });
      const retryAfterSeconds = Number(refused.fields?.retryAfterSeconds);
      // Five a minute: one more every 12 seconds.
      expect(retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(retryAfterSeconds).toBeLessThanOrEqual(12);

      // Someone else is not affected.
      expect((await attempt(newIp())).statusCode).toBe(401);

      // The bucket drains steadily: after retryAfterSeconds one attempt more, not a new burst.
      t.clock.advance(retryAfterSeconds * 1000);
      expect((await attempt(ip)).statusCode).toBe(401);
      expect((await attempt(ip)).statusCode).toBe(429);
      // A minute later the address has its whole allowance back.
      t.clock.advance(60_000);
      for (let i = 1; i <= 5; i++) expect((await attempt(ip)).statusCode, `after a minute, ${i}`).toBe(401);
      expect((await attempt(ip)).statusCode).toBe(429);
    });

    it('limits partner sign-ins per address at the same rate, before any token is checked', async () => {
      const partnerAttempt = (from_: string) =>
        call(t.app, 'POST', '/api/partners/demo-partner/sso', {
          body: { token: 'made.up.token' },
          headers: from(from_),
        });
      const ip = newIp();
      for (let i = 1; i <= 5; i++) {
        const response = await partnerAttempt(ip);
        expect(response.statusCode, `attempt ${i}`).toBe(401);
        expect(response.json().code).toBe('partner.token_invalid');
      }
      const sixth = await partnerAttempt(ip);
      expect(sixth.statusCode).toBe(429);
      expect(sixth.json()).toMatchObject({ code: 'common.rate_limited' });
      expect(Number(sixth.json().fields?.retryAfterSeconds)).toBeGreaterThanOrEqual(1);
      expect(Number(sixth.json().fields?.retryAfterSeconds)).toBeLessThanOrEqual(12);
      expect(sixth.headers['set-cookie']).toBeUndefined();
      // Its own bucket: the address's password logins are not used up by it, nor another address.
      expect((await attempt(ip)).statusCode).toBe(401);
      expect((await partnerAttempt(newIp())).statusCode).toBe(401);
    });
  });
});

describe('5xx answers', () => {
  let t: TestApp;
  const log = captureLog();
  const secrets = [
    'hunter2',
    '/srv/keycard/secret.key',
    'upstream-token-123',
    'secret-field',
    'secret-cause',
  ];
  beforeAll(async () => {
    t = await buildTestApp('sqlite', {
      env: { LOG_LEVEL: 'info' },
      logStream: log.stream,
      beforeReady: (app) => {
        app.get('/api/boom', async () => {
          throw new Error('connect failed: password hunter2 in /srv/keycard/secret.key');
        });
        app.get('/api/boom-status', async () => {
          throw Object.assign(new Error('upstream said upstream-token-123'), { statusCode: 502 });
        });
        app.get('/api/boom-app-error', async () => {
          throw new AppError(errorCodes.internal, {
            fields: { detail: 'secret-field' },
            cause: new Error('secret-cause'),
          });
        });
      },
    });
  });
  afterAll(() => t.close());

  it.each(['/api/boom', '/api/boom-status', '/api/boom-app-error'])(
    '%s answers 500 { code, message } with no detail, and the error goes to the log',
    async (url) => {
      log.clear();
      const response = await call(t.app, 'GET', url);
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({ code: 'common.internal', message: 'Something went wrong.' });
      for (const secret of secrets) expect(response.body).not.toContain(secret);
      expect(response.body).not.toMatch(/stack|\bat .+:\d+/);
      expect(response.headers['cache-control']).toBe('no-store');

      const logged = log.errors();
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatchObject({ msg: 'request failed', code: 'common.internal' });
      expect(logged[0]!.err?.stack).toBeTruthy();
    },
  );
});
