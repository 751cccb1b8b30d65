import { apiPaths } from '@keycard/contract';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY } from '../../platform/shared/clock.ts';
import { engines } from '../../test/helper.ts';
import { Browser } from '../../test/http-client.ts';
import { type Cluster, oneInstance } from '../../test/instances.ts';
import { discoverIssuer, startAuthorization } from '../../test/oidc.ts';
import { appSignIn, callbackOf, refresh } from '../../test/sign-in-flow.ts';
import { setTenantSettings } from '../accounts/test-support.ts';
import {
  accountWithPasskey,
  createPasskey,
  newAccount,
  passkeySignIn,
  passkeyVerify,
  passwordSignIn,
  post,
  SoftwareAuthenticator,
} from '../passkeys/passkey.test-support.ts';

/**
 * Passkeys and OpenID Connect (issue 18), with openid-client as an unmodified app: a passkey
 * sign-in's ID token says amr [hwk|swk, user, mfa] and acr phrh or phr; an app asking
 * acr_values=phr gets no code for a password session (passkey.step_up_required) until the
 * passkey verify ceremony raises it; prompt=login and max_age are met by a passkey; the
 * refresh token of a passkey sign-in keeps working after the password expires.
 */
describe.each(engines)('passkeys and OIDC on %s', (engine) => {
  let cluster: Cluster;
  let origin: string;
  let config: client.Configuration;
  const t = () => cluster.t;

  beforeAll(async () => {
    cluster = await oneInstance(engine, { env: { LOGIN_IP_LIMIT_PER_MINUTE: '100000' } });
    origin = cluster.origin('grand-hotel');
    config = await discoverIssuer(origin);
  });
  afterAll(() => cluster.close());

  const iidOf = (location: string) => {
    expect(location).toMatch(/^\/login\?iid=/);
    return new URL(location, origin).searchParams.get('iid') ?? '';
  };

  it('announces phr and phrh; a passkey sign-in for an app gets amr hwk/user/mfa and acr phrh', async () => {
    const metadata = config.serverMetadata();
    expect(metadata.acr_values_supported).toEqual(['phr', 'phrh']);
    const key = new SoftwareAuthenticator(origin, { counter: 1 });
    await accountWithPasskey(t(), new Browser(), origin, key);

    const browser = new Browser();
    const start = await startAuthorization(config, browser, { acr_values: 'phrh' });
    const iid = iidOf(start.location);
    await passkeySignIn(browser, origin, 'grand-hotel', key, { iid });
    const tokens = await appSignInFrom(browser, start);
    const claims = tokens.claims();
    expect(claims?.amr).toEqual(['hwk', 'user', 'mfa']);
    expect(claims?.acr).toBe('phrh');
  });

  it('a synced passkey is swk and phr; its refresh token outlives the password expiry', async () => {
    const key = new SoftwareAuthenticator(origin, { synced: true });
    const { id } = await accountWithPasskey(t(), new Browser(), origin, key);
    const browser = new Browser();
    await passkeySignIn(browser, origin, 'grand-hotel', key);
    const tokens = await appSignIn(config, browser, origin, {
      scope: 'openid offline_access',
      prompt: 'consent',
    });
    expect(tokens.claims()?.amr).toEqual(['swk', 'user', 'mfa']);
    expect(tokens.claims()?.acr).toBe('phr');
    await setTenantSettings(t(), { passwordExpiryDays: 30 });
    try {
      await t()
        .services.db.updateTable('users')
        .set({ password_changed_at: t().clock.now() - 60 * DAY })
        .where('id', '=', id)
        .execute();
      expect((await refresh(cluster.instances[0]!.fetch, origin, tokens.refresh_token!)).status).toBe(200);
    } finally {
      await setTenantSettings(t(), {});
    }
  });

  it('acr_values=phr: a password session gets passkey.step_up_required until a passkey verifies', async () => {
    const { email } = await newAccount(t());
    const browser = new Browser();
    await passwordSignIn(browser, origin, 'grand-hotel', email);
    const key = new SoftwareAuthenticator(origin, { counter: 1 });

    const start = await startAuthorization(config, browser, { acr_values: 'phr' });
    const iid = iidOf(start.location);
    const refused = await post(browser, origin, apiPaths.authorize, { iid });
    expect(refused).toMatchObject({ status: 401, json: { code: 'passkey.step_up_required' } });
    // prompt=none with the same demand gets no code either.
    const silent = await startAuthorization(config, browser, { acr_values: 'phr', prompt: 'none' });
    expect(silent.location).toContain('error=login_required');

    // The account makes a passkey (a recent password sign-in): making one is not signing in
    // with it, so a session opened with a (phishable) password still gets no code…
    await createPasskey(browser, origin, key);
    const stillRefused = await post(browser, origin, apiPaths.authorize, { iid });
    expect(stillRefused).toMatchObject({ status: 401, json: { code: 'passkey.step_up_required' } });
    // …until it signs in with the passkey.
    expect((await passkeyVerify(browser, origin, key)).status).toBe(200);
    const tokens = await appSignInFrom(browser, start);
    expect(tokens.claims()?.acr).toBe('phrh');
    expect(tokens.claims()?.amr).toEqual(['pwd', 'mfa', 'hwk']);
  });

  it('prompt=login and max_age=0 are met by a passkey, and auth_time is the passkey check', async () => {
    const key = new SoftwareAuthenticator(origin);
    const browser = new Browser();
    t().clock.advance(-60_000);
    try {
      await accountWithPasskey(t(), browser, origin, key);
    } finally {
      t().clock.advance(60_000);
    }
    await appSignIn(config, browser, origin);
    const fresh: Array<Record<string, string>> = [{ prompt: 'login' }, { max_age: '0' }];
    for (const params of fresh) {
      const start = await startAuthorization(config, browser, params);
      const iid = iidOf(start.location);
      const stale = await post(browser, origin, apiPaths.authorize, { iid });
      expect(stale).toMatchObject({ status: 401, json: { code: 'session.reauthentication_required' } });
      // The person answers the passkey prompt a moment after the app's request (which the
      // provider dates in whole seconds, taken as the end of its second).
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const checkedAt = t().clock.now();
      expect((await passkeyVerify(browser, origin, key)).status).toBe(200);
      const tokens = await appSignInFrom(browser, start);
      expect(Number(tokens.claims()?.auth_time) * 1000).toBeGreaterThanOrEqual(
        Math.floor(checkedAt / 1000) * 1000,
      );
    }
    // A fresh passkey sign-in for the request meets it as well.
    const other = new Browser();
    const start = await startAuthorization(config, other, { prompt: 'login' });
    await passkeySignIn(other, origin, 'grand-hotel', key, { iid: iidOf(start.location) });
    expect((await appSignInFrom(other, start)).claims()?.amr).toEqual(['hwk', 'user', 'mfa']);
  });

  /** Finishes a started authorization (POST /api/authorize, resume) and exchanges the code. */
  async function appSignInFrom(browser: Browser, start: Awaited<ReturnType<typeof startAuthorization>>) {
    const callback = await callbackOf(browser, origin, start.location);
    return client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: start.verifier,
      expectedState: start.state,
      expectedNonce: start.nonce,
    });
  }
});
