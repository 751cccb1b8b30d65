import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  type CallOptions,
  call,
  demo,
  engines,
  sessionCookieOf,
  type TestApp,
} from '../../test/helper.ts';
import {
  enrolTotp,
  grandHotel,
  mfaCall,
  newUser,
  summit,
  type TestTenant,
  totpAt,
} from '../mfa/mfa.test-support.ts';

const deviceCookieName = 'AUTH_X_DEVICE_ID';

describe.each(engines)('the AUTH_X_DEVICE_ID cookie on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(engine);
  });
  afterAll(() => t.close());

  const deviceCookieOf = (response: LightMyRequestResponse) =>
    response.cookies.find((c) => c.name === deviceCookieName);

  /** Password login and code exchange, with whatever cookie and body a browser would send. */
  async function signInWith(who: TestTenant, options: { cookie?: string; bodyToken?: string } = {}) {
    const login = await call(t.app, 'POST', '/api/login', {
      host: who.host,
      body: { email: who.email, password: demo.password, state: 'state-0123456789abcdef' },
      ...(options.cookie ? { cookie: options.cookie } : {}),
    });
    expect(login.statusCode).toBe(200);
    const authenticate = await call(t.app, 'POST', '/api/authenticate', {
      host: who.host,
      body: {
        code: login.json().code,
        tenantCode: who.code,
        ...(options.bodyToken ? { userDeviceToken: options.bodyToken } : {}),
      },
      ...(options.cookie ? { cookie: options.cookie } : {}),
    });
    expect(authenticate.statusCode).toBe(200);
    return {
      response: authenticate,
      session: sessionCookieOf(authenticate)!,
      state: (authenticate.json() as { state: string }).state,
    };
  }

  /** An enrolled user who passed a code and trusted this browser: the answer that set the cookie. */
  async function trustedBrowser(who?: TestTenant) {
    const user = who ?? (await newUser(t));
    const { secret } = await enrolTotp(t, user, (await signInWith(user)).session);
    const { session } = await signInWith(user);
    const verify = await mfaCall(t, user, 'POST', '/api/mfa/verify', session, {
      code: await totpAt(secret, t.clock.now()),
      deliveryType: 'totp',
    });
    expect(verify.statusCode).toBe(200);
    t.clock.advance(30_000);
    const issued = await mfaCall(t, user, 'POST', '/api/mfa/user-device-tokens', session, {});
    expect(issued.statusCode).toBe(200);
    const cookie = deviceCookieOf(issued);
    return { who: user, issued, cookie, deviceCookie: `${deviceCookieName}=${cookie?.value}` };
  }

  it('is set when the user trusts the browser: HttpOnly, SameSite=Lax, host-only, 365 days, not Secure over http', async () => {
    const { issued, cookie } = await trustedBrowser();
    expect(cookie).toMatchObject({
      value: issued.json().userDeviceToken,
      httpOnly: true,
      sameSite: 'Lax',
      path: '/',
      maxAge: 365 * 24 * 60 * 60,
    });
    expect(cookie?.secure).toBeUndefined();
    expect(cookie?.domain).toBeUndefined();
  });

  it('passes MFA at sign-in on the trusted browser by the cookie alone', async () => {
    const { who, deviceCookie } = await trustedBrowser();
    expect((await signInWith(who, { cookie: deviceCookie })).state).toBe('AUTHENTICATED');
    // The same account from a browser without it still needs a code.
    expect((await signInWith(who)).state).toBe('MFA_VERIFICATION_REQUIRED');
  });

  it('changes nothing when forged, foreign (another user or tenant) or oversized', async () => {
    const { deviceCookie: someoneElses } = await trustedBrowser();
    const { deviceCookie: otherTenants } = await trustedBrowser(await newUser(t, grandHotel));
    const victim = await newUser(t);
    await enrolTotp(t, victim, (await signInWith(victim)).session);
    for (const cookie of [
      someoneElses,
      otherTenants,
      `${deviceCookieName}=${randomBytes(32).toString('base64url')}`,
      `${deviceCookieName}=${'A'.repeat(4000)}`,
      `${deviceCookieName}=`,
    ]) {
      const { state, response } = await signInWith(victim, { cookie });
      expect(state, cookie.slice(0, 40)).toBe('MFA_VERIFICATION_REQUIRED');
      expect(deviceCookieOf(response)).toBeUndefined();
    }
  });

  it('prefers the cookie to the body field, and moves a body token (a device trusted before the cookie) into the cookie', async () => {
    const { who, issued, deviceCookie } = await trustedBrowser();
    const token = issued.json().userDeviceToken as string;
    // SPEC §7's body field still works, and the answer sets the cookie for next time.
    const legacy = await signInWith(who, { bodyToken: token });
    expect(legacy.state).toBe('AUTHENTICATED');
    expect(deviceCookieOf(legacy.response)).toMatchObject({ value: token, httpOnly: true, sameSite: 'Lax' });
    // With the cookie there, a body value (from a script) does not replace it.
    const forgedBody = await signInWith(who, { cookie: deviceCookie, bodyToken: 'forged-token-value' });
    expect(forgedBody.state).toBe('AUTHENTICATED');
    expect(deviceCookieOf(forgedBody.response)).toBeUndefined();
    // A forged cookie wins over a real body token: the cookie is what the server trusts.
    const forgedCookie = await signInWith(who, {
      cookie: `${deviceCookieName}=${randomBytes(32).toString('base64url')}`,
      bodyToken: token,
    });
    expect(forgedCookie.state).toBe('MFA_VERIFICATION_REQUIRED');
  });

  it('names the trusted browser to a portal login redirect as user-device-token (SPEC §4), never by its token', async () => {
    const { who, deviceCookie, issued } = await trustedBrowser();
    const token = issued.json().userDeviceToken as string;
    const redirectParameter = async () => {
      const { session } = await signInWith(who, { cookie: deviceCookie });
      const authorize = await call(t.app, 'POST', '/api/authorize', {
        host: who.host,
        cookie: `${session}; ${deviceCookie}`,
        body: {},
      });
      expect(authorize.statusCode).toBe(200);
      return new URL(authorize.json().location).searchParams.get('user-device-token');
    };
    const named = await redirectParameter();
    // A stable name for the device, so an app can recognise it…
    expect(named).toMatch(/^[\w-]{43}$/);
    expect(await redirectParameter()).toBe(named);
    // …but not the token (the redirect target is a URL an operator chooses, and lands in the
    // app's logs): as a cookie or a body field, the name skips no second factor.
    expect(named).not.toBe(token);
    expect((await signInWith(who, { cookie: `${deviceCookieName}=${named}` })).state).toBe(
      'MFA_VERIFICATION_REQUIRED',
    );
    expect((await signInWith(who, { bodyToken: named! })).state).toBe('MFA_VERIFICATION_REQUIRED');
  });

  it('counts the password step of the trusted browser apart (lockout), by the cookie', async () => {
    const { who, deviceCookie } = await trustedBrowser();
    const wrong = (options: CallOptions) =>
      call(t.app, 'POST', '/api/login', {
        host: who.host,
        body: { email: who.email, password: 'Wrong-password-1', state: 'state-0123456789abcdef' },
        ...options,
      });
    // Guesses from elsewhere until the account is locked for unknown browsers…
    let locked = await wrong({});
    for (let i = 0; i < 30 && locked.json().code !== 'login.too_many_attempts'; i++) locked = await wrong({});
    expect(locked.json().code).toBe('login.too_many_attempts');
    // …and the owner's trusted browser still signs in.
    expect((await signInWith(who, { cookie: deviceCookie })).state).toBe('AUTHENTICATED');
  });
});

