import { generateKeyPairSync } from 'node:crypto';
import {
  type AdminRole,
  adminErrors,
  adminMeResponse,
  adminOperatorInviteResponse,
  adminOperatorListResponse,
  adminOperatorResponse,
  adminRoles,
  apiErrorSchema,
  auditSearchResponse,
  operatorTenantCode,
  rolePermissions,
} from '@keycard/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../features/accounts/password.service.ts';
import { runCliOn } from '../../features/accounts/test-support.ts';
import { findUserByEmail } from '../../features/accounts/user.repository.ts';
import { rotateSigningKey } from '../../features/admin/signing-keys.service.ts';
import { enrolTotp } from '../../features/mfa/mfa.test-support.ts';
import { consoleClientId, repairOperatorTenant } from '../../features/operators/operator-tenant.ts';
import { createMachineClient } from '../../features/operators/operators.service.ts';
import { cliActor } from '../../platform/audit/audit.service.ts';
import { publicOrigin } from '../../platform/config.ts';
import { buildTestApp, call, demo, engines, signIn, type TestApp } from '../../test/helper.ts';
import {
  type AdminRouteRow as AdminRoute,
  adminCall,
  adminHost,
  adminRouteTable as adminRoutes,
  operatorToken,
  tinyPng,
} from './admin.test-support.ts';

const grandTheme = {
  name: 'Grand Hotel Group',
  images: { favicon: '/brand/grand-hotel-favicon.svg', logo: '/brand/grand-hotel-logo.svg' },
  colours: {
    primaryBackground: '#1f3a5f',
    primaryForeground: '#ffffff',
    secondaryBackground: '#f5efe6',
    secondaryForeground: '#1a1a1a',
    tertiaryBackground: '#7a5c2e',
    tertiaryForeground: '#ffffff',
  },
  links: {
    loginHelpUrl: 'https://help.grand-hotel.example/login-help',
    contactSupportUrl: 'https://help.grand-hotel.example/support',
  },
};

function newTenant(code: string) {
  return {
    code,
    aliasCode: null,
    loginDomain: `${code}.localhost`,
    aliasDomains: [],
    defaultRedirectUri: 'https://app.example.com/',
    loginClientId: `${code}-app`,
    theme: { ...grandTheme, name: `Tenant ${code}` },
    settings: { mfa: { mode: 'recommended' } },
    clients: [{ clientId: `${code}-app`, redirectUris: ['https://app.example.com/callback'] }],
  };
}

