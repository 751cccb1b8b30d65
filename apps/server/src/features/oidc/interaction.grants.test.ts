import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo, engines, type TestApp } from '../../test/helper.ts';
import { Browser } from '../../test/http-client.ts';
import { demoRedirectUri, discoverIssuer, listeningTestApp, startAuthorization } from '../../test/oidc.ts';
import { activeUser, uniqueEmail } from '../accounts/test-support.ts';
import { findUserByEmail } from '../accounts/user.repository.ts';

describe.each(engines)('a grant of another account is never reused (real HTTP, %s)', (engine) => {
  let t: TestApp;
  let origin: string;
  beforeAll(async () => {
    const listening = await listeningTestApp(engine);
    t = listening.t;
    origin = listening.origin('grand-hotel');
  });
  afterAll(() => t.close());

  const grantRows = (accountId: string) =>
    t.services.db
      .selectFrom('oidc_payloads')
      .select(['id', 'payload'])
      .where('tenant_code', '=', 'grand-hotel')
      .where('model', '=', 'Grant')
      .where('account_id', '=', accountId)
      .execute();

  async function passwordStep(browser: Browser, email: string) {
    const login = await browser.fetch(`${origin}/api/login`, {
      method: 'POST',
      body: { email, password: demo.password, state: 'state-0123456789abcdef' },
    });
    expect(login.status).toBe(200);
    const { code } = (await login.json()) as { code: string };
    const authenticate = await browser.fetch(`${origin}/api/authenticate`, {
      method: 'POST',
      body: { code, tenantCode: 'grand-hotel' },
    });
    expect(authenticate.status).toBe(200);
  }

  /** The portal finishes the interaction (POST /api/authorize); answers its id and resume URL. */
  async function finish(browser: Browser, loginLocation: string) {
    expect(loginLocation).toMatch(/^\/login\?iid=/);
    const iid = new URL(loginLocation, origin).searchParams.get('iid')!;
    const authorize = await browser.fetch(`${origin}/api/authorize`, { method: 'POST', body: { iid } });
    expect(authorize.status).toBe(200);
    return { iid, resume: ((await authorize.json()) as { location: string }).location };
  }

  it("gives user B, signing in where user A's provider session lives, a grant and token of B's own", async () => {
    const config = await discoverIssuer(origin);
    const tenant = (await t.services.tenants.byCode('grand-hotel'))!;
    const { provider } = await t.services.providers.get(tenant);
    const userA = (await findUserByEmail(t.services.db, 'grand-hotel', demo.grandHotel.email))!;
    const userB = await activeUser(t, uniqueEmail('user-b'), demo.password);
    const browser = new Browser();

    // A signs in to the app through the provider, asking only for openid.
    const first = await startAuthorization(config, browser, { scope: 'openid' });
    await passwordStep(browser, userA.email);
    const firstFinish = await finish(browser, first.location);
    const firstCallback = (await browser.fetch(firstFinish.resume)).headers.get('location')!;
    const tokensA = await client.authorizationCodeGrant(config, new URL(firstCallback), {
      pkceCodeVerifier: first.verifier,
      expectedState: first.state,
      expectedNonce: first.nonce,
    });
    expect(tokensA.claims()!.sub).toBe(userA.id);
    const [grantA, ...more] = await grantRows(userA.id);
    expect(more).toEqual([]);

    // B signs in to Keycard in the same browser; the provider's session is still A's, so
    // the provider hands the new interaction A's grant.
    await passwordStep(browser, userB.email);
    const second = await startAuthorization(config, browser, { scope: 'openid email profile' });
    const iid = new URL(second.location, origin).searchParams.get('iid')!;
    expect((await provider.Interaction.find(iid))?.grantId).toBe(grantA!.id);

    const { resume } = await finish(browser, second.location);
    const finished = await provider.Interaction.find(iid);
    const grantId = (finished?.result?.consent as { grantId?: string } | undefined)?.grantId;
    expect(grantId).toBeTruthy();
    expect(grantId).not.toBe(grantA!.id);
    expect((await provider.Grant.find(grantId!))?.accountId).toBe(userB.id);
    // A's grant is exactly as A left it: B's scopes were not added to it.
    expect(await grantRows(userA.id)).toEqual([grantA]);

    // The provider first ends A's session (its own confirmation form), then resumes B's
    // sign-in: B's Keycard session stays, and the app gets B's code without a second sign-in.
    const confirmPage = await (await browser.fetch(resume)).text();
    const action = confirmPage.match(/action="([^"]+)"/)?.[1];
    const xsrf = confirmPage.match(/name="xsrf" value="([^"]+)"/)?.[1];
    expect(action && xsrf).toBeTruthy();
    const confirmed = await browser.fetch(action!, { method: 'POST', form: { xsrf: xsrf!, logout: 'yes' } });
    expect(confirmed.status).toBe(303);
    const location = (await browser.fetch(confirmed.headers.get('location')!)).headers.get('location')!;
    expect(location.startsWith(`${demoRedirectUri}?`), location).toBe(true);
    expect(browser.cookies.has('AUTH_X_TOKEN')).toBe(true);
    const tokensB = await client.authorizationCodeGrant(config, new URL(location), {
      pkceCodeVerifier: second.verifier,
      expectedState: second.state,
      expectedNonce: second.nonce,
    });
    expect(tokensB.claims()).toMatchObject({ sub: userB.id, email: userB.email });
    const userinfo = await client.fetchUserInfo(config, tokensB.access_token, userB.id);
    expect(userinfo.email).toBe(userB.email);

    // B's tokens hang off B's grants only. (Ending A's provider session ended A's grant too;
    // had it been reused, it would carry B's tokens and scopes.)
    const tokenGrants = await t.services.db
      .selectFrom('oidc_payloads')
      .select(['grant_id', 'account_id'])
      .where('tenant_code', '=', 'grand-hotel')
      .where('model', '=', 'AccessToken')
      .where('account_id', '=', userB.id)
      .execute();
    expect(tokenGrants.length).toBeGreaterThan(0);
    expect(tokenGrants.filter((row) => row.grant_id === grantA!.id)).toEqual([]);
    for (const row of await grantRows(userA.id)) expect(row).toEqual(grantA);
  });
});
