import { createHash } from 'node:crypto';
import type * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, demo, engines, signIn, type TestApp } from '../../test/helper.ts';
import { Browser } from '../../test/http-client.ts';
import { type Cluster, instancesFor } from '../../test/instances.ts';
import { discoverIssuer } from '../../test/oidc.ts';
import { appSignIn, passwordStep, refresh, userinfoStatus } from '../../test/sign-in-flow.ts';
import { activeUser, uniqueEmail } from '../accounts/test-support.ts';

/**
 * Where the account is signed in (docs/account.md): its sessions by an opaque id with browser,
 * address and last use, the apps holding its tokens, signing one or all of them out; another
 * account's or tenant's ids are never found.
 */
const safari =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

describe.each(engines)('account sessions and apps on %s', (engine) => {
  let cluster: Cluster;
  let t: TestApp;
  let origin: string;
  let oidc: client.Configuration;
  beforeAll(async () => {
    cluster = await instancesFor(engine, { env: { LOGIN_IP_LIMIT_PER_MINUTE: '1000' } });
    t = cluster.t;
    origin = cluster.origin('grand-hotel');
    oidc = await discoverIssuer(origin);
  });
  afterAll(() => cluster.close());

  // The instances listen on a port of their own: requests name it in Host and Origin.
  let grand = demo.grandHotel;
  let seaside = demo.seaside;
  beforeAll(() => {
    grand = { ...demo.grandHotel, host: new URL(origin).host };
    seaside = { ...demo.seaside, host: new URL(cluster.origin('seaside')).host };
  });
  const req = (method: string, url: string, options: Parameters<typeof call>[3] = {}) =>
    call(t.app, method, url, { host: grand.host, ...options });

  async function account() {
    const email = uniqueEmail('sessions');
    await activeUser(t, email, demo.password);
    return email;
  }

  it('lists this browser first and the others, by an id that is not the token or its hash', async () => {
    const email = await account();
    const phone = await signIn(t.app, { ...grand, email });
    await req('GET', '/api/account', { cookie: phone.cookie, headers: { 'user-agent': safari } });
    t.clock.advance(60_000);
    const { cookie } = await signIn(t.app, { ...grand, email });
    // The use is noted after the answer (it does not hold the request up).
    const list = () => req('GET', '/api/account/sessions', { cookie });
    await expect.poll(async () => (await list()).json().sessions[1]?.browser).not.toBeNull();
    const response = await list();
    expect(response.statusCode).toBe(200);
    const { sessions, apps } = response.json();
    expect(apps).toEqual([]);
    expect(sessions).toHaveLength(2);
    expect(sessions[0]).toMatchObject({ current: true, method: 'password' });
    expect(sessions[1]).toMatchObject({
      current: false,
      method: 'password',
      browser: { name: 'Safari', os: 'iOS', mobile: true },
    });
    for (const token of [cookie, phone.cookie].map((c) => c.split('=')[1]!)) {
      const hash = createHash('sha256').update(token).digest('hex');
      expect(response.body).not.toContain(token);
      expect(response.body).not.toContain(hash);
      expect(response.body).not.toContain(createHash('sha256').update(token).digest('base64url'));
    }
  });

  it("ends one other session, and never another account's or tenant's", async () => {
    const email = await account();
    const other = await signIn(t.app, { ...grand, email });
    const { cookie } = await signIn(t.app, { ...grand, email });
    const [, second] = (await req('GET', '/api/account/sessions', { cookie })).json().sessions;

    const stranger = await signIn(t.app, { ...grand, email: await account() });
    const foreign = await signIn(t.app, seaside);
    for (const [who, host] of [
      [stranger.cookie, grand.host],
      [foreign.cookie, seaside.host],
    ] as const) {
      const response = await req('DELETE', `/api/account/sessions/${second.id}`, { cookie: who, host });
      expect(response.statusCode).toBe(404);
      expect(response.json().code).toBe('account.not_found');
    }
    expect((await req('GET', '/api/session', { cookie: other.cookie })).json().exists).toBe(true);

    const ended = await req('DELETE', `/api/account/sessions/${second.id}`, { cookie });
    expect(ended.statusCode).toBe(204);
    expect((await req('GET', '/api/session', { cookie: other.cookie })).json().exists).toBe(false);
    const again = await req('DELETE', `/api/account/sessions/${second.id}`, { cookie });
    expect(again.json().code).toBe('account.not_found');
  });

  it('signs this browser out without a recent sign-in, another only with one', async () => {
    const email = await account();
    await signIn(t.app, { ...grand, email });
    const { cookie } = await signIn(t.app, { ...grand, email });
    t.clock.advance(6 * 60_000);
    const [current, other] = (await req('GET', '/api/account/sessions', { cookie })).json().sessions;
    const refused = await req('DELETE', `/api/account/sessions/${other.id}`, { cookie });
    expect(refused.json().code).toBe('account.recent_sign_in_required');
    const out = await req('DELETE', `/api/account/sessions/${current.id}`, { cookie });
    expect(out.statusCode).toBe(204);
    expect(out.cookies.find((c) => c.name === 'AUTH_X_TOKEN')?.value).toBe('');
    expect((await req('GET', '/api/session', { cookie })).json().exists).toBe(false);
  });

  it('lists the apps with their last use and signs out of one: its tokens stop working', async () => {
    const email = await account();
    const browser = new Browser(cluster.instances[0]!.fetch);
    expect((await passwordStep(browser, origin, 'grand-hotel', email)).state).toBe('AUTHENTICATED');
    const tokens = await appSignIn(oidc, browser, origin);
    const listed = await browser.fetch(`${origin}/api/account/sessions`);
    const { apps } = (await listed.json()) as {
      apps: Array<{ clientId: string; name: string; lastUsedAt: number }>;
    };
    expect(apps).toEqual([
      { clientId: 'demo-app', name: expect.any(String), lastUsedAt: expect.any(Number) },
    ]);
    expect(apps[0]?.lastUsedAt).toBeGreaterThan(Date.now() - 60_000);

    const stranger = new Browser(cluster.instances[0]!.fetch);
    await passwordStep(stranger, origin, 'grand-hotel', await account());
    const notTheirs = await stranger.fetch(`${origin}/api/account/apps/demo-app`, {
      method: 'DELETE',
      headers: { origin },
    });
    expect(notTheirs.status).toBe(404);
    expect(await userinfoStatus(cluster.instances[0]!.fetch, origin, tokens.access_token)).toBe(200);

    const last = cluster.instances.at(-1)!;
    const out = await browser.through(last.fetch).fetch(`${origin}/api/account/apps/demo-app`, {
      method: 'DELETE',
      headers: { origin },
    });
    expect(out.status).toBe(204);
    expect(await userinfoStatus(cluster.instances[0]!.fetch, origin, tokens.access_token)).toBe(401);
    expect((await refresh(cluster.instances[0]!.fetch, origin, tokens.refresh_token!)).status).toBe(400);
    const after = await browser.fetch(`${origin}/api/account/sessions`);
    expect(((await after.json()) as { apps: unknown[] }).apps).toEqual([]);
    const unknown = await browser.fetch(`${origin}/api/account/apps/demo-app`, {
      method: 'DELETE',
      headers: { origin },
    });
    expect(unknown.status).toBe(404);
  });

  it('signs out everywhere else: other sessions, every app and codes not yet redeemed', async () => {
    const email = await account();
    const elsewhere = new Browser(cluster.instances[0]!.fetch);
    await passwordStep(elsewhere, origin, 'grand-hotel', email);
    const tokens = await appSignIn(oidc, elsewhere, origin);
    // A password typed in yet another browser, its code not exchanged yet.
    const pending = await req('POST', '/api/login', {
      body: { email, password: demo.password, state: 'state-0123456789abcdef' },
    });
    const { cookie } = await signIn(t.app, { ...grand, email });

    const ended = await req('DELETE', '/api/account/sessions', { cookie });
    expect(ended.statusCode).toBe(200);
    expect(ended.json()).toEqual({ ended: 1 });
    const gone = (await (await elsewhere.fetch(`${origin}/api/session`)).json()) as { exists: boolean };
    expect(gone.exists).toBe(false);
    expect(await userinfoStatus(cluster.instances[0]!.fetch, origin, tokens.access_token)).toBe(401);
    const late = await req('POST', '/api/authenticate', {
      body: { code: pending.json().code, tenantCode: 'grand-hotel' },
    });
    expect(late.statusCode).toBe(400);
    const { sessions } = (await req('GET', '/api/account/sessions', { cookie })).json();
    expect(sessions).toHaveLength(1);
    expect(sessions[0].current).toBe(true);
  });
});
