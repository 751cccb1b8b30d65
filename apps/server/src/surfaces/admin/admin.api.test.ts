import { adminErrors, apiErrorSchema, auditSearchResponse, operatorTenantCode } from '@keycard/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, demo, engines, signIn, type TestApp } from '../../test/helper.ts';
import {
  adminCall,
  adminFixtures,
  adminHost,
  grandTheme,
  newTenant,
  operatorToken,
} from './admin.test-support.ts';

describe.each(engines)('admin API on %s', (engine) => {
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
