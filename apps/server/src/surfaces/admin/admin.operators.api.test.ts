import {
  adminErrors,
  adminOperatorInviteResponse,
  adminOperatorListResponse,
  adminOperatorResponse,
  apiErrorSchema,
  auditSearchResponse,
  operatorTenantCode,
} from '@keycard/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliOn } from '../../features/accounts/test-support.ts';
import { findUserByEmail } from '../../features/accounts/user.repository.ts';
import { enrolTotp } from '../../features/mfa/mfa.test-support.ts';
import { consoleClientId, repairOperatorTenant } from '../../features/operators/operator-tenant.ts';
import { cliActor } from '../../platform/audit/audit.service.ts';
import { publicOrigin } from '../../platform/config.ts';
import { buildTestApp, call, demo, engines, signIn, type TestApp } from '../../test/helper.ts';
import { adminCall, adminFixtures, grandTheme, operatorToken } from './admin.test-support.ts';

describe.each(engines)('admin API operators, partners and accounts on %s', (engine) => {
  let t: TestApp;
  let owner: string;
  beforeAll(async () => {
    t = await buildTestApp(engine);
    owner = await operatorToken(t, 'test-owner', 'owner');
  });
  afterAll(() => t.close());

  const { factorsOf, activeUserPassword, invitedUser } = adminFixtures(
    () => t,
    () => owner,
  );

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
});
