import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, engines, type TestApp } from '../../test/helper.ts';
import { enrolTotp, mfaCall, newUser, passwordSignIn, summit, totpAt } from './mfa.test-support.ts';

const posts: Array<[string, unknown]> = [
  ['/api/mfa/register-totp', {}],
  ['/api/mfa/register-phone', { countryCode: '+49', phoneNumber: '0151 23456789', deliveryType: 'sms' }],
  ['/api/mfa/send-phone-code', { deliveryType: 'sms' }],
  ['/api/mfa/verify', { code: '123456', deliveryType: 'totp' }],
  ['/api/mfa/user-device-tokens', {}],
  ['/api/mfa/recovery-codes', {}],
  ['/api/mfa/reset', { proof: { recoveryCode: 'aaaaa-bbbbb' } }],
];
const gets = ['/api/mfa/status', '/api/mfa/delivery'];

describe.each(engines)('MFA API guards on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(engine);
  });
  afterAll(() => t.close());

  it('answers 401 session.required to every MFA call without a session', async () => {
    for (const [url, body] of posts) {
      const response = await mfaCall(t, summit, 'POST', url, undefined, body);
      expect(response.statusCode, url).toBe(401);
      expect(response.json().code, url).toBe('session.required');
    }
    for (const url of gets) {
      expect((await mfaCall(t, summit, 'GET', url, undefined)).statusCode, url).toBe(401);
    }
  });

  it('refuses cross-site calls before doing anything, even with a valid session', async () => {
    const who = await newUser(t);
    const { cookie } = await passwordSignIn(t.app, who);
    for (const [url, body] of posts) {
      for (const origin of ['https://evil.example', 'http://seaside.localhost:3000']) {
        const response = await call(t.app, 'POST', url, { host: who.host, cookie, body, origin });
        expect(response.statusCode, `${url} from ${origin}`).toBe(403);
        expect(response.json().code).toBe('common.forbidden_origin');
      }
      // No Origin and no same-origin Fetch Metadata: refused too.
      const bare = await call(t.app, 'POST', url, { host: who.host, cookie, body, origin: null });
      expect(bare.statusCode, url).toBe(403);
    }
    // Nothing was started by those calls.
    expect((await mfaCall(t, who, 'GET', '/api/mfa/status', cookie)).json().factor).toBeNull();
    const stray = await mfaCall(t, who, 'POST', '/api/mfa/verify', cookie, {
      code: '123456',
      deliveryType: 'totp',
    });
    expect(stray.json().code).toBe('mfa.registration_not_started');
  });

  it("does not accept one tenant's session on another tenant's host", async () => {
    const { cookie } = await passwordSignIn(t.app, summit);
    const elsewhere = { ...summit, host: 'grand-hotel.localhost:3000' };
    expect((await mfaCall(t, elsewhere, 'GET', '/api/mfa/status', cookie)).statusCode).toBe(401);
    expect((await mfaCall(t, elsewhere, 'POST', '/api/mfa/register-totp', cookie)).statusCode).toBe(401);
  });

  it('answers a coded 400 to malformed bodies, never a 500', async () => {
    const who = await newUser(t);
    const { cookie } = await passwordSignIn(t.app, who);
    const bodies: Array<[string, unknown]> = [
      ['/api/mfa/verify', { code: '123456' }],
      ['/api/mfa/verify', { code: '123456', deliveryType: 'smmobile' }],
      ['/api/mfa/verify', { recoveryCode: 'not a code!' }],
      ['/api/mfa/verify', { code: '123456', deliveryType: 'totp', extra: true }],
      ['/api/mfa/verify', 'null'],
      ['/api/mfa/register-totp', { secret: 'mine' }],
      ['/api/mfa/register-phone', { countryCode: '+49', phoneNumber: 'x'.repeat(40), deliveryType: 'sms' }],
      ['/api/mfa/register-phone', { countryCode: '+49', phoneNumber: '0151 23456789', deliveryType: 'fax' }],
      ['/api/mfa/send-phone-code', { deliveryType: 'totp' }],
      ['/api/mfa/reset', { proof: {} }],
      ['/api/mfa/reset', { proof: { code: '123456', deliveryType: 'totp' }, redirectUri: 'x'.repeat(3000) }],
    ];
    for (const [url, body] of bodies) {
      const response = await mfaCall(t, who, 'POST', url, cookie, body);
      expect(response.statusCode, `${url} ${JSON.stringify(body)}`).toBe(400);
      expect(response.json().code).toBe('common.validation_failed');
    }
  });

  it('sends no-store on MFA answers', async () => {
    const who = await newUser(t);
    const { cookie } = await passwordSignIn(t.app, who);
    await enrolTotp(t, who, cookie);
    const status = await mfaCall(t, who, 'GET', '/api/mfa/status', cookie);
    expect(status.headers['cache-control']).toBe('no-store');
  });

  it('leaves a session that was never MFA-checked out of apps, whatever the portal skipped', async () => {
    const who = await newUser(t);
    const first = await passwordSignIn(t.app, who);
    const { secret } = await enrolTotp(t, who, first.cookie);
    const passwordOnly = await passwordSignIn(t.app, who);
    const authorize = await call(t.app, 'POST', '/api/authorize', {
      host: who.host,
      cookie: passwordOnly.cookie,
      body: { redirectUri: 'http://localhost:3001/callback' },
    });
    expect(authorize.statusCode).toBe(403);
    expect(authorize.json().code).toBe('session.incomplete');
    await mfaCall(t, who, 'POST', '/api/mfa/verify', passwordOnly.cookie, {
      code: await totpAt(secret, t.clock.now()),
      deliveryType: 'totp',
    });
    const after = await call(t.app, 'POST', '/api/authorize', {
      host: who.host,
      cookie: passwordOnly.cookie,
      body: { redirectUri: 'http://localhost:3001/callback' },
    });
    expect(after.statusCode).toBe(200);
  });
});
