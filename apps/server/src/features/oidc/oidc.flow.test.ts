import { loopbackFetch } from '@keycard/demo-app/loopback-fetch';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo, engines, type TestApp } from '../../test/helper.ts';
import { Browser } from '../../test/http-client.ts';
import {
  discoverIssuer,
  listeningTestApp,
  demoRedirectUri as redirectUri,
  startAuthorization,
} from '../../test/oidc.ts';

describe.each(engines)('OpenID Connect provider on %s (openid-client, real HTTP)', (engine) => {
  let t: TestApp;
  let origin: (tenant: string) => string;

  beforeAll(async () => {
    ({ t, origin } = await listeningTestApp(engine));
  });
  afterAll(() => t.close());

  const discover = (tenant: string) => discoverIssuer(origin(tenant));

  /** The portal's part, done with its API: password login, code exchange, interaction finish. */
  async function signInThroughPortal(tenant: string, browser: Browser, loginLocation: string, email: string) {
    const iid = new URL(loginLocation, origin(tenant)).searchParams.get('iid');
    expect(iid).toBeTruthy();
    const login = await browser.fetch(`${origin(tenant)}/api/login`, {
      method: 'POST',
      body: { email, password: demo.password, state: 'state-0123456789abcdef' },
    });
    expect(login.status).toBe(200);
    const { code } = (await login.json()) as { code: string };
    const authenticate = await browser.fetch(`${origin(tenant)}/api/authenticate`, {
      method: 'POST',
      body: { code, tenantCode: tenant },
    });
    expect(authenticate.status).toBe(200);
    const authorize = await browser.fetch(`${origin(tenant)}/api/authorize`, {
      method: 'POST',
      body: { iid },
    });
    expect(authorize.status).toBe(200);
    const { location } = (await authorize.json()) as { location: string };
    const resumed = await browser.fetch(location);
    expect(resumed.status).toBe(303);
    return resumed.headers.get('location')!;
  }

  for (const tenant of ['grand-hotel', 'seaside'] as const) {
    it(`completes discovery, code + PKCE, token exchange, ID-token validation and userinfo for ${tenant}`, async () => {
      const email = tenant === 'grand-hotel' ? demo.grandHotel.email : demo.seaside.email;
      const config = await discover(tenant);
      expect(config.serverMetadata().issuer).toBe(`${origin(tenant)}/oidc`);
      expect(config.serverMetadata().code_challenge_methods_supported).toEqual(['S256']);

      const browser = new Browser();
      const { response, verifier, state, nonce } = await startAuthorization(config, browser);
      expect(response.status).toBe(303);
      const loginLocation = response.headers.get('location')!;
      expect(loginLocation).toMatch(/^\/login\?iid=/);

      const callback = await signInThroughPortal(tenant, browser, loginLocation, email);
      expect(callback.startsWith(`${redirectUri}?`)).toBe(true);
      const tokens = await client.authorizationCodeGrant(config, new URL(callback), {
        pkceCodeVerifier: verifier,
        expectedState: state,
        expectedNonce: nonce,
      });
      const claims = tokens.claims()!;
      expect(claims).toMatchObject({
        iss: `${origin(tenant)}/oidc`,
        aud: 'demo-app',
        email,
        email_verified: true,
        locale: 'en',
        user_type: 'staff',
      });
      const userinfo = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
      expect(userinfo.email).toBe(email);

      // The code is single use: a replay is refused.
      await expect(
        client.authorizationCodeGrant(config, new URL(callback), {
          pkceCodeVerifier: verifier,
          expectedState: state,
          expectedNonce: nonce,
        }),
      ).rejects.toMatchObject({ error: 'invalid_grant' });
    });
  }

  it('refuses an unregistered redirect URI with an error page and no redirect', async () => {
    const config = await discover('grand-hotel');
    const browser = new Browser();
    const { response } = await startAuthorization(config, browser, {
      redirect_uri: 'https://evil.example/callback',
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(await response.text()).toContain('redirect_uri');
  });

  it('requires PKCE', async () => {
    const config = await discover('grand-hotel');
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'openid',
      state: 'abc',
    });
    const response = await new Browser().fetch(url.href);
    const location = new URL(response.headers.get('location')!);
    expect(location.searchParams.get('error')).toBe('invalid_request');
  });

  it('answers login_required to prompt=none without a session and after logout', async () => {
    const config = await discover('grand-hotel');
    const browser = new Browser();
    const none = await startAuthorization(config, browser, { prompt: 'none' });
    expect(new URL(none.response.headers.get('location')!).searchParams.get('error')).toBe('login_required');

    // A full sign-in, then prompt=none succeeds silently (SSO)…
    const first = await startAuthorization(config, browser);
    await signInThroughPortal(
      'grand-hotel',
      browser,
      first.response.headers.get('location')!,
      demo.grandHotel.email,
    );
    const silent = await startAuthorization(config, browser, { prompt: 'none' });
    const silentLocation = new URL(silent.response.headers.get('location')!);
    expect(silentLocation.searchParams.get('code')).toBeTruthy();

    // …until the Keycard session ends: the provider's own session cookie is not enough.
    const logout = await browser.fetch(`${origin('grand-hotel')}/api/logout`, { method: 'POST', body: {} });
    expect(logout.status).toBe(200);
    expect(browser.cookies.has('_session')).toBe(true);
    const after = await startAuthorization(config, browser, { prompt: 'none' });
    const afterLocation = new URL(after.response.headers.get('location')!);
    expect(afterLocation.searchParams.get('error')).toBe('login_required');
    expect(afterLocation.searchParams.get('code')).toBeNull();
  });

  it('ends the Keycard session on RP-initiated logout, even without JavaScript', async () => {
    const config = await discover('grand-hotel');
    const browser = new Browser();
    const { response, verifier, state, nonce } = await startAuthorization(config, browser);
    const callback = await signInThroughPortal(
      'grand-hotel',
      browser,
      response.headers.get('location')!,
      demo.grandHotel.email,
    );
    const tokens = await client.authorizationCodeGrant(config, new URL(callback), {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
    });
    const endSession = client.buildEndSessionUrl(config, {
      id_token_hint: tokens.id_token!,
      post_logout_redirect_uri: 'http://localhost:3001/',
    });
    const page = await browser.fetch(endSession.href);
    const html = await page.text();
    const action = html.match(/<form[^>]*action="([^"]+)"/)?.[1];
    const xsrf = html.match(/name="xsrf" value="([^"]+)"/)?.[1];
    expect(action && xsrf).toBeTruthy();
    // What the page's no-script button posts: the provider's form with logout=yes.
    const confirmed = await browser.fetch(new URL(action!, origin('grand-hotel')).href, {
      method: 'POST',
      form: { xsrf: xsrf!, logout: 'yes' },
    });
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get('location')).toBe('http://localhost:3001/');
    expect(browser.cookies.has('AUTH_X_TOKEN')).toBe(false);
    const session = await browser.fetch(`${origin('grand-hotel')}/api/session`);
    expect(await session.json()).toEqual({ exists: false });
  });

  it('does not end the Keycard session for a forged logout confirmation', async () => {
    const browser = new Browser();
    const config = await discover('grand-hotel');
    const { response } = await startAuthorization(config, browser);
    await signInThroughPortal(
      'grand-hotel',
      browser,
      response.headers.get('location')!,
      demo.grandHotel.email,
    );
    const forged = await browser.fetch(`${origin('grand-hotel')}/oidc/session/end/confirm`, {
      method: 'POST',
      form: { xsrf: 'forged', logout: 'yes' },
    });
    expect(forged.status).toBe(400);
    const session = await browser.fetch(`${origin('grand-hotel')}/api/session`);
    expect(((await session.json()) as { exists: boolean }).exists).toBe(true);
  });

  it("does not let a code issued by one tenant be redeemed at another's token endpoint", async () => {
    const grand = await discover('grand-hotel');
    const seaside = await discover('seaside');
    const browser = new Browser();
    const { response, verifier, state, nonce } = await startAuthorization(grand, browser);
    const callback = await signInThroughPortal(
      'grand-hotel',
      browser,
      response.headers.get('location')!,
      demo.grandHotel.email,
    );
    const stolen = new URL(callback);
    stolen.searchParams.set('iss', `${origin('seaside')}/oidc`);
    await expect(
      client.authorizationCodeGrant(seaside, stolen, {
        pkceCodeVerifier: verifier,
        expectedState: state,
        expectedNonce: nonce,
      }),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('does not let another browser finish a pending sign-in it learned the id of', async () => {
    const config = await discover('grand-hotel');
    const victim = new Browser();
    const { response } = await startAuthorization(config, victim);
    const iid = new URL(response.headers.get('location')!, origin('grand-hotel')).searchParams.get('iid');
    // The attacker signs in with their own session and finishes the victim's interaction id…
    const attacker = new Browser();
    const login = await attacker.fetch(`${origin('grand-hotel')}/api/login`, {
      method: 'POST',
      body: { email: demo.grandHotel.email, password: demo.password, state: 'state-0123456789abcdef' },
    });
    const { code } = (await login.json()) as { code: string };
    await attacker.fetch(`${origin('grand-hotel')}/api/authenticate`, {
      method: 'POST',
      body: { code, tenantCode: 'grand-hotel' },
    });
    const authorize = await attacker.fetch(`${origin('grand-hotel')}/api/authorize`, {
      method: 'POST',
      body: { iid },
    });
    // …but the interaction is read from the browser's interaction cookie, which only the
    // victim's holds: the attacker's browser has no pending sign-in to finish.
    expect(authorize.status).toBe(404);
    expect(((await authorize.json()) as { code: string }).code).toBe('interaction.not_found');
    // Nor would the resume URL help: only the victim's browser holds the resume cookie.
    const resumed = await attacker.fetch(`${origin('grand-hotel')}/oidc/auth/${iid}`);
    expect(resumed.headers.get('location') ?? '').not.toContain('code=');
  });

  it('keeps signing keys and sessions across a restart', async () => {
    const before = await (await loopbackFetch(`${origin('grand-hotel')}/oidc/jwks`)).json();
    t.services.providers.invalidate();
    const after = await (await loopbackFetch(`${origin('grand-hotel')}/oidc/jwks`)).json();
    expect(after).toEqual(before);
  });
});
