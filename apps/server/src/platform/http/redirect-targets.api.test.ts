import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  adminClientSecretResponse,
  adminTenantSchema,
  apiErrorSchema,
  authorizeResponse,
  errorCodes,
  redirectTargetProblem,
} from '@keycard/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeUser, runCliOn } from '../../features/accounts/test-support.ts';
import { assertProductionRedirects, resolveRedirect } from '../../features/tenants/redirects.ts';
import type { TenantContext } from '../../features/tenants/tenant.types.ts';
import { adminCall, operatorToken, testTheme } from '../../surfaces/admin/admin.test-support.ts';
import { runCli } from '../../surfaces/cli/cli.ts';
import { buildTestApp, call, demo, engines, signIn, type TestApp } from '../../test/helper.ts';
import { AppError } from '../shared/errors.ts';

// Issue 16, item 7: targets the portal would navigate to, or a browser would run, are refused.
// The `scheme://host` forms passed the rule before (an absolute URI with an authority).
const refused: [string, string][] = [
  ['javascript:', 'javascript://app.example.com/%0Aalert(document.cookie)'],
  ['javascript: without slashes', 'javascript:alert(document.cookie)'],
  ['javascript: in capitals', 'JavaScript:alert(1)//https://app.example.com/'],
  ['javascript: behind a tab', 'java\tscript:alert(1)'],
  ['javascript: behind a space', ' javascript:alert(1)'],
  ['data:', 'data://text/html,<script>alert(1)</script>'],
  ['vbscript:', 'vbscript://app.example.com/%0Amsgbox(1)'],
  ['file:', 'file://fileserver/etc/passwd'],
  ['blob:', 'blob:https://app.example.com/0b6e2b1c-4a1f-4c5e-9a55-0d6d8c0c6f00'],
  ['about:', 'about://blank'],
  ['ftp:', 'ftp://app.example.com/callback'],
  ['a scheme without a dot', 'myapp://callback'],
  ['http on a public host', 'http://app.example.com/callback'],
  ['a fragment', 'https://app.example.com/callback#token'],
  ['a user name', 'https://grand-hotel.localhost@evil.example/callback'],
  ['a relative path', '/callback'],
];
const allowed = [
  'https://app.example.com/callback',
  'http://localhost:8080/callback',
  'http://grand-hotel.localhost:3000/home',
  'http://127.0.0.1:9000/callback',
  'http://[::1]:9000/callback',
  'com.example.app:/callback',
];

describe('the redirect target rule', () => {
  it.each(refused)('refuses %s', (_name, uri) => {
    expect(redirectTargetProblem(uri, { production: false })).toBeDefined();
  });
  it.each(allowed)('allows %s', (uri) => {
    expect(redirectTargetProblem(uri, { production: false })).toBeUndefined();
  });
  it('keeps http on localhost names out of production, and loopback addresses in', () => {
    expect(redirectTargetProblem('http://localhost:8080/cb', { production: true })).toBeDefined();
    expect(redirectTargetProblem('http://app.localhost/cb', { production: true })).toBeDefined();
    expect(redirectTargetProblem('http://127.0.0.1:8080/cb', { production: true })).toBeUndefined();
    expect(redirectTargetProblem('https://app.example.com/cb', { production: true })).toBeUndefined();
  });
  it('resolveRedirect never hands out a registered target that breaks the rule', () => {
    const evil = 'javascript://app.example.com/%0Aalert(1)';
    const tenant = {
      allowedRedirects: new Set([evil, 'https://app.example.com/cb']),
    } as unknown as TenantContext;
    const own = 'http://grand-hotel.localhost:3000';
    expect(resolveRedirect(tenant, own, evil)).toBeNull();
    expect(resolveRedirect(tenant, own, 'https://app.example.com/cb')).toBe('https://app.example.com/cb');
    expect(resolveRedirect(tenant, own, `${own}/account`)).toBe(`${own}/account`);
  });
  it('the admin API adds the production rule to a new client, naming the field', () => {
    const client = {
      redirectUris: ['https://app.example.com/cb', 'http://localhost:8080/cb'],
      postLogoutRedirectUris: [],
    };
    expect(() => assertProductionRedirects({ env: 'development' }, client)).not.toThrow();
    try {
      assertProductionRedirects({ env: 'production' }, client);
      expect.unreachable('http://localhost is refused in production');
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe(errorCodes.validationFailed);
      expect(Object.keys((error as AppError).fields ?? {})).toEqual(['redirectUris.1']);
    }
  });
});

const theme = testTheme('Redirect test');

