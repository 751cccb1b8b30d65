import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, demo, engines, signIn, type TestApp } from '../../test/helper.ts';
import { deviceIdForApps } from '../factors/device.service.ts';

describe.each(engines)('session, authorize and logout API on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(engine);
  });
  afterAll(() => t.close());

  it('tells the portal there is no session without a cookie or with a forged one', async () => {
    for (const cookie of [undefined, 'AUTH_X_TOKEN=forged', `AUTH_X_TOKEN=${'x'.repeat(500)}`]) {
      const response = await call(t.app, 'GET', '/api/session', cookie ? { cookie } : {});
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ exists: false });
    }
  });

  it('tells the portal the session facts, never the token', async () => {
    const { cookie } = await signIn(t.app);
    const response = await call(t.app, 'GET', '/api/session', { cookie });
    expect(response.json()).toMatchObject({
      exists: true,
      provider: 'keycard',
      partnerCode: null,
      identity: { email: demo.grandHotel.email, state: 'AUTHENTICATED' },
    });
    expect(response.body).not.toContain(cookie.split('=')[1]);
  });

  it("does not accept one tenant's session on another tenant's host", async () => {
    const { cookie } = await signIn(t.app, demo.seaside);
    const response = await call(t.app, 'GET', '/api/session', { cookie });
    expect(response.json()).toEqual({ exists: false });
    const authorize = await call(t.app, 'POST', '/api/authorize', { cookie, body: {} });
    expect(authorize.statusCode).toBe(401);
  });

  it('needs a session to authorize', async () => {
    const response = await call(t.app, 'POST', '/api/authorize', { body: {} });
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('session.required');
  });

  it('goes to the default redirect, or to a registered one, and never elsewhere', async () => {
    const { cookie } = await signIn(t.app);
    const fallback = await call(t.app, 'POST', '/api/authorize', { cookie, body: {} });
    expect(fallback.json()).toEqual({ location: 'http://localhost:3001/' });

    const registered = await call(t.app, 'POST', '/api/authorize', {
      cookie,
      body: { redirectUri: 'http://localhost:3001/callback', userDeviceToken: 'device-1' },
    });
    // The device is named, never by its token (sign-in/device-cookie.api.test.ts).
    expect(registered.json()).toEqual({
      location: `http://localhost:3001/callback?user-device-token=${deviceIdForApps('device-1')}`,
    });

    for (const redirectUri of [
      'https://evil.example/',
      'http://localhost:3001/callback/../evil',
      'http://localhost:3001/callbackx',
      '//evil.example',
      'javascript:alert(1)',
      'http://seaside.localhost:3000/login',
    ]) {
      const response = await call(t.app, 'POST', '/api/authorize', { cookie, body: { redirectUri } });
      expect(response.statusCode, redirectUri).toBe(400);
      expect(response.json().code).toBe('redirect.not_allowed');
    }
  });

  it('answers 404 for an unknown interaction', async () => {
    const { cookie } = await signIn(t.app);
    const response = await call(t.app, 'POST', '/api/authorize', {
      cookie,
      body: { iid: 'no-such-interaction' },
    });
    expect(response.statusCode).toBe(404);
    expect(response.json().code).toBe('interaction.not_found');
  });

  it('logs out: revokes the session, clears the cookie, goes to the login page in the language', async () => {
    const { cookie } = await signIn(t.app);
    const response = await call(t.app, 'POST', '/api/logout', { cookie, body: { langCode: 'de-CH' } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ location: '/login?loggedOut=true&langCode=de' });
    const cleared = response.cookies.find((c) => c.name === 'AUTH_X_TOKEN');
    expect(cleared?.value).toBe('');
    expect((await call(t.app, 'GET', '/api/session', { cookie })).json()).toEqual({ exists: false });
  });

  it('logs out to a registered redirect, and never to an unregistered one', async () => {
    const allowed = await call(t.app, 'POST', '/api/logout', {
      body: { redirectUri: 'http://localhost:3001/' },
    });
    expect(allowed.json()).toEqual({ location: 'http://localhost:3001/' });
    const own = await call(t.app, 'POST', '/api/logout', {
      body: { redirectUri: 'http://grand-hotel.localhost:3000/activate/?token=abc' },
    });
    expect(own.json()).toEqual({ location: 'http://grand-hotel.localhost:3000/activate/?token=abc' });
    const evil = await call(t.app, 'POST', '/api/logout', { body: { redirectUri: 'https://evil.example/' } });
    expect(evil.json()).toEqual({ location: '/login?loggedOut=true' });
  });

  it('refuses a cross-site logout', async () => {
    const { cookie } = await signIn(t.app);
    const response = await call(t.app, 'POST', '/api/logout', {
      cookie,
      body: {},
      origin: 'https://evil.example',
    });
    expect(response.statusCode).toBe(403);
    expect((await call(t.app, 'GET', '/api/session', { cookie })).json().exists).toBe(true);
  });

  it('starts a new session on each login and revokes the one presented', async () => {
    const first = await signIn(t.app);
    const login = await call(t.app, 'POST', '/api/login', {
      body: { email: demo.grandHotel.email, password: demo.password, state: 'state-0123456789abcdef' },
    });
    const second = await call(t.app, 'POST', '/api/authenticate', {
      cookie: first.cookie,
      body: { code: login.json().code, tenantCode: 'grand-hotel' },
    });
    expect(second.statusCode).toBe(200);
    expect((await call(t.app, 'GET', '/api/session', { cookie: first.cookie })).json()).toEqual({
      exists: false,
    });
  });

  it('ends a session after 30 days', async () => {
    const { cookie } = await signIn(t.app);
    t.clock.advance(30 * 24 * 3600 * 1000 + 1000);
    const response = await call(t.app, 'GET', '/api/session', { cookie });
    t.clock.advance(-(30 * 24 * 3600 * 1000 + 1000));
    expect(response.json()).toEqual({ exists: false });
  });
});
