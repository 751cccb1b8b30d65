import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../platform/db/database.ts';
import { adminCall, operatorToken } from '../../surfaces/admin/admin.test-support.ts';
import { call, engines, sessionCookieOf } from '../../test/helper.ts';
import { type Cluster, instancesFor } from '../../test/instances.ts';
import { hashPassword } from '../accounts/password.service.ts';

/**
 * Issue 16, item 6: a tenant deleted while instances serve it. Requests of every kind on that
 * tenant race the delete on two instances (one on SQLite): each gets the tenant's 404 (or
 * what it would get anyway: a refused code, a redirect), never a 5xx, and once the delete and
 * the race have settled no row naming the tenant is left in any table that names tenants,
 * found from the schema itself so a table added later is covered too.
 */
const code = 'doomed';
const password = 'Doomed-pass-1';
const redirectUri = 'https://app.example.com/callback';
const pmsSecret = 'doomed-pms-secret-0123456789abcdef';

const layouts = engines.map((engine): [Engine, string] => [
  engine,
  engine === 'postgres' ? 'two instances' : 'one instance',
]);

describe.each(layouts)('deleting a tenant on %s (%s) while requests race it', (engine) => {
  let cluster: Cluster;
  let owner: string;
  /** The tenant's host as browsers reach it (the instances' public port). */
  let host: string;

  beforeAll(async () => {
    cluster = await instancesFor(engine, {
      env: { LOGIN_IP_LIMIT_PER_MINUTE: '100000', LOGIN_IP_LIMIT_PER_HOUR: '100000' },
    });
    owner = await operatorToken(cluster.t, 'race-owner', 'owner');
    host = `${code}.localhost:${cluster.t.config.port}`;
  });
  afterAll(() => cluster.close());

  const appOf = (i: number) => cluster.instances[i % cluster.instances.length]!.app;

  /** The tenant, two apps, and accounts with passwords. */
  async function createDoomed(): Promise<string[]> {
    const { t } = cluster;
    const theme = (await adminCall(t.app, 'GET', '/tenants/grand-hotel', { token: owner })).json().theme;
    const created = await adminCall(t.app, 'POST', '/tenants', {
      token: owner,
      body: {
        code,
        aliasCode: null,
        loginDomain: `${code}.localhost`,
        aliasDomains: [],
        defaultRedirectUri: 'https://app.example.com/',
        loginClientId: `${code}-app`,
        theme,
        settings: {},
        clients: [
          { clientId: `${code}-app`, redirectUris: [redirectUri] },
          { clientId: `${code}-pms`, redirectUris: [redirectUri], authMethod: 'client_secret_basic' },
        ],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const emails = Array.from({ length: 4 }, (_, i) => `guest${i}@doomed.test`);
    const hash = await hashPassword(password);
    for (const email of emails) {
      const invited = await adminCall(t.app, 'POST', `/tenants/${code}/users`, {
        token: owner,
        body: { email, type: 'staff' },
      });
      expect(invited.statusCode, invited.body).toBe(201);
      await t.services.db
        .updateTable('users')
        .set({ status: 'active', password_hash: hash, password_changed_at: Date.now() })
        .where('id', '=', invited.json().user.id)
        .execute();
    }
    for (const { services } of cluster.instances) await services.tenants.refresh();
    return emails;
  }

  /** Rows naming the tenant, in every table with a tenant column but the audit log (kept). */
  async function rowsLeft(): Promise<Record<string, number>> {
    const { db } = cluster.t.services;
    const left: Record<string, number> = {};
    for (const table of await db.introspection.getTables()) {
      if (table.name === 'audit_log') continue;
      const column = table.columns.find(
        (each) => each.name === 'tenant_code' || (table.name === 'tenants' && each.name === 'code'),
      );
      if (!column) continue;
      const rows = await db
        .selectFrom(table.name as 'tenants')
        .selectAll()
        .where(column.name as 'code', '=', code)
        .execute();
      if (rows.length > 0) left[table.name] = rows.length;
    }
    return left;
  }

  const authorizeQuery = (state: string) =>
    new URLSearchParams({
      client_id: `${code}-app`,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'openid email',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      state,
    }).toString();

  it('answers no 5xx to logins, OIDC, /api and admin calls racing the delete, and leaves no row', async () => {
    const emails = await createDoomed();
    // Every instance serves the tenant: its host resolved, its provider built, sessions open.
    const cookies: string[] = [];
    const loginCodes: string[] = [];
    for (let i = 0; i < 4; i++) {
      const app = appOf(i);
      expect((await call(app, 'GET', `/oidc/auth?${authorizeQuery(`warm-${i}`)}`, { host })).statusCode).toBe(
        303,
      );
      const login = await call(app, 'POST', '/api/login', {
        host,
        body: { email: emails[i], password, state: 'state-0123456789abcdef' },
      });
      expect(login.statusCode, login.body).toBe(200);
      const authenticated = await call(app, 'POST', '/api/authenticate', {
        host,
        body: { code: login.json().code, tenantCode: code },
      });
      cookies.push(sessionCookieOf(authenticated)!);
      const again = await call(app, 'POST', '/api/login', {
        host,
        body: { email: emails[i], password, state: 'state-0123456789abcdef' },
      });
      loginCodes.push(again.json().code);
    }
    expect(Object.keys(await rowsLeft()).length).toBeGreaterThan(3);

    const pms = `Basic ${Buffer.from(`${code}-pms:${pmsSecret}`).toString('base64')}`;
    const kinds: Array<(i: number) => Promise<LightMyRequestResponse>> = [
      (i) =>
        call(appOf(i), 'POST', '/api/login', {
          host,
          body: { email: emails[i % emails.length], password, state: 'state-0123456789abcdef' },
        }),
      (i) =>
        call(appOf(i), 'POST', '/api/authenticate', {
          host,
          body: { code: loginCodes[i % loginCodes.length], tenantCode: code },
        }),
      (i) => call(appOf(i), 'GET', '/api/session', { host, cookie: cookies[i % cookies.length] }),
      (i) => call(appOf(i), 'POST', '/api/logout', { host, cookie: cookies[i % cookies.length], body: {} }),
      (i) =>
        call(appOf(i), 'POST', `/api/user/${encodeURIComponent(emails[i % emails.length]!)}/reset-password`, {
          host,
          body: {},
        }),
      (i) => call(appOf(i), 'GET', `/oidc/auth?${authorizeQuery(`race-${i}`)}`, { host, origin: null }),
      (i) =>
        call(appOf(i), 'POST', '/oidc/token', {
          host,
          origin: null,
          headers: { authorization: pms, 'content-type': 'application/x-www-form-urlencoded' },
          body: `grant_type=authorization_code&code=junk-${i}&redirect_uri=${encodeURIComponent(redirectUri)}`,
        }),
      (i) => adminCall(appOf(i), 'GET', `/tenants/${code}`, { token: owner }),
      (i) =>
        adminCall(appOf(i), 'POST', `/tenants/${code}/users`, {
          token: owner,
          body: { email: `late${i}@doomed.test`, type: 'staff' },
        }),
    ];

    const answers: string[] = [];
    const run = async (i: number) => {
      const kind = i % kinds.length;
      const response = await kinds[kind]!(i);
      answers.push(`${response.statusCode} kind ${kind}: ${response.body.slice(0, 160)}`);
    };
    // 90 requests on both instances: a third before the delete is sent, the rest with and after it.
    const racing: Promise<void>[] = [];
    for (let i = 0; i < 30; i++) racing.push(run(i));
    const deletion = adminCall(appOf(1), 'DELETE', `/tenants/${code}`, {
      token: owner,
      body: { confirm: code },
    });
    for (let i = 30; i < 90; i++) racing.push(run(i));
    const removed = await deletion;
    await Promise.all(racing);
    expect(removed.statusCode, removed.body).toBe(200);

    // And after the delete, on instances that may not have noticed it yet.
    await Promise.all(Array.from({ length: 18 }, (_, i) => run(90 + i)));
    expect(answers.filter((answer) => /^5/.test(answer))).toEqual([]);
    expect(answers).toHaveLength(108);

    // A 404 is the tenant's: an unknown host on its domains, admin.tenant_not_found in the admin API.
    for (const answer of answers.filter((each) => each.startsWith('404'))) {
      expect(answer).toMatch(/"code":"(tenant\.unknown_domain|admin\.tenant_not_found)"/);
    }

    // Settled: every instance has dropped the tenant (its poll runs every second); every kind
    // of request gets the tenant's 404 on each, and nothing naming the tenant is left.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await rowsLeft()).toEqual({});
    for (let i = 0; i < kinds.length * cluster.instances.length; i++) {
      const response = await kinds[i % kinds.length]!(i);
      expect(response.statusCode, `kind ${i % kinds.length}: ${response.body}`).toBe(404);
    }
    expect(await rowsLeft()).toEqual({});
  });
});