const pkce = { code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' };

describe.each(engines)('redirect targets on %s', (engine) => {
  let t: TestApp;
  let owner: string;
  let dir: string;
  let counter = 0;
  const next = () => `rt-${++counter}-${Math.random().toString(36).slice(2, 6)}`;

  beforeAll(async () => {
    t = await buildTestApp(engine);
    owner = await operatorToken(t, 'redirect-owner', 'owner');
    dir = mkdtempSync(path.join(tmpdir(), 'keycard-redirects-'));
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const newTenant = (code: string, overrides: Record<string, unknown> = {}) => ({
    code,
    aliasCode: null,
    loginDomain: `${code}.localhost`,
    aliasDomains: [],
    defaultRedirectUri: 'https://app.example.com/',
    loginClientId: `${code}-app`,
    theme,
    clients: [{ clientId: `${code}-app`, redirectUris: ['https://app.example.com/callback'] }],
    ...overrides,
  });

  /** A 400 naming `field`, in the contract's error shape. */
  const expectRefused = (response: { statusCode: number; json(): unknown }, field: string) => {
    expect(response.statusCode).toBe(400);
    const body = apiErrorSchema.parse(response.json());
    expect(body.code).toBe(errorCodes.validationFailed);
    expect(Object.keys(body.fields ?? {})).toContain(field);
  };

  it.each(refused)('the admin API refuses %s as a client redirect URI', async (_name, uri) => {
    const response = await adminCall(t.app, 'POST', '/tenants/grand-hotel/clients', {
      token: owner,
      body: { clientId: next(), redirectUris: ['https://app.example.com/ok', uri] },
    });
    expectRefused(response, 'redirectUris.1');
  });

  it.each(refused)('the admin API refuses %s as a post-logout URI', async (_name, uri) => {
    const response = await adminCall(t.app, 'POST', '/tenants/grand-hotel/clients', {
      token: owner,
      body: { clientId: next(), redirectUris: ['https://app.example.com/ok'], postLogoutRedirectUris: [uri] },
    });
    expectRefused(response, 'postLogoutRedirectUris.0');
  });

  it.each(refused)("the admin API refuses %s as a tenant's default redirect", async (_name, uri) => {
    const created = await adminCall(t.app, 'POST', '/tenants', {
      token: owner,
      body: newTenant(next(), { defaultRedirectUri: uri }),
    });
    expectRefused(created, 'defaultRedirectUri');
    const patched = await adminCall(t.app, 'PATCH', '/tenants/grand-hotel', {
      token: owner,
      body: { defaultRedirectUri: uri },
    });
    expectRefused(patched, 'defaultRedirectUri');
    expect((await t.services.tenants.byCode('grand-hotel'))?.defaultRedirectUri).not.toBe(uri);
  });

  it.each(refused)('keycard apply refuses %s in a client and as the default redirect', async (_name, uri) => {
    const write = (tenant: object) => {
      const file = path.join(dir, `${next()}.json`);
      writeFileSync(file, JSON.stringify({ tenants: [tenant] }));
      return file;
    };
    const code = next();
    const asClient = write({
      ...newTenant(code),
      clients: [{ clientId: `${code}-app`, redirectUris: [uri], authMethod: 'none' }],
    });
    const client = await runCliOn(t, 'apply', '-f', asClient);
    expect(client.code).toBe(1);
    expect(client.err).toContain(`${asClient}: tenants[0].clients[0].redirectUris[0]: `);
    const asDefault = write({ ...newTenant(code, { defaultRedirectUri: uri }), clients: [] });
    const tenant = await runCliOn(t, 'apply', '-f', asDefault);
    expect(tenant.code).toBe(1);
    expect(tenant.err).toContain(`${asDefault}: tenants[0].defaultRedirectUri: `);
    const stored = await t.services.db
      .selectFrom('tenants')
      .select('code')
      .where('code', '=', code)
      .executeTakeFirst();
    expect(stored).toBeUndefined();
  });

  it('keycard apply in production refuses http on localhost names and keeps loopback addresses', async () => {
    const code = next();
    const file = path.join(dir, `${code}.json`);
    const tenant = newTenant(code, {
      defaultRedirectUri: 'http://127.0.0.1:3001/',
      clients: [
        { clientId: `${code}-app`, redirectUris: ['http://app.localhost:3001/cb'], authMethod: 'none' },
      ],
    });
    writeFileSync(file, JSON.stringify({ tenants: [tenant] }));
    const err: string[] = [];
    const apply = (env: 'production' | 'test') =>
      runCli(['apply', '-f', file], {
        out: () => {},
        err: (line) => err.push(line),
        database: t.services.database,
        config: { ...t.config, env },
        now: () => t.clock.now(),
      });
    expect(await apply('production')).toBe(1);
    expect(err.join('\n')).toContain(
      `${file}: tenants[0].clients[0].redirectUris[0]: http only on 127.0.0.1`,
    );
    expect(err.join('\n')).not.toContain('defaultRedirectUri');
    expect(await apply('test')).toBe(0);
  });

  it('refuses a native client whose http redirect is not on a loopback host the provider knows', async () => {
    const response = await adminCall(t.app, 'POST', '/tenants/grand-hotel/clients', {
      token: owner,
      body: {
        clientId: next(),
        redirectUris: ['com.example.app:/callback', 'http://app.localhost/callback'],
        authMethod: 'none',
      },
    });
    expectRefused(response, 'redirectUris');
  });

  it('keeps legitimate targets: https, http on localhost, and an app scheme the provider accepts', async () => {
    const web = next();
    const created = await adminCall(t.app, 'POST', '/tenants/grand-hotel/clients', {
      token: owner,
      body: {
        clientId: web,
        redirectUris: ['https://app.example.com/callback', 'http://localhost:8080/callback'],
        postLogoutRedirectUris: ['http://grand-hotel.localhost:3000/bye'],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    adminClientSecretResponse.parse(created.json());
    const native = next();
    const app = await adminCall(t.app, 'POST', '/tenants/grand-hotel/clients', {
      token: owner,
      body: {
        clientId: native,
        redirectUris: ['com.example.app:/callback', 'http://127.0.0.1:9000/callback'],
        authMethod: 'none',
      },
    });
    expect(app.statusCode, app.body).toBe(201);
    const patched = await adminCall(t.app, 'PATCH', '/tenants/grand-hotel', {
      token: owner,
      body: { defaultRedirectUri: 'http://localhost:3001/' },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(adminTenantSchema.parse(patched.json()).defaultRedirectUri).toBe('http://localhost:3001/');

    // The provider takes the app scheme (as a native client) and the web URIs alike.
    for (const [clientId, redirectUri] of [
      [native, 'com.example.app:/callback'],
      [web, 'http://localhost:8080/callback'],
    ] as const) {
      const query = new URLSearchParams({
        client_id: clientId,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: 'openid',
        state: 'state-0123456789',
        ...pkce,
      });
      const auth = await call(t.app, 'GET', `/oidc/auth?${query}`, { origin: null });
      expect(auth.statusCode, `${clientId}: ${auth.body.slice(0, 300)}`).toBe(303);
      expect(auth.headers.location).not.toContain('error=');
    }
  });

  it('reads a javascript: target stored before the rule as none: the portal is not handed it, nor sent there', async () => {
    const code = next();
    const created = await adminCall(t.app, 'POST', '/tenants', { token: owner, body: newTenant(code) });
    expect(created.statusCode, created.body).toBe(201);
    const evil = 'javascript://app.example.com/%0Aalert(document.cookie)';
    // Written as an older version could have: straight into the database.
    await t.services.db
      .updateTable('tenants')
      .set({ default_redirect_uri: evil, version: sql<number>`version + 1` })
      .where('code', '=', code)
      .execute();
    const row = await t.services.db
      .selectFrom('oidc_clients')
      .select('metadata')
      .where('tenant_code', '=', code)
      .where('client_id', '=', `${code}-app`)
      .executeTakeFirstOrThrow();
    const metadata = JSON.parse(row.metadata) as Record<string, unknown>;
    await t.services.db
      .updateTable('oidc_clients')
      .set({
        metadata: JSON.stringify({
          ...metadata,
          redirect_uris: ['https://app.example.com/callback', evil, 'data:text/html,<script>1</script>'],
          post_logout_redirect_uris: [evil],
        }),
      })
      .where('tenant_code', '=', code)
      .where('client_id', '=', `${code}-app`)
      .execute();
    await t.services.tenants.refresh();

    const tenant = (await t.services.tenants.byCode(code))!;
    expect(tenant.defaultRedirectUri).toBe('');
    expect([...tenant.allowedRedirects]).toEqual(['https://app.example.com/callback']);

    // What the server hands the portal: no target in the identity, a refusal for it, and the
    // tenant's own signed-in page where the default would have been used.
    await activeUser(t, `someone@${code}.test`, demo.password, { tenantCode: code });
    const host = `${code}.localhost:3000`;
    const { cookie, identity } = await signIn(t.app, { host, email: `someone@${code}.test`, code });
    expect(identity.defaultRedirectUri).toBe('');
    const refused = await call(t.app, 'POST', '/api/authorize', {
      host,
      cookie,
      body: { redirectUri: evil },
    });
    expect(refused.statusCode).toBe(400);
    expect(apiErrorSchema.parse(refused.json()).code).toBe(errorCodes.redirectNotAllowed);
    const landing = await call(t.app, 'POST', '/api/authorize', { host, cookie, body: {} });
    expect(landing.statusCode, landing.body).toBe(200);
    expect(authorizeResponse.parse(landing.json()).location).toBe(`http://${host}/signed-in`);
    const good = await call(t.app, 'POST', '/api/authorize', {
      host,
      cookie,
      body: { redirectUri: 'https://app.example.com/callback' },
    });
    expect(good.statusCode, good.body).toBe(200);
    expect(authorizeResponse.parse(good.json()).location).toMatch(/^https:\/\/app\.example\.com\/callback/);
    const logout = await call(t.app, 'POST', '/api/logout', { host, cookie, body: { redirectUri: evil } });
    expect(logout.json().location).toMatch(/^\/login\?/);

    // The provider does not accept it either: an error page, never a redirect to it.
    const query = new URLSearchParams({
      client_id: `${code}-app`,
      redirect_uri: evil,
      response_type: 'code',
      scope: 'openid',
      ...pkce,
    });
    const auth = await call(t.app, 'GET', `/oidc/auth?${query}`, { host, origin: null });
    expect(auth.statusCode).toBe(400);
    expect(String(auth.headers.location ?? '')).not.toContain('javascript');
  });
});
