import { generateKeyPairSync } from 'node:crypto';
import {
  type AdminRole,
  adminErrors,
  adminMeResponse,
  adminRoles,
  apiErrorSchema,
  auditSearchResponse,
  rolePermissions,
} from '@keycard/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUserByEmail } from '../../features/accounts/user.repository.ts';
import { rotateSigningKey } from '../../features/admin/signing-keys.service.ts';
import { createMachineClient } from '../../features/operators/operators.service.ts';
import { cliActor } from '../../platform/audit/audit.service.ts';
import { buildTestApp, demo, engines, type TestApp } from '../../test/helper.ts';
import {
  type AdminRouteRow as AdminRoute,
  adminCall,
  adminFixtures,
  adminRouteTable as adminRoutes,
  grandTheme,
  newTenant,
  operatorToken,
  tinyPng,
} from './admin.test-support.ts';

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
    .replace(':userId', userId)
    .replace(':passkeyId', 'no-such-passkey');
  const bodies: Record<string, unknown> = {
    'POST /tenants': newTenant(`new-${key}`),
    'PATCH /tenants/:code': { aliasCode: null },
    'PUT /tenants/:code/domains': { loginDomain: `${code}.localhost`, aliasDomains: [] },
    'PUT /tenants/:code/theme': grandTheme,
    'PATCH /tenants/:code/settings': { analyticsId: null },
    'POST /tenants/:code/clients': { clientId: `app-${key}`, redirectUris: ['https://app.example.com/cb'] },
    'PATCH /tenants/:code/clients/:clientId': { redirectUris: ['https://app.example.com/cb2'] },
    'POST /tenants/:code/users': { email: `invitee-${key}@example.com`, type: 'staff' },
    'POST /operators/clients': { clientId: `machine-${key}`, role: 'auditor' },
    'POST /operators/people': { email: `person-${key}@example.com`, role: 'help_desk', tenants: [code] },
    'PATCH /operators/:id': { role: 'auditor' },
    'DELETE /tenants/:code': { confirm: code },
    'POST /tenants/:code/users/:userId/secret-question/check': { answer: 'Lisbon' },
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

describe.each(engines)('admin API roles and routes on %s', (engine) => {
  let t: TestApp;
  let owner: string;
  beforeAll(async () => {
    t = await buildTestApp(engine);
    owner = await operatorToken(t, 'test-owner', 'owner');
  });
  afterAll(() => t.close());

  const { tenantFor, invitedUser } = adminFixtures(
    () => t,
    () => owner,
  );

  // Every route for every role: some 20 s alone on a quiet machine, so it gets two minutes.
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
  }, 120_000);

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
});