interface Sample {
  url: string;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A request each route should accept from a role allowed to make it, on tenant `code`. */
/** A public P-256 key for partner samples. */
const samplePoint = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({
  format: 'jwk',
}) as {
  x: string;
  y: string;
};

function sampleOf(
  route: AdminRoute,
  key: string,
  code: string,
  userId: string,
  operatorId = '00000000-0000-4000-8000-000000000000',
  kid = 'no-such-key',
): Sample {
  const partnerCode = `partner-${key.replace('_', '-')}`;
  const url = route.path
    .replace(':partnerCode', partnerCode)
    .replace(':id', operatorId)
    .replace(':kid', kid)
    .replace(':code', code)
    .replace(':clientId', route.path.endsWith('/secret') ? `${code}-app` : `app-${key}`)
    .replace(':userId', userId);
  const bodies: Record<string, unknown> = {
    'POST /tenants': newTenant(`new-${key}`),
    'PATCH /tenants/:code': { aliasCode: null },
    'PUT /tenants/:code/domains': { loginDomain: `${code}.localhost`, aliasDomains: [] },
    'PUT /tenants/:code/theme': grandTheme,
    'PATCH /tenants/:code/settings': { analyticsId: null },
    'POST /tenants/:code/clients': { clientId: `app-${key}`, redirectUris: ['https://app.example.com/cb'] },
    'POST /tenants/:code/users': { email: `invitee-${key}@example.com`, type: 'staff' },
    'POST /operators/clients': { clientId: `machine-${key}`, role: 'auditor' },
    'POST /operators/people': { email: `person-${key}@example.com`, role: 'help_desk', tenants: [code] },
    'PATCH /operators/:id': { role: 'auditor' },
    'DELETE /tenants/:code': { confirm: code },
    // A key set address is an owner's to set (admin.escalation.test.ts); the keys inline are
    // every role's with tenants.write.
    'PUT /tenants/:code/partners/:partnerCode': {
      code: partnerCode,
      issuer: `https://${partnerCode}.example`,
      jwksUri: null,
      jwks: { keys: [{ kty: 'EC', crv: 'P-256', kid: 'k1', x: samplePoint.x, y: samplePoint.y }] },
    },
  };
  if (route.upload) return { url, body: tinyPng, headers: { 'content-type': 'image/png' } };
  const body = bodies[`${route.method} ${route.path}`] ?? (route.method === 'POST' ? {} : undefined);
  return { url, body };
}

describe.each(engines)('admin API on %s', (engine) => {
  let t: TestApp;
  let owner: string;
  beforeAll(async () => {
    t = await buildTestApp(engine);
    owner = await operatorToken(t, 'test-owner', 'owner');
  });
  afterAll(() => t.close());

  /** A tenant of its own for a test, created through the API. */
  async function tenantFor(code: string) {
    const created = await adminCall(t.app, 'POST', '/tenants', { token: owner, body: newTenant(code) });
    expect(created.statusCode).toBe(201);
    return created.json();
  }

  async function factorsOf(userId: string): Promise<number> {
    const rows = await t.services.db
      .selectFrom('mfa_factors')
      .select('id')
      .where('user_id', '=', userId)
      .execute();
    return rows.length;
  }

  /** Gives an account the demo password (as if it had been activated). */
  async function activeUserPassword(userId: string): Promise<void> {
    const hash = await hashPassword(demo.password);
    await t.services.db
      .updateTable('users')
      .set({ password_hash: hash, password_changed_at: Date.now() })
      .where('id', '=', userId)
      .execute();
  }

  async function invitedUser(code: string, email: string): Promise<string> {
    const invited = await adminCall(t.app, 'POST', `/tenants/${code}/users`, {
      token: owner,
      body: { email, type: 'staff' },
    });
    expect(invited.statusCode).toBe(201);
    return invited.json().user.id;
  }

  it('lets every role do exactly what its permissions say, on every route', async () => {
    // Each role works on a tenant of its own (a tenant admin and a help desk scoped to it).
    for (const role of adminRoles) {
      const code = `matrix-${role.replace('_', '-')}`;
      await tenantFor(code);
      const userId = await invitedUser(code, `user-${role}@example.com`);
      const token = await operatorToken(t, `op-${role}`, role, role === 'owner' ? null : [code]);
      const { operator } = await createMachineClient(
        { db: t.services.db, config: t.config, actor: cliActor },
        { clientId: `victim-${role}`, role: 'help_desk', tenants: null },
        Date.now(),
      );
      // A key to retire once the route table's rotation has made a newer one.
      const [older] = await rotateSigningKey(
        {
          db: t.services.db,
          encryptionKey: t.services.secrets.encryptionKey,
          actor: cliActor,
          now: Date.now(),
        },
        code,
      );
      for (const route of adminRoutes) {
        const { url, body, headers } = sampleOf(route, role, code, userId, operator.id, older!.kid);
        const answer = await adminCall(t.app, route.method, url, {
          token,
          body,
          ...(headers ? { headers } : {}),
        });
        const allowed =
          (route.permission === null || rolePermissions[role].includes(route.permission)) &&
          (!route.ownerOnly || role === 'owner');
        const label = `${role} ${route.method} ${route.path}: ${answer.statusCode} ${answer.body.slice(0, 200)}`;
        if (allowed) {
          expect(answer.statusCode, label).toBe(route.status ?? 200);
          if (route.response) route.response.parse(answer.json());
        } else {
          expect(answer.statusCode, label).toBe(403);
          expect(apiErrorSchema.parse(answer.json()).code).toBe(adminErrors.forbidden);
        }
      }
    }
  });

  it('answers GET /me for every role: the operator behind the token, no address for a machine, its permissions', async () => {
    for (const role of adminRoles) {
      const tenants = role === 'owner' ? null : ['grand-hotel'];
      const token = await operatorToken(t, `me-${role}`, role, tenants);
      const answer = await adminCall(t.app, 'GET', '/me', { token });
      expect(answer.statusCode, answer.body).toBe(200);
      const me = adminMeResponse.parse(answer.json());
      expect(me.operator).toMatchObject({ kind: 'client', subject: `me-${role}`, role, tenants });
      expect(me.email).toBeNull();
      expect([...me.permissions].sort()).toEqual([...rolePermissions[role]].sort());
    }
    const anonymous = await adminCall(t.app, 'GET', '/me');
    expect(anonymous.statusCode).toBe(401);
    expect(apiErrorSchema.parse(anonymous.json()).code).toBe(adminErrors.unauthenticated);
    const unknown = await adminCall(t.app, 'GET', '/me', { token: 'y'.repeat(43) });
    expect(unknown.statusCode).toBe(401);
  });

  it("gives an operator tenant made by an earlier version the console's addresses, once, keeping a chosen one", async () => {
    const origin = publicOrigin(t.config, t.config.adminDomain);
    const consoleMetadata = async () => {
      const row = await t.services.db
        .selectFrom('oidc_clients')
        .select('metadata')
        .where('tenant_code', '=', operatorTenantCode)
        .where('client_id', '=', consoleClientId)
        .executeTakeFirstOrThrow();
      return JSON.parse(row.metadata) as Record<string, unknown>;
    };
    const defaultRedirect = async () =>
      (
        await t.services.db
          .selectFrom('tenants')
          .select('default_redirect_uri')
          .where('code', '=', operatorTenantCode)
          .executeTakeFirstOrThrow()
      ).default_redirect_uri;
    // A new operator tenant has them from the start.
    expect((await consoleMetadata()).post_logout_redirect_uris).toEqual([`${origin}/console/`]);
    expect(await defaultRedirect()).toBe(`${origin}/console/`);

    // As an earlier version made it: both sent operators to the host's root.
    const setOld = async (logout: string[], redirect: string) => {
      await t.services.db
        .updateTable('oidc_clients')
        .set({
          metadata: JSON.stringify({ ...(await consoleMetadata()), post_logout_redirect_uris: logout }),
        })
        .where('tenant_code', '=', operatorTenantCode)
        .where('client_id', '=', consoleClientId)
        .execute();
      await t.services.db
        .updateTable('tenants')
        .set({ default_redirect_uri: redirect })
        .where('code', '=', operatorTenantCode)
        .execute();
    };
    await setOld([`${origin}/`], `${origin}/`);
    const before = await t.services.tenants.byCode(operatorTenantCode);
    const created = await runCliOn(t, 'operators', 'create-owner', '--email', 'repair-owner@ops.example');
    expect(created.code).toBe(0);
    expect((await consoleMetadata()).post_logout_redirect_uris).toEqual([`${origin}/console/`]);
    expect(await defaultRedirect()).toBe(`${origin}/console/`);
    // Every instance sees the change: the tenant's version went up.
    await t.services.tenants.refresh();
    const after = await t.services.tenants.byCode(operatorTenantCode);
    expect(after?.defaultRedirectUri).toBe(`${origin}/console/`);
    expect(after).not.toBe(before);
    const entries = await t.services.db
      .selectFrom('audit_log')
      .select(['action', 'target_id', 'actor_kind'])
      .where('tenant_code', '=', operatorTenantCode)
      .where('action', 'in', ['tenant.update', 'client.update'])
      .execute();
    expect(entries).toEqual(
      expect.arrayContaining([
        { action: 'tenant.update', target_id: operatorTenantCode, actor_kind: 'cli' },
        { action: 'client.update', target_id: consoleClientId, actor_kind: 'cli' },
      ]),
    );
    // Idempotent: a second run (another start) changes nothing and logs nothing.
    const deps = { db: t.services.db, config: t.config, actor: cliActor };
    expect(await repairOperatorTenant(deps, Date.now())).toBe(false);
    // An address an owner chose is kept.
    await setOld([`${origin}/signed-out`], `${origin}/home`);
    expect(await repairOperatorTenant(deps, Date.now())).toBe(false);
    expect((await consoleMetadata()).post_logout_redirect_uris).toEqual([`${origin}/signed-out`]);
    expect(await defaultRedirect()).toBe(`${origin}/home`);
    await setOld([`${origin}/console/`], `${origin}/console/`);
    await t.services.tenants.refresh();
  });

  it("refuses a scoped operator another tenant's objects, and lists only its own tenants", async () => {
    await tenantFor('scoped-a');
    const bUser = await findUserByEmail(t.services.db, demo.seaside.code, demo.seaside.email);
    for (const role of ['tenant_admin', 'help_desk', 'auditor'] as AdminRole[]) {
      const token = await operatorToken(t, `scoped-${role}`, role, ['scoped-a']);
      const list = await adminCall(t.app, 'GET', '/tenants', { token });
      expect(list.json().tenants.map((tenant: { code: string }) => tenant.code)).toEqual(['scoped-a']);
      for (const route of adminRoutes.filter((each) => each.path.includes(':code'))) {
        const { url, body, headers } = sampleOf(route, role, demo.seaside.code, bUser!.id);
        const answer = await adminCall(t.app, route.method, url, {
          token,
          body,
          ...(headers ? { headers } : {}),
        });
        expect(answer.statusCode, `${role} ${route.method} ${url}`).toBe(403);
      }
      // Audit entries of other tenants stay out of sight, even when asked for by name.
      if (!rolePermissions[role].includes('audit.read')) continue;
      const audit = auditSearchResponse.parse(
        (await adminCall(t.app, 'GET', '/audit?tenant=grand-hotel', { token })).json(),
      );
      expect(audit.entries).toEqual([]);
    }
  });

  it('answers 404 on any other host, for every route', async () => {
    for (const route of adminRoutes) {
      const { url, body, headers } = sampleOf(
        route,
        'host',
        'grand-hotel',
        '00000000-0000-4000-8000-000000000000',
      );
      for (const host of [demo.grandHotel.host, 'unknown.localhost:3000']) {
        const answer = await adminCall(t.app, route.method, url, {
          token: owner,
          body,
          host,
          ...(headers ? { headers } : {}),
        });
        expect(answer.statusCode, `${host} ${route.method} ${url}`).toBe(404);
        expect(apiErrorSchema.parse(answer.json()).code).toBe('common.not_found');
      }
    }
    const document = await adminCall(t.app, 'GET', '/admin/api/openapi.json', { host: demo.grandHotel.host });
    expect(document.statusCode).toBe(404);
  });

  it('refuses requests without a valid bearer token: none, malformed, unknown, expired, or a cookie', async () => {
    const cases: Record<string, Record<string, string>> = {
      none: {},
      basic: { authorization: 'Basic dGVzdDp0ZXN0' },
      malformed: { authorization: 'Bearer a b' },
      unknown: { authorization: `Bearer ${'x'.repeat(43)}` },
    };
    for (const [name, headers] of Object.entries(cases)) {
      const answer = await adminCall(t.app, 'GET', '/tenants', { headers });
      expect(answer.statusCode, name).toBe(401);
      expect(answer.headers['www-authenticate']).toContain('Bearer');
      expect(apiErrorSchema.parse(answer.json()).code).toBe(adminErrors.unauthenticated);
    }
    // Cookies are never read: a signed-in browser session (CSRF's vehicle) gets nothing.
    const { cookie } = await signIn(t.app);
    const withCookie = await adminCall(t.app, 'POST', '/tenants', {
      headers: { cookie, origin: `http://${adminHost}` },
      body: newTenant('by-cookie'),
    });
    expect(withCookie.statusCode).toBe(401);

    // Expired: the stored token's lifetime is over (as if ten minutes had passed).
    const token = await operatorToken(t, 'expiring', 'owner');
    expect((await adminCall(t.app, 'GET', '/tenants', { token })).statusCode).toBe(200);
    const past = Math.floor(Date.now() / 1000) - 60;
    const rows = await t.services.db
      .selectFrom('oidc_payloads')
      .select(['id', 'payload'])
      .where('tenant_code', '=', operatorTenantCode)
      .where('model', '=', 'ClientCredentials')
      .execute();
    for (const row of rows) {
      const payload = JSON.parse(row.payload) as { clientId?: string; exp: number };
      if (payload.clientId !== 'expiring') continue;
      await t.services.db
        .updateTable('oidc_payloads')
        .set({ payload: JSON.stringify({ ...payload, exp: past }), expires_at: past * 1000 })
        .where('id', '=', row.id)
        .execute();
    }
    const expired = await adminCall(t.app, 'GET', '/tenants', { token });
    expect(expired.statusCode).toBe(401);
  });

  it('checks the token before the body: without one, a malformed, oversized or mistyped body gets 401', async () => {
    const bodies: Array<[string, string, { body: unknown; headers?: Record<string, string> }]> = [
      ['POST', '/tenants', { body: '{not json' }],
      ['POST', '/tenants', { body: { unknownField: 1 } }],
      ['POST', '/tenants', { body: { aliasCode: 'x'.repeat(300 * 1024) } }],
      ['PATCH', '/tenants/grand-hotel/settings', { body: 'x=1', headers: { 'content-type': 'text/plain' } }],
      [
        'PUT',
        '/tenants/grand-hotel/theme/logo',
        { body: Buffer.alloc(400 * 1024, 1), headers: { 'content-type': 'image/png' } },
      ],
      ['GET', '/tenants/grand-hotel/users?limit=5000', { body: undefined }],
    ];
    for (const [method, url, { body, headers }] of bodies) {
      for (const authorization of [undefined, `Bearer ${'z'.repeat(43)}`]) {
        const answer = await adminCall(t.app, method, url, {
          body,
          headers: { ...headers, ...(authorization ? { authorization } : {}) },
        });
        expect(answer.statusCode, `${method} ${url} ${answer.body.slice(0, 200)}`).toBe(401);
        expect(answer.headers['www-authenticate']).toContain('Bearer');
        expect(apiErrorSchema.parse(answer.json()).code).toBe(adminErrors.unauthenticated);
      }
    }
    // With a valid token the same bodies are judged as before.
    const judged = await adminCall(t.app, 'POST', '/tenants', { token: owner, body: '{not json' });
    expect(judged.statusCode).toBe(400);
  });

  it("issues no client-credentials token on a customer tenant's issuer", async () => {
    const answer = await t.app.inject({
      method: 'POST',
      url: '/oidc/token',
      headers: {
        host: demo.grandHotel.host,
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from('demo-app:demo-app-secret').toString('base64')}`,
      },
      payload: 'grant_type=client_credentials',
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().error).toMatch(/unsupported_grant_type|unauthorized_client/);
  });

  it('refuses malformed and oversized input with a coded 4xx', async () => {
    const bad: Array<[string, string, unknown, number]> = [
      ['POST', '/tenants', '{not json', 400],
      ['POST', '/tenants', { ...newTenant('x'), unknownField: 1 }, 400],
      ['POST', '/tenants', { ...newTenant('Bad Code') }, 400],
      ['POST', '/tenants', { ...newTenant('no-clients'), clients: [] }, 400],
      ['POST', '/tenants', { ...newTenant('big'), aliasCode: 'x'.repeat(70 * 1024) }, 413],
      ['PUT', '/tenants/grand-hotel/theme', { ...grandTheme, colours: { primaryBackground: 'red' } }, 400],
      ['PATCH', '/tenants/grand-hotel', {}, 400],
      ['GET', '/tenants/grand-hotel/users?limit=5000', undefined, 400],
      ['GET', '/tenants/grand-hotel/users/not-a-uuid', undefined, 400],
      ['GET', '/audit?cursor=nope', undefined, 400],
      ['GET', '/tenants/nobody-here', undefined, 404],
      ['POST', '/tenants/grand-hotel/clients/nobody/secret', {}, 404],
    ];
    for (const [method, url, body, status] of bad) {
      const answer = await adminCall(t.app, method, url, { token: owner, body });
      expect(answer.statusCode, `${method} ${url} ${answer.body.slice(0, 200)}`).toBe(status);
      apiErrorSchema.parse(answer.json());
    }
    const wrongType = await adminCall(t.app, 'POST', '/tenants', {
      token: owner,
      body: 'code=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(wrongType.statusCode).toBe(415);
  });

  it("refuses another tenant's domain with a 409 and changes nothing", async () => {
    const taken = await adminCall(t.app, 'POST', '/tenants', {
      token: owner,
      body: { ...newTenant('thief'), aliasDomains: ['grand-hotel.localhost'] },
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().code).toBe(adminErrors.domainTaken);
    expect((await adminCall(t.app, 'GET', '/tenants/thief', { token: owner })).statusCode).toBe(404);
  });

  it('shows a client secret once: at creation and rotation, never in a read or the audit log', async () => {
    await tenantFor('secrets');
    const created = await adminCall(t.app, 'POST', '/tenants/secrets/clients', {
      token: owner,
      body: { clientId: 'pms', redirectUris: ['https://pms.example.com/cb'] },
    });
    expect(created.statusCode).toBe(201);
    const first = created.json().secret as string;
    expect(first.length).toBeGreaterThanOrEqual(43);
    const rotated = await adminCall(t.app, 'POST', '/tenants/secrets/clients/pms/secret', {
      token: owner,
      body: {},
    });
    const second = rotated.json().secret as string;
    expect(second).not.toBe(first);
    const read = await adminCall(t.app, 'GET', '/tenants/secrets', { token: owner });
    const log = await adminCall(t.app, 'GET', '/audit/export', { token: owner });
    for (const text of [read.body, log.body]) {
      expect(text).not.toContain(first);
      expect(text).not.toContain(second);
    }
    expect(log.headers['content-type']).toContain('application/x-ndjson');
  });

  it('applies changes without a restart, at once on the instance that made them: a new domain answers, a new theme shows, a disabled client is refused', async () => {
    const before = await call(t.app, 'GET', '/api/login-domains/live.localhost', {
      host: 'live.localhost:3000',
    });
    expect(before.statusCode).toBe(404);
    await tenantFor('live');
    const after = await call(t.app, 'GET', '/api/login-domains/live.localhost', {
      host: 'live.localhost:3000',
    });
    expect(after.statusCode).toBe(200);
    expect(after.json().theme.name).toBe('Tenant live');

    const themed = await adminCall(t.app, 'PUT', '/tenants/live/theme', {
      token: owner,
      body: { ...grandTheme, name: 'Live, rebranded' },
    });
    expect(themed.statusCode).toBe(200);
    const rebranded = await call(t.app, 'GET', '/api/login-domains/live.localhost', {
      host: 'live.localhost:3000',
    });
    expect(rebranded.json().theme.name).toBe('Live, rebranded');

    const authorize = () =>
      t.app.inject({
        method: 'GET',
        url: '/oidc/auth?client_id=live-app&response_type=code&scope=openid&redirect_uri=https%3A%2F%2Fapp.example.com%2Fcallback&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256',
        headers: { host: 'live.localhost:3000' },
      });
    expect((await authorize()).statusCode).toBe(303);
    const disabled = await adminCall(t.app, 'POST', '/tenants/live/clients/live-app/disable', {
      token: owner,
      body: {},
    });
    expect(disabled.statusCode).toBe(409);
    expect(disabled.json().code).toBe(adminErrors.loginClientRequired);
    await adminCall(t.app, 'POST', '/tenants/live/clients', {
      token: owner,
      body: { clientId: 'side-app', redirectUris: ['https://app.example.com/side'] },
    });
    const off = await adminCall(t.app, 'POST', '/tenants/live/clients/side-app/disable', {
      token: owner,
      body: {},
    });
    expect(off.json()).toMatchObject({ clientId: 'side-app', disabled: true });
    const refused = await t.app.inject({
      method: 'GET',
      url: '/oidc/auth?client_id=side-app&response_type=code&scope=openid&redirect_uri=https%3A%2F%2Fapp.example.com%2Fside&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256',
      headers: { host: 'live.localhost:3000' },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('invalid_client');
  });

  it('writes an audit entry for every change, by who made it, without secrets', async () => {
    await tenantFor('audited');
    const userId = await invitedUser('audited', 'audited-user@example.com');
    const token = await operatorToken(t, 'auditing-admin', 'tenant_admin', ['audited']);
    await adminCall(t.app, 'PATCH', '/tenants/audited/settings', {
      token,
      body: { mfa: { mode: 'required' } },
    });
    await adminCall(t.app, 'POST', `/tenants/audited/users/${userId}/disable`, { token, body: {} });
    await adminCall(t.app, 'DELETE', `/tenants/audited/users/${userId}`, { token });
    const search = await adminCall(t.app, 'GET', '/audit?tenant=audited&limit=500', { token: owner });
    const { entries } = auditSearchResponse.parse(search.json());
    const actions = entries.map((entry) => `${entry.actor.kind}:${entry.actor.id}:${entry.action}`).reverse();
    expect(actions).toEqual([
      'client:test-owner:tenant.create',
      'client:test-owner:client.create',
      'client:test-owner:user.invite',
      'client:auditing-admin:tenant.update',
      'client:auditing-admin:user.delete',
    ]);
    // The invited account was pending: disabling it changed nothing, and says so without an entry.
    const settings = entries.find((entry) => entry.action === 'tenant.update');
    expect(settings?.before).toMatchObject({ 'settings.mfa.mode': 'recommended' });
    expect(settings?.after).toMatchObject({ 'settings.mfa.mode': 'required' });
    const created = entries.find((entry) => entry.action === 'client.create');
    expect(JSON.stringify(created)).toContain('[secret]');
    // Erased: the log names the account by id, never by its address.
    expect(JSON.stringify(entries)).not.toContain('audited-user@example.com');

    // Paging: newest first, continued with `next`.
    const page = auditSearchResponse.parse(
      (await adminCall(t.app, 'GET', '/audit?tenant=audited&limit=2', { token: owner })).json(),
    );
    expect(page.entries).toHaveLength(2);
    const rest = auditSearchResponse.parse(
      (
        await adminCall(t.app, 'GET', `/audit?tenant=audited&limit=500&cursor=${page.next}`, { token: owner })
      ).json(),
    );
    expect([...page.entries, ...rest.entries].map((entry) => entry.id)).toEqual(
      entries.map((entry) => entry.id),
    );
  });

  it('keeps the audit log append-only: the database refuses UPDATE and DELETE', async () => {
    const count = async () =>
      Number(
        (
          await t.services.db
            .selectFrom('audit_log')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    expect(before).toBeGreaterThan(0);
    await expect(t.services.db.updateTable('audit_log').set({ action: 'forged' }).execute()).rejects.toThrow(
      /append-only/,
    );
    await expect(t.services.db.deleteFrom('audit_log').execute()).rejects.toThrow(/append-only/);
    if (engine === 'postgres') {
      await expect(sql`truncate audit_log`.execute(t.services.db)).rejects.toThrow(/append-only/);
    }
    expect(await count()).toBe(before);
    const forged = await t.services.db
      .selectFrom('audit_log')
      .select('id')
      .where('action', '=', 'forged')
      .execute();
    expect(forged).toEqual([]);
  });

  it('runs the user actions on the account the path names', async () => {
    const code = demo.grandHotel.code;
    const user = await findUserByEmail(t.services.db, code, demo.grandHotel.email);
    const { cookie } = await signIn(t.app);
    const ended = await adminCall(t.app, 'POST', `/tenants/${code}/users/${user!.id}/end-sessions`, {
      token: owner,
      body: {},
    });
    expect(ended.json()).toMatchObject({ outcome: 'done' });
    const session = await call(t.app, 'GET', '/api/session', { cookie });
    expect(session.json()).toMatchObject({ exists: false });

    const found = await adminCall(t.app, 'GET', `/tenants/${code}/users?email=DEMO@grand`, { token: owner });
    expect(found.json().users.map((each: { email: string }) => each.email)).toEqual([demo.grandHotel.email]);
    const wildcard = await adminCall(t.app, 'GET', `/tenants/${code}/users?email=%25`, { token: owner });
    expect(wildcard.json().users).toEqual([]);

    const disabled = await adminCall(t.app, 'POST', `/tenants/${code}/users/${user!.id}/disable`, {
      token: owner,
      body: {},
    });
    expect(disabled.json()).toMatchObject({ outcome: 'done', user: { status: 'disabled' } });
    await expect(signIn(t.app)).rejects.toThrow();
    const enabled = await adminCall(t.app, 'POST', `/tenants/${code}/users/${user!.id}/enable`, {
      token: owner,
      body: {},
    });
    expect(enabled.json()).toMatchObject({ outcome: 'done', user: { status: 'active' } });
    await signIn(t.app);
    // Another tenant's account is not found through this tenant.
    const other = await findUserByEmail(t.services.db, demo.seaside.code, demo.seaside.email);
    const cross = await adminCall(t.app, 'GET', `/tenants/${code}/users/${other!.id}`, { token: owner });
    expect(cross.statusCode).toBe(404);
    expect(cross.json().code).toBe(adminErrors.userNotFound);
  });

  it('unlocks a locked-out account, resets its MFA, and refuses to invite an existing account', async () => {
    const code = 'summit';
    const email = 'locked-out@summit.test';
    const userId = await invitedUser(code, email);
    await t.services.db.updateTable('users').set({ status: 'active' }).where('id', '=', userId).execute();
    await activeUserPassword(userId);
    const host = 'summit.localhost:3000';
    const login = (password: string) =>
      call(t.app, 'POST', '/api/login', { host, body: { email, password, state: 'state-0123456789abcdef' } });
    for (let attempt = 0; attempt < t.config.login.maxFailures; attempt++)
      await login(`Wrong-${attempt}-pass`);
    expect((await login(demo.password)).json().code).toBe('login.too_many_attempts');
    const unlocked = await adminCall(t.app, 'POST', `/tenants/${code}/users/${userId}/unlock`, {
      token: owner,
      body: {},
    });
    expect(unlocked.json()).toMatchObject({ outcome: 'done' });
    expect((await login(demo.password)).statusCode).toBe(200);

    // An enrolled factor goes, with the sessions that passed it.
    const { cookie } = await signIn(t.app, { host, email, code });
    await enrolTotp(t, { host, email, code }, cookie);
    expect(await factorsOf(userId)).toBe(1);
    const reset = await adminCall(t.app, 'POST', `/tenants/${code}/users/${userId}/reset-mfa`, {
      token: owner,
      body: {},
    });
    expect(reset.json()).toMatchObject({ outcome: 'done' });
    expect(await factorsOf(userId)).toBe(0);
    expect((await call(t.app, 'GET', '/api/session', { host, cookie })).json()).toMatchObject({
      exists: false,
    });

    const again = await adminCall(t.app, 'POST', `/tenants/${code}/users`, {
      token: owner,
      body: { email, type: 'staff' },
    });
    expect(again.statusCode).toBe(409);
    expect(apiErrorSchema.parse(again.json()).code).toBe('invite.account_exists');
  });

  it('manages operators: invites a person, changes a role, removes a machine, and always keeps an owner', async () => {
    const invited = await adminCall(t.app, 'POST', '/operators/people', {
      token: owner,
      body: { email: 'helper@ops.example', role: 'help_desk', tenants: ['grand-hotel'] },
    });
    expect(invited.statusCode).toBe(201);
    const person = adminOperatorInviteResponse.parse(invited.json()).operator;
    expect(person).toMatchObject({
      kind: 'human',
      role: 'help_desk',
      tenants: ['grand-hotel'],
      email: 'helper@ops.example',
    });
    const mail = await t.services.db
      .selectFrom('outbox')
      .select('payload')
      .where('recipient', '=', 'helper@ops.example')
      .executeTakeFirst();
    expect(mail?.payload).toContain('http://admin.localhost:3000/activate/');

    const promoted = await adminCall(t.app, 'PATCH', `/operators/${person.id}`, {
      token: owner,
      body: { role: 'tenant_admin' },
    });
    expect(adminOperatorResponse.parse(promoted.json()).operator).toMatchObject({
      role: 'tenant_admin',
      tenants: ['grand-hotel'],
      email: 'helper@ops.example',
    });

    const machineToken = await operatorToken(t, 'short-lived-bot', 'auditor');
    expect((await adminCall(t.app, 'GET', '/tenants', { token: machineToken })).statusCode).toBe(200);
    const { operators } = adminOperatorListResponse.parse(
      (await adminCall(t.app, 'GET', '/operators', { token: owner })).json(),
    );
    // A person by the account's address, a machine by its client id alone.
    expect(operators.find((each) => each.id === person.id)).toMatchObject({ email: 'helper@ops.example' });
    const bot = operators.find((each) => each.subject === 'short-lived-bot')!;
    expect(bot).toMatchObject({ kind: 'client', email: null });
    const removed = await adminCall(t.app, 'DELETE', `/operators/${bot.id}`, { token: owner });
    expect(removed.statusCode).toBe(200);
    // Its client went with it: the token it holds fails at once.
    expect((await adminCall(t.app, 'GET', '/tenants', { token: machineToken })).statusCode).toBe(401);

    // Owners may go while another remains; the last one stays.
    const owners = operators.filter((each) => each.role === 'owner');
    for (const each of owners.slice(1)) {
      expect(
        (
          await adminCall(t.app, 'PATCH', `/operators/${each.id}`, {
            token: owner,
            body: { role: 'auditor' },
          })
        ).statusCode,
      ).toBe(200);
    }
    const last = owners[0]!;
    const demote = await adminCall(t.app, 'PATCH', `/operators/${last.id}`, {
      token: owner,
      body: { role: 'auditor' },
    });
    expect(demote.statusCode).toBe(409);
    expect(demote.json().code).toBe(adminErrors.lastOwner);
    const remove = await adminCall(t.app, 'DELETE', `/operators/${last.id}`, { token: owner });
    expect(remove.json().code).toBe(adminErrors.lastOwner);
    for (const each of owners.slice(1)) {
      await adminCall(t.app, 'PATCH', `/operators/${each.id}`, { token: owner, body: { role: 'owner' } });
    }
  });

  it('creates, replaces and removes SSO partners, audited, refusing private keys and a code mismatch', async () => {
    const url = '/tenants/seaside/partners/travel-app';
    const partner = {
      code: 'travel-app',
      issuer: 'https://travel.example',
      jwksUri: 'https://travel.example/jwks.json',
    };
    const created = await adminCall(t.app, 'PUT', url, { token: owner, body: partner });
    expect(created.statusCode).toBe(200);
    expect(created.json()).toMatchObject({
      created: true,
      partner: { displayName: 'travel-app', skipMfa: false },
    });
    const replaced = await adminCall(t.app, 'PUT', url, {
      token: owner,
      body: { ...partner, displayName: 'Travel app' },
    });
    expect(replaced.json()).toMatchObject({ created: false, partner: { displayName: 'Travel app' } });
    const listed = await adminCall(t.app, 'GET', '/tenants/seaside/partners', { token: owner });
    expect(listed.json().partners.map((each: { code: string }) => each.code)).toContain('travel-app');

    const mismatch = await adminCall(t.app, 'PUT', url, {
      token: owner,
      body: { ...partner, code: 'other' },
    });
    expect(mismatch.json().code).toBe(adminErrors.partnerCodeMismatch);
    const privateKey = await adminCall(t.app, 'PUT', url, {
      token: owner,
      body: {
        code: 'travel-app',
        issuer: 'https://travel.example',
        jwks: { keys: [{ kty: 'EC', crv: 'P-256', x: 'AAAA', y: 'BBBB', d: 'secret-part' }] },
      },
    });
    expect(privateKey.statusCode).toBe(400);

    expect((await adminCall(t.app, 'DELETE', url, { token: owner })).statusCode).toBe(200);
    const gone = await adminCall(t.app, 'DELETE', url, { token: owner });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().code).toBe(adminErrors.partnerNotFound);
    const audit = auditSearchResponse.parse(
      (await adminCall(t.app, 'GET', '/audit?tenant=seaside&targetId=travel-app', { token: owner })).json(),
    );
    expect(audit.entries.map((entry) => entry.action).reverse()).toEqual([
      'partner.create',
      'partner.update',
      'partner.remove',
    ]);
  });

  it('keeps the operator tenant on ADMIN_DOMAIN and requiring MFA, even for an owner', async () => {
    const url = `/tenants/${operatorTenantCode}`;
    // Its settings and domains are not changed through the tenant routes at all.
    for (const [method, path, body] of [
      ['PATCH', `${url}/settings`, { mfa: { mode: 'off' } }],
      ['PATCH', `${url}/settings`, { mfa: { mandatoryFrom: '2099-01-01' } }],
      ['PUT', `${url}/domains`, { loginDomain: 'elsewhere.localhost', aliasDomains: [] }],
      ['PATCH', url, { loginClientId: 'another-client' }],
    ] as const) {
      const refused = await adminCall(t.app, method, path, { token: owner, body });
      expect(refused.statusCode, path).toBe(403);
      expect(apiErrorSchema.parse(refused.json()).code).toBe(adminErrors.operatorTenantManaged);
    }

    expect((await t.services.tenants.byCode(operatorTenantCode))?.settings.mfa.mode).toBe('required');
    const renamed = await adminCall(t.app, 'PUT', `${url}/theme`, { token: owner, body: grandTheme });
    expect(renamed.statusCode).toBe(200);
  });

  it('serves an OpenAPI 3.1 document naming every route', async () => {
    const answer = await adminCall(t.app, 'GET', '/admin/api/openapi.json');
    expect(answer.statusCode).toBe(200);
    const document = answer.json() as {
      openapi: string;
      paths: Record<string, Record<string, unknown>>;
      components: { schemas: Record<string, unknown> };
    };
    expect(document.openapi).toBe('3.1.0');
    for (const route of adminRoutes) {
      const path = `/admin/api/v1${route.path}`.replace(/:(\w+)/g, '{$1}');
      const operation = document.paths[path]?.[route.method.toLowerCase()] as
        | { parameters: Array<{ name: string; in: string }>; responses: Record<string, unknown> }
        | undefined;
      expect(operation, path).toBeDefined();
      // Every {name} in the path is declared as a path parameter, and nothing else is.
      const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
      const declared = operation!.parameters
        .filter((each) => each.in === 'path')
        .map((each) => each.name)
        .sort();
      expect(declared, path).toEqual(inPath);
      expect(Object.keys(operation!.responses)).toContain(String(route.status ?? 200));
      // Every route is limited (admin-limits.ts) and says so.
      expect(Object.keys(operation!.responses)).toContain('429');
    }
    // Every reference points at a schema the document holds.
    const text = answer.body;
    for (const [, name] of text.matchAll(/"\$ref":"#\/components\/schemas\/(\w+)"/g)) {
      expect(
        (document as { components: { schemas: Record<string, unknown> } }).components.schemas,
      ).toHaveProperty([name!]);
    }
  });

  it('loses no change when twenty changes to one tenant run at once', async () => {
    await tenantFor('busy');
    const changes = Array.from({ length: 20 }, (_, index) =>
      index % 2 === 0
        ? adminCall(t.app, 'PATCH', '/tenants/busy/settings', {
            token: owner,
            body: index === 18 ? { analyticsId: 'final-analytics' } : { passwordExpiryDays: 100 + index },
          })
        : adminCall(t.app, 'PUT', '/tenants/busy/theme', {
            token: owner,
            body: { ...grandTheme, name: `Busy ${index}` },
          }),
    );
    const answers = await Promise.all(changes);
    expect(answers.map((answer) => answer.statusCode)).toEqual(answers.map(() => 200));
    const tenant = (await adminCall(t.app, 'GET', '/tenants/busy', { token: owner })).json();
    // Every settings change survived every theme change made alongside it.
    expect(tenant.settings.analyticsId).toBe('final-analytics');
    expect(tenant.settings.passwordExpiryDays).toBeGreaterThanOrEqual(100);
    expect(tenant.theme.name).toMatch(/^Busy \d+$/);
    const updates = await t.services.db
      .selectFrom('audit_log')
      .select('id')
      .where('tenant_code', '=', 'busy')
      .where('action', '=', 'tenant.update')
      .execute();
    expect(updates.length).toBeGreaterThanOrEqual(11);
  });

  if (engine === 'postgres') {
    it('creates a tenant or a client once when 20 ask at the same time; the others get a 409', async () => {
      const tenants = await Promise.all(
        Array.from({ length: 20 }, () =>
          adminCall(t.app, 'POST', '/tenants', { token: owner, body: newTenant('racing') }),
        ),
      );
      const statuses = tenants.map((answer) => answer.statusCode).sort();
      expect(statuses.filter((status) => status === 201)).toHaveLength(1);
      expect(statuses.filter((status) => status === 409)).toHaveLength(19);
      for (const answer of tenants.filter((each) => each.statusCode === 409)) {
        expect(answer.json().code).toBe(adminErrors.tenantExists);
      }
      const clients = await Promise.all(
        Array.from({ length: 20 }, () =>
          adminCall(t.app, 'POST', '/tenants/racing/clients', {
            token: owner,
            body: { clientId: 'twin', redirectUris: ['https://app.example.com/twin'] },
          }),
        ),
      );
      expect(clients.filter((answer) => answer.statusCode === 201)).toHaveLength(1);
      const refused = clients.filter((answer) => answer.statusCode === 409);
      expect(refused).toHaveLength(19);
      for (const answer of refused) expect(answer.json().code).toBe(adminErrors.clientExists);
      // Owners each stepping down at once: the database lets all but one go, the last one stays.
      const tokens = new Map([['test-owner', owner]]);
      const earlier = (await adminCall(t.app, 'GET', '/operators', { token: owner })).json()
        .operators as Array<{
        id: string;
        subject: string;
        role: string;
      }>;
      for (const other of earlier.filter((each) => each.role === 'owner' && each.subject !== 'test-owner')) {
        await adminCall(t.app, 'PATCH', `/operators/${other.id}`, {
          token: owner,
          body: { role: 'auditor' },
        });
      }
      for (const name of ['a', 'b', 'c', 'd']) {
        tokens.set(`racing-owner-${name}`, await operatorToken(t, `racing-owner-${name}`, 'owner'));
      }
      const listed = await adminCall(t.app, 'GET', '/operators', { token: owner });
      const everyone = listed.json().operators as Array<{ id: string; subject: string; role: string }>;
      const owners = everyone.filter((each) => each.role === 'owner');
      expect(owners.map((each) => each.subject).sort()).toEqual([...tokens.keys()].sort());
      const demotions = await Promise.all(
        owners.map((each) =>
          adminCall(t.app, 'PATCH', `/operators/${each.id}`, {
            token: tokens.get(each.subject)!,
            body: { role: 'auditor' },
          }),
        ),
      );
      expect(demotions.filter((answer) => answer.statusCode === 200)).toHaveLength(owners.length - 1);
      const kept = demotions.filter((answer) => answer.statusCode === 409);
      expect(kept).toHaveLength(1);
      expect(kept[0]!.json().code).toBe(adminErrors.lastOwner);
      const left = await t.services.db
        .selectFrom('operators')
        .select('id')
        .where('role', '=', 'owner')
        .execute();
      expect(left).toHaveLength(1);
      const created = await t.services.db
        .selectFrom('audit_log')
        .select('id')
        .where('tenant_code', '=', 'racing')
        .where('action', '=', 'tenant.create')
        .execute();
      expect(created).toHaveLength(1);
    });
  }
});