describe('the AUTH_X_DEVICE_ID cookie over https', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp('sqlite', { env: { PUBLIC_SCHEME: 'https' } });
  });
  afterAll(() => t.close());

  it('is Secure', async () => {
    const who = await newUser(t, summit);
    const origin = `https://${who.host}`;
    const login = await call(t.app, 'POST', '/api/login', {
      host: who.host,
      origin,
      body: { email: who.email, password: demo.password, state: 'state-0123456789abcdef' },
    });
    expect(login.statusCode).toBe(200);
    const authenticate = await call(t.app, 'POST', '/api/authenticate', {
      host: who.host,
      origin,
      body: { code: login.json().code, tenantCode: who.code },
    });
    const session = authenticate.cookies.find((c) => c.name === 'AUTH_X_TOKEN');
    expect(session?.secure).toBe(true);
    const post = (url: string, body: unknown) =>
      call(t.app, 'POST', url, { host: who.host, origin, cookie: `AUTH_X_TOKEN=${session?.value}`, body });
    const { secret } = (await post('/api/mfa/register-totp', {})).json() as { secret: string };
    const verify = await post('/api/mfa/verify', {
      code: await totpAt(secret, t.clock.now()),
      deliveryType: 'totp',
    });
    expect(verify.statusCode, verify.body).toBe(200);
    const issued = await post('/api/mfa/user-device-tokens', {});
    expect(issued.statusCode, issued.body).toBe(200);
    const cookie = issued.cookies.find((c) => c.name === deviceCookieName);
    expect(cookie).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax' });
  });
});
