import {
  adminErrors,
  adminTenantDeleteResponse,
  apiErrorSchema,
  auditSearchResponse,
  operatorTenantCode,
} from '@keycard/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../features/accounts/password.service.ts';
import { buildTestApp, call, engines, signIn, type TestApp } from '../../test/helper.ts';
import { adminCall, operatorToken } from './admin.test-support.ts';

/** DELETE /tenants/{code}: owners only, the code confirmed, everything of the tenant erased. */
describe.each(engines)('removing a tenant on %s', (engine) => {
  let t: TestApp;
  let owner: string;
  const code = 'doomed';
  const host = `${code}.localhost:3000`;
  const email = 'guest@doomed.test';
  beforeAll(async () => {
    t = await buildTestApp(engine, { env: { LOGIN_IP_LIMIT_PER_MINUTE: '1000' } });
    owner = await operatorToken(t, 'delete-owner', 'owner');
  });
  afterAll(() => t.close());

  async function createDoomed() {
    const theme = (await adminCall(t.app, 'GET', '/tenants/grand-hotel', { token: owner })).json().theme;
    const created = await adminCall(t.app, 'POST', '/tenants', {
      token: owner,
      body: {
        code,
        aliasCode: null,
        loginDomain: `${code}.localhost`,
        aliasDomains: [`login.${code}.localhost`],
        defaultRedirectUri: 'https://app.example.com/',
        loginClientId: `${code}-app`,
        theme,
        settings: {},
        clients: [
          { clientId: `${code}-app`, redirectUris: ['https://app.example.com/callback'] },
          {
            clientId: `${code}-pms`,
            redirectUris: ['https://pms.example.com/callback'],
            authMethod: 'client_secret_basic',
          },
        ],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const invited = await adminCall(t.app, 'POST', `/tenants/${code}/users`, {
      token: owner,
      body: { email, type: 'staff' },
    });
    expect(invited.statusCode).toBe(201);
    const userId = invited.json().user.id as string;
    await t.services.db
      .updateTable('users')
      .set({
        status: 'active',
        password_hash: await hashPassword('Doomed-pass-1'),
        password_changed_at: Date.now(),
      })
      .where('id', '=', userId)
      .execute();
    await t.services.tenants.refresh();
    return userId;
  }

  /** Rows naming the tenant, in every table but the audit log. */
  async function rowsLeft(): Promise<Record<string, number>> {
    const left: Record<string, number> = {};
    for (const table of await t.services.db.introspection.getTables()) {
      if (table.name === 'audit_log') continue;
      const column = table.columns.find(
        (each) => each.name === 'tenant_code' || (table.name === 'tenants' && each.name === 'code'),
      );
      if (!column) continue;
      const rows = await t.services.db
        .selectFrom(table.name as 'tenants')
        .selectAll()
        .where(column.name as 'code', '=', code)
        .execute();
      if (rows.length > 0) left[table.name] = rows.length;
    }
    return left;
  }

  it('refuses non-owners, a missing or wrong confirmation and the operator tenant, changing nothing', async () => {
    await createDoomed();
    const admin = await operatorToken(t, 'delete-admin', 'tenant_admin', [code]);
    const forbidden = await adminCall(t.app, 'DELETE', `/tenants/${code}`, {
      token: admin,
      body: { confirm: code },
    });
    expect(forbidden.statusCode).toBe(403);
    expect(apiErrorSchema.parse(forbidden.json()).code).toBe(adminErrors.forbidden);

    const missing = await adminCall(t.app, 'DELETE', `/tenants/${code}`, { token: owner, body: {} });
    expect(missing.statusCode).toBe(400);
    expect(apiErrorSchema.parse(missing.json()).code).toBe('common.validation_failed');
    const wrong = await adminCall(t.app, 'DELETE', `/tenants/${code}`, {
      token: owner,
      body: { confirm: 'grand-hotel' },
    });
    expect(wrong.statusCode).toBe(400);
    const error = apiErrorSchema.parse(wrong.json());
    expect(error.code).toBe(adminErrors.confirmationMismatch);
    expect(error.fields).toHaveProperty('confirm');

    const operators = await adminCall(t.app, 'DELETE', `/tenants/${operatorTenantCode}`, {
      token: owner,
      body: { confirm: operatorTenantCode },
    });
    expect(operators.statusCode).toBe(403);
    expect(apiErrorSchema.parse(operators.json()).code).toBe(adminErrors.operatorTenantManaged);
    const unknown = await adminCall(t.app, 'DELETE', '/tenants/nobody-here', {
      token: owner,
      body: { confirm: 'nobody-here' },
    });
    expect(unknown.statusCode).toBe(404);
    expect((await adminCall(t.app, 'GET', `/tenants/${code}`, { token: owner })).statusCode).toBe(200);
  });

  it('erases the tenant and everything kept for it, audited, and its domains stop answering', async () => {
    const userId = (await t.services.db
      .selectFrom('users')
      .select('id')
      .where('tenant_code', '=', code)
      .executeTakeFirst())!.id;
    const { cookie } = await signIn(t.app, { host, email, code }, 'Doomed-pass-1');
    expect((await call(t.app, 'GET', '/api/session', { host, cookie })).json()).toMatchObject({
      exists: true,
    });
    const scoped = await operatorToken(t, 'delete-scoped', 'auditor', [code, 'grand-hotel']);

    const removed = await adminCall(t.app, 'DELETE', `/tenants/${code}`, {
      token: owner,
      body: { confirm: code },
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(adminTenantDeleteResponse.parse(removed.json())).toEqual({
      code,
      users: 1,
      clients: 2,
      domains: 2,
      partners: 0,
    });
    expect(await rowsLeft()).toEqual({});
    expect((await adminCall(t.app, 'GET', `/tenants/${code}`, { token: owner })).statusCode).toBe(404);
    for (const name of [host, `login.${code}.localhost:3000`]) {
      const session = await call(t.app, 'GET', '/api/session', { host: name, cookie });
      expect(session.statusCode, name).toBe(404);
    }

    // The scoped operator keeps its other tenant and does not inherit a later tenant of that code.
    const me = (await adminCall(t.app, 'GET', '/me', { token: scoped })).json();
    expect(me.operator.tenants).toEqual(['grand-hotel']);

    const audit = auditSearchResponse.parse(
      (await adminCall(t.app, 'GET', `/audit?tenant=${code}&action=tenant.delete`, { token: owner })).json(),
    );
    expect(audit.entries).toHaveLength(1);
    expect(audit.entries[0]).toMatchObject({
      actor: { kind: 'client' },
      target: { kind: 'tenant', id: code },
    });
    // Erasure: the log names the account by id, never by address.
    const everything = (await adminCall(t.app, 'GET', `/audit/export?tenant=${code}`, { token: owner })).body;
    expect(everything).toContain(userId);
    expect(everything).not.toContain(email);

    // The code is free again.
    await createDoomed();
    expect((await adminCall(t.app, 'GET', '/me', { token: scoped })).json().operator.tenants).toEqual([
      'grand-hotel',
    ]);
  });
});
