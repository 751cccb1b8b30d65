import * as client from 'openid-client';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo, engines, type TestApp } from '../../test/helper.ts';
import { Browser } from '../../test/http-client.ts';
import {
  discoverIssuer,
  listeningTestApp,
  demoRedirectUri as redirectUri,
  startAuthorization,
} from '../../test/oidc.ts';
import { createUser } from '../accounts/user.repository.ts';

/**
 * Invariant 1 for MFA: with MFA required, or a factor enrolled, a session that passed only the
 * password gets no authorization code from /oidc/auth (prompt=none or not) and so no token —
 * over real HTTP, with openid-client as the app.
 */
describe.each(engines)('no code without MFA (OIDC, real HTTP) on %s', (engine) => {
  let t: TestApp;
  let origin: (tenant: string) => string;

  beforeAll(async () => {
    ({ t, origin } = await listeningTestApp(engine));
  });
  afterAll(() => t.close());

  const discover = (tenant: string) => discoverIssuer(origin(tenant));
  const authorization = startAuthorization;

  async function passwordOnly(tenant: string, browser: Browser, email: string) {
    const login = await browser.fetch(`${origin(tenant)}/api/login`, {
      method: 'POST',
      body: { email, password: demo.password, state: 'state-0123456789abcdef' },
    });
    const { code } = (await login.json()) as { code: string };
    const authenticate = await browser.fetch(`${origin(tenant)}/api/authenticate`, {
      method: 'POST',
      body: { code, tenantCode: tenant },
    });
    return (await authenticate.json()) as { state: string };
  }

  /** Everything an attacker holding only the password can try; none of it may yield a code. */
  async function expectNoCode(tenant: string, browser: Browser) {
    const config = await discover(tenant);
    const silent = await authorization(config, browser, { prompt: 'none' });
    const silentLocation = new URL(silent.location, origin(tenant));
    expect(silentLocation.searchParams.get('error')).toBe('login_required');
    expect(silentLocation.searchParams.get('code')).toBeNull();

    const interactive = await authorization(config, browser);
    expect(interactive.location).toMatch(/^\/login\?iid=/);
    expect(interactive.location).not.toContain('code=');
    const iid = new URL(interactive.location, origin(tenant)).searchParams.get('iid')!;
    const finish = await browser.fetch(`${origin(tenant)}/api/authorize`, { method: 'POST', body: { iid } });
    expect(finish.status).toBe(403);
    expect(((await finish.json()) as { code: string }).code).toBe('session.incomplete');
    // Resuming the interaction without a result goes back to the login, never to the app.
    const resumed = await browser.fetch(`${origin(tenant)}/oidc/auth/${iid}`);
    expect(resumed.headers.get('location') ?? '').not.toContain('code=');
    return { config };
  }

  /** A new active user who signs in with the password and registers an authenticator app. */
  async function enrolTotp(email: string, browser: Browser): Promise<{ secret: string }> {
    await createUser(t.services.db, {
      tenantCode: 'grand-hotel',
      email,
      type: 'staff',
      locale: 'en',
      status: 'active',
      password: demo.password,
      emailVerified: true,
    });
    await passwordOnly('grand-hotel', browser, email);
    const start = await browser.fetch(`${origin('grand-hotel')}/api/mfa/register-totp`, {
      method: 'POST',
      body: {},
    });
    const { secret } = (await start.json()) as { secret: string };
    const confirm = await browser.fetch(`${origin('grand-hotel')}/api/mfa/verify`, {
      method: 'POST',
      body: {
        code: await generate({ secret, epoch: Math.floor(t.clock.now() / 1000) }),
        deliveryType: 'totp',
      },
    });
    expect(confirm.status).toBe(200);
    return { secret };
  }

  it('summit (MFA required): a password-only session gets no code, with or without prompt=none', async () => {
    const browser = new Browser();
    expect((await passwordOnly('summit', browser, 'demo@summit.test')).state).toBe(
      'MFA_REGISTRATION_REQUIRED',
    );
    await expectNoCode('summit', browser);
  });

  it('an enrolled user on a tenant with MFA off: no code until the second factor, then code and token', async () => {
    const email = `enrolled-${engine}@grand-hotel.test`;
    // Enrol in a first browser.
    const { secret } = await enrolTotp(email, new Browser());
    const epoch = () => Math.floor(t.clock.now() / 1000);
    t.clock.advance(30_000);

    // The attacker knows the password only.
    const attacker = new Browser();
    expect((await passwordOnly('grand-hotel', attacker, email)).state).toBe('MFA_VERIFICATION_REQUIRED');
    const { config } = await expectNoCode('grand-hotel', attacker);

    // With the second factor as well, the same kind of request ends with a code and a token.
    const verify = await attacker.fetch(`${origin('grand-hotel')}/api/mfa/verify`, {
      method: 'POST',
      body: { code: await generate({ secret, epoch: epoch() }), deliveryType: 'totp' },
    });
    expect(verify.status).toBe(200);
    const interactive = await authorization(config, attacker);
    const iid = new URL(interactive.location, origin('grand-hotel')).searchParams.get('iid')!;
    const finish = await attacker.fetch(`${origin('grand-hotel')}/api/authorize`, {
      method: 'POST',
      body: { iid },
    });
    expect(finish.status).toBe(200);
    const { location } = (await finish.json()) as { location: string };
    const resumed = await attacker.fetch(location);
    const callback = resumed.headers.get('location')!;
    expect(callback.startsWith(`${redirectUri}?`)).toBe(true);
    const tokens = await client.authorizationCodeGrant(config, new URL(callback), {
      pkceCodeVerifier: interactive.verifier,
      expectedState: interactive.state,
      expectedNonce: interactive.nonce,
    });
    expect(tokens.claims()?.email).toBe(email);
    expect(tokens.claims()?.amr).toEqual(['pwd', 'mfa', 'otp']);
    t.clock.advance(30_000);
  });

  it("does not let the provider's own session stand in for MFA after a new password-only sign-in", async () => {
    const email = `sso-${engine}@grand-hotel.test`;
    const browser = new Browser();
    await enrolTotp(email, browser);
    t.clock.advance(30_000);
    // A full sign-in: the provider now has a session and a grant for this account.
    const config = await discover('grand-hotel');
    const full = await authorization(config, browser);
    const iid = new URL(full.location, origin('grand-hotel')).searchParams.get('iid')!;
    const finish = await browser.fetch(`${origin('grand-hotel')}/api/authorize`, {
      method: 'POST',
      body: { iid },
    });
    const resumed = await browser.fetch(((await finish.json()) as { location: string }).location);
    expect(resumed.headers.get('location')).toContain('code=');
    const silentOk = await authorization(config, browser, { prompt: 'none' });
    expect(new URL(silentOk.location).searchParams.get('code')).toBeTruthy();

    // The same browser signs in again with the password only: a new Keycard session, no MFA.
    expect((await passwordOnly('grand-hotel', browser, email)).state).toBe('MFA_VERIFICATION_REQUIRED');
    expect(browser.cookies.has('_session')).toBe(true);
    await expectNoCode('grand-hotel', browser);
  });
});
