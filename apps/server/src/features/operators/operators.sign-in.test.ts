import {
  adminErrors,
  adminMeResponse,
  adminPermissions,
  adminTenantListResponse,
  operatorTenantCode,
} from '@keycard/contract';
import { loopbackFetch } from '@keycard/demo-app/loopback-fetch';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, type TestApp } from '../../test/helper.ts';
import { Browser } from '../../test/http-client.ts';
import { listeningTestApp } from '../../test/oidc.ts';
import { passwordStep, registerTotp } from '../../test/sign-in-flow.ts';
import { runCliOn } from '../accounts/test-support.ts';
import { adminResource } from './operator-tenant.ts';

const password = 'Operator-owner-77';

/**
 * A person signs in to the operator tenant as any Keycard user does, with the MFA the tenant
 * requires, and the console's public client (code + PKCE) gets an access token for the admin
 * API. Over real HTTP, with openid-client as the console.
 */
describe.each(engines)('an operator signing in through the operator tenant on %s', (engine) => {
  let t: TestApp;
  let origin: string;
  let console_: client.Configuration;
  beforeAll(async () => {
    const listening = await listeningTestApp(engine, { env: { LOGIN_IP_LIMIT_PER_MINUTE: '1000' } });
    t = listening.t;
    origin = listening.origin('admin');
  });
  afterAll(() => t.close());

  async function consoleAuthorization(browser: Browser) {
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(console_, {
      redirect_uri: `${origin}/console/callback`,
      scope: 'openid admin',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    });
    const response = await browser.fetch(url.href);
    return { location: response.headers.get('location') ?? '', verifier, state };
  }

  async function callAdmin(token: string) {
    return loopbackFetch(`${origin}/admin/api/v1/tenants`, { headers: { authorization: `Bearer ${token}` } });
  }

  it('gets an admin API token only after the password and MFA, and uses it as the owner', async () => {
    const created = await runCliOn(t, 'operators', 'create-owner', '--email', 'owner@ops.example');
    expect(created.code).toBe(0);
    const link = new URL(created.out.trim());
    const activation = await loopbackFetch(`${origin}/api/user/activate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify({
        token: link.searchParams.get('token'),
        password,
        secretQuestion: 'first-pet-name',
        secretAnswer: 'Rex',
      }),
    });
    expect(activation.status).toBe(200);
    await t.services.tenants.refresh();
    console_ = await client.discovery(
      new URL(`${origin}/oidc`),
      'keycard-console',
      undefined,
      client.None(),
      {
        execute: [client.allowInsecureRequests],
        [client.customFetch]: loopbackFetch,
      },
    );

    const browser = new Browser();
    const identity = await passwordStep(browser, origin, operatorTenantCode, 'owner@ops.example', password);
    // The operator tenant requires MFA: the password alone is not a complete sign-in.
    expect(identity.state).toBe('MFA_REGISTRATION_REQUIRED');
    const early = await consoleAuthorization(browser);
    expect(early.location).toMatch(/^\/login\?iid=/);
    const iid = new URL(early.location, origin).searchParams.get('iid');
    const refused = await browser.fetch(`${origin}/api/authorize`, { method: 'POST', body: { iid } });
    expect(refused.status).toBe(403);

    await registerTotp(browser, origin, t.clock.now());
    const { location, verifier, state } = await consoleAuthorization(browser);
    const callback = await finishInteractions(browser, origin, location);
    expect(callback.startsWith(`${origin}/console/callback?`), callback).toBe(true);
    const tokens = await client.authorizationCodeGrant(console_, new URL(callback), {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    const answer = await callAdmin(tokens.access_token);
    expect(answer.status).toBe(200);
    const { tenants } = adminTenantListResponse.parse(await answer.json());
    expect(tenants.map((tenant) => tenant.code)).toContain(operatorTenantCode);
    // The console asks who it acts for: the person, by address, with every owner permission.
    const me = await loopbackFetch(`${origin}/admin/api/v1/me`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(me.status).toBe(200);
    const { operator, email, permissions } = adminMeResponse.parse(await me.json());
    expect(operator).toMatchObject({ kind: 'human', role: 'owner', tenants: null });
    expect(email).toBe('owner@ops.example');
    expect([...permissions].sort()).toEqual([...adminPermissions].sort());

    // Another app registered on the operator tenant (by a file, or in the past) signs the same
    // owner in without a prompt: its token must not work on the admin API (it would act as the
    // owner for whoever runs that app).
    await t.services.db
      .insertInto('oidc_clients')
      .values({
        tenant_code: operatorTenantCode,
        client_id: 'other-app',
        metadata: JSON.stringify({
          client_id: 'other-app',
          redirect_uris: ['https://other-app.example/cb'],
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: 'none',
        }),
        created_at: Date.now(),
      })
      .execute();
    t.services.tenants.invalidate(operatorTenantCode);
    const otherApp = await client.discovery(
      new URL(`${origin}/oidc`),
      'other-app',
      undefined,
      client.None(),
      {
        execute: [client.allowInsecureRequests],
        [client.customFetch]: loopbackFetch,
      },
    );
    const otherVerifier = client.randomPKCECodeVerifier();
    const otherUrl = client.buildAuthorizationUrl(otherApp, {
      redirect_uri: 'https://other-app.example/cb',
      scope: 'openid admin',
      resource: adminResource(t.config),
      code_challenge: await client.calculatePKCECodeChallenge(otherVerifier),
      code_challenge_method: 'S256',
      state: 'other-state',
    });
    const otherFirst = (await browser.fetch(otherUrl.href)).headers.get('location') ?? '';
    const otherCallback = await finishInteractions(browser, origin, otherFirst);
    // The provider does not issue the admin API as a resource to it: the app gets an error
    // back, not a code; and a token it had would not be taken (authenticateCaller checks the
    // client), as a plain sign-in without the resource shows.
    expect(otherCallback.startsWith('https://other-app.example/cb?'), otherCallback).toBe(true);
    expect(new URL(otherCallback).searchParams.get('error')).toBe('invalid_target');
    const plainVerifier = client.randomPKCECodeVerifier();
    const plainUrl = client.buildAuthorizationUrl(otherApp, {
      redirect_uri: 'https://other-app.example/cb',
      scope: 'openid',
      code_challenge: await client.calculatePKCECodeChallenge(plainVerifier),
      code_challenge_method: 'S256',
      state: 'plain-state',
    });
    const plainFirst = (await browser.fetch(plainUrl.href)).headers.get('location') ?? '';
    const plainTokens = await client.authorizationCodeGrant(
      otherApp,
      new URL(await finishInteractions(browser, origin, plainFirst)),
      { pkceCodeVerifier: plainVerifier, expectedState: 'plain-state' },
    );
    expect((await callAdmin(plainTokens.access_token)).status).toBe(401);

    // The audit log names the person by operator id.
    const owner = await t.services.db
      .selectFrom('operators')
      .selectAll()
      .where('kind', '=', 'human')
      .executeTakeFirst();
    const patched = await loopbackFetch(`${origin}/admin/api/v1/tenants/grand-hotel/settings`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ analyticsId: 'ops-analytics' }),
    });
    expect(patched.status).toBe(200);
    const entry = await t.services.db
      .selectFrom('audit_log')
      .selectAll()
      .where('tenant_code', '=', 'grand-hotel')
      .orderBy('at', 'desc')
      .executeTakeFirst();
    expect(entry).toMatchObject({ actor_kind: 'operator', actor_id: owner!.id, action: 'tenant.update' });

    // A disabled operator account gets nothing more, with the token it holds.
    await t.services.db
      .updateTable('users')
      .set({ status: 'disabled' })
      .where('tenant_code', '=', operatorTenantCode)
      .execute();
    const disabled = await callAdmin(tokens.access_token);
    expect(disabled.status).toBe(401);
    expect(((await disabled.json()) as { code: string }).code).toBe(adminErrors.unauthenticated);
  });

  it("does not take an access token for a customer tenant's app as an admin token", async () => {
    const grand = listeningOrigin(origin, 'grand-hotel');
    const demoApp = await client.discovery(
      new URL(`${grand}/oidc`),
      'demo-app',
      'demo-app-secret',
      undefined,
      {
        execute: [client.allowInsecureRequests],
        [client.customFetch]: loopbackFetch,
      },
    );
    const browser = new Browser();
    await passwordStep(browser, grand, 'grand-hotel', 'demo@grand-hotel.test');
    const verifier = client.randomPKCECodeVerifier();
    const url = client.buildAuthorizationUrl(demoApp, {
      redirect_uri: 'http://localhost:3001/callback',
      scope: 'openid',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state: 'state-for-the-demo-app',
    });
    const location = await finishInteractions(
      browser,
      grand,
      (await browser.fetch(url.href)).headers.get('location') ?? '',
    );
    const tokens = await client.authorizationCodeGrant(demoApp, new URL(location), {
      pkceCodeVerifier: verifier,
      expectedState: 'state-for-the-demo-app',
    });
    expect((await callAdmin(tokens.access_token)).status).toBe(401);
  });
});

/**
 * What the portal does for a complete session: finish each interaction the provider opens
 * (the login, then the consent to the requested scopes and resource) until it redirects to
 * the app.
 */
async function finishInteractions(browser: Browser, origin: string, first: string): Promise<string> {
  let location = first;
  for (let round = 0; round < 3 && location.startsWith('/login?iid='); round++) {
    const iid = new URL(location, origin).searchParams.get('iid');
    const authorize = await browser.fetch(`${origin}/api/authorize`, { method: 'POST', body: { iid } });
    expect(authorize.status).toBe(200);
    const resumed = await browser.fetch(((await authorize.json()) as { location: string }).location);
    location = resumed.headers.get('location') ?? '';
  }
  return location;
}

function listeningOrigin(adminOrigin: string, tenant: string): string {
  return adminOrigin.replace('//admin.', `//${tenant}.`);
}
