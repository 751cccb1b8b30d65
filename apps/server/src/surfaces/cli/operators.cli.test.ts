import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { adminMeResponse, auditSearchResponse, operatorTenantCode } from '@keycard/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliOn } from '../../features/accounts/test-support.ts';
import { findUserByEmail } from '../../features/accounts/user.repository.ts';
import { buildTestApp, call, engines, type TestApp } from '../../test/helper.ts';
import { captureLog } from '../../test/log-capture.ts';
import { adminCall, adminHost, clientCredentialsToken } from '../admin/admin.test-support.ts';

describe.each(engines)('keycard operators and the audit log of CLI commands on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    // As a production start: no demo, nothing created by itself.
    t = await buildTestApp(engine, { seed: false });
  });
  afterAll(() => t.close());

  const run = (...argv: string[]) => runCliOn(t, ...argv);

  it('says at start that there is no operator yet, and how to create the first', async () => {
    const log = captureLog();
    const fresh = await buildTestApp(engine, {
      seed: false,
      env: { LOG_LEVEL: 'warn' },
      logStream: log.stream,
    });
    try {
      const hint = log.entries().find((entry) => String(entry.msg).startsWith('no operator yet'));
      expect(hint?.msg).toContain('keycard operators create-owner --email');
    } finally {
      await fresh.close();
    }
  });

  it('starts with no operator and no operator tenant: the admin API lets nobody in', async () => {
    expect(await t.services.db.selectFrom('operators').selectAll().execute()).toEqual([]);
    const tenant = await t.services.db
      .selectFrom('tenants')
      .select('code')
      .where('code', '=', operatorTenantCode)
      .executeTakeFirst();
    expect(tenant).toBeUndefined();
    const answer = await adminCall(t.app, 'GET', '/tenants', { token: 'y'.repeat(43) });
    expect(answer.statusCode).toBe(401);
  });

  it('create-owner: creates the operator tenant (MFA required) and prints a single-use activation link', async () => {
    const result = await run('operators', 'create-owner', '--email', 'Owner@Example.com');
    expect(result.code).toBe(0);
    expect(result.err).toContain('Created the operator tenant on admin.localhost (MFA required).');
    const link = new URL(result.out.trim());
    expect(link.origin).toBe(`http://${adminHost}`);
    expect(link.pathname).toBe('/activate/');
    const token = link.searchParams.get('token')!;
    const owner = await findUserByEmail(t.services.db, operatorTenantCode, 'owner@example.com');
    expect(owner?.status).toBe('pending');
    const operators = await t.services.db.selectFrom('operators').selectAll().execute();
    expect(operators).toMatchObject([{ kind: 'human', subject: owner!.id, role: 'owner', tenants: null }]);
    const tenant = await t.services.tenants.byCode(operatorTenantCode);
    expect(tenant?.settings.mfa).toMatchObject({
      mode: 'required',
      trustedDeviceDays: 1,
      methods: ['totp', 'smmobile'],
    });

    // The link activates the account on the operator host, once.
    const body = {
      token,
      password: 'Operator-owner-77',
      secretQuestion: 'first-pet-name',
      secretAnswer: 'Rex',
    };
    const activated = await call(t.app, 'POST', '/api/user/activate', { host: adminHost, body });
    expect(activated.statusCode).toBe(200);
    const again = await call(t.app, 'POST', '/api/user/activate', { host: adminHost, body });
    expect(again.statusCode).toBeGreaterThanOrEqual(400);
    expect((await findUserByEmail(t.services.db, operatorTenantCode, 'owner@example.com'))?.status).toBe(
      'active',
    );

    // An active owner is not created twice.
    const twice = await run('operators', 'create-owner', '--email', 'owner@example.com');
    expect(twice.code).toBe(1);
    expect(twice.err).toContain('This operator exists already.');
  });

  it('create-client: a machine operator whose secret gets admin API tokens from the running server; list shows it', async () => {
    // The operator tenant's provider is running (and caching its clients) before the CLI acts.
    await expect(clientCredentialsToken(t.app, 'ci-deploy', 'not-yet')).rejects.toThrow(/401/);
    const result = await run('operators', 'create-client', '--client-id', 'ci-deploy', '--role', 'owner');
    expect(result.code).toBe(0);
    const secret = result.out.trim();
    expect(secret.length).toBeGreaterThanOrEqual(43);
    // The server learns of the new client by its own poll of tenant versions, within 5 s.
    const started = Date.now();
    let token: string | undefined;
    while (!token && Date.now() - started < 5000) {
      token = await clientCredentialsToken(t.app, 'ci-deploy', secret).catch(async () => {
        await new Promise((resolve) => setTimeout(resolve, 100));
        return undefined;
      });
    }
    if (!token) throw new Error('the running server did not accept the new client within 5 s');
    const tenants = await adminCall(t.app, 'GET', '/tenants', { token });
    expect(tenants.statusCode).toBe(200);
    expect(tenants.json().tenants.map((each: { code: string }) => each.code)).toEqual([operatorTenantCode]);
    await expect(clientCredentialsToken(t.app, 'ci-deploy', 'wrong-secret')).rejects.toThrow(/401/);

    const list = await run('operators', 'list');
    expect(list.out).toContain('client\tci-deploy\towner\t*');
    const bad = await run('operators', 'create-client', '--client-id', 'x', '--role', 'king');
    expect(bad.code).toBe(2);
  });

  it('records keycard apply and the account commands in the audit log, by id and without secrets', async () => {
    const file = path.join(tmpdir(), `keycard-admin-${engine}-${Date.now()}.yaml`);
    writeFileSync(
      file,
      `tenants:
  - code: cli-audited
    loginDomain: cli-audited.localhost
    defaultRedirectUri: https://app.example.com/
    loginClientId: cli-app
    theme:
      name: CLI audited
      images: { logo: "", favicon: "" }
      colours:
        primaryBackground: "#123c4a"
        primaryForeground: "#ffffff"
        secondaryBackground: "#eef5f7"
        secondaryForeground: "#10262e"
        tertiaryBackground: "#8a3b12"
        tertiaryForeground: "#ffffff"
      links: { loginHelpUrl: null, contactSupportUrl: null }
    clients:
      - clientId: cli-app
        redirectUris: [https://app.example.com/callback]
    invitations:
      - { email: invited@cli-audited.test, type: staff }
`,
    );
    const applied = await run('apply', '-f', file);
    expect(applied.code).toBe(0);
    const generated = applied.out.match(/[A-Za-z0-9_-]{43}/)?.[0];
    expect(generated).toBeDefined();
    expect(
      (await run('tenant-settings', '--tenant', 'cli-audited', '--set', 'captcha.secret=hush-hush')).code,
    ).toBe(0);
    expect(
      (await run('disable-user', '--tenant', 'cli-audited', '--email', 'invited@cli-audited.test')).code,
    ).toBe(0);
    expect(
      (await run('delete-user', '--tenant', 'cli-audited', '--email', 'invited@cli-audited.test')).code,
    ).toBe(0);

    const partner = ['--tenant', 'cli-audited', '--partner', 'booking'];
    const issuer = ['--issuer', 'https://booking.example', '--jwks-uri', 'https://booking.example/jwks.json'];
    expect((await run('partners', 'add', ...partner, ...issuer)).code).toBe(0);
    expect((await run('partners', 'update', ...partner, '--name', 'Booking app')).code).toBe(0);
    expect((await run('partners', 'list', '--tenant', 'cli-audited')).code).toBe(0);
    expect((await run('partners', 'remove', ...partner)).code).toBe(0);
    const secret = (
      await run('operators', 'create-client', '--client-id', 'ci-audit', '--role', 'auditor')
    ).out.trim();
    await t.services.tenants.refresh();
    const token = await clientCredentialsToken(t.app, 'ci-audit', secret);
    const answer = await adminCall(t.app, 'GET', '/audit?tenant=cli-audited', { token });
    const { entries } = auditSearchResponse.parse(answer.json());
    expect(entries.map((entry) => `${entry.actor.kind}:${entry.action}`).reverse()).toEqual([
      'apply:tenant.create',
      'apply:client.create',
      'apply:user.invite',
      'cli:settings.update',
      // disable-user left the pending account as it was: no entry.
      'cli:user.delete',
      'cli:partner.create',
      'cli:partner.update',
      'cli:partner.remove',
    ]);
    const update = entries.find((entry) => entry.action === 'partner.update');
    expect(update?.before).toMatchObject({ displayName: 'booking' });
    expect(update?.after).toMatchObject({ displayName: 'Booking app' });
    const exported = await adminCall(t.app, 'GET', '/audit/export?tenant=cli-audited', { token });
    expect(exported.body.trim().split('\n')).toHaveLength(8);
    for (const text of [answer.body, exported.body]) {
      expect(text).not.toContain('hush-hush');
      expect(text).not.toContain(generated);
      expect(text).not.toContain('invited@cli-audited.test');
    }
  });
  it('set-role and remove change an operator from the shell, audited, and never leave no owner', async () => {
    const idOf = async (subject: string) => {
      const list = await run('operators', 'list');
      const line = list.out.split('\n').find((each) => each.split('\t')[2] === subject);
      return line?.split('\t')[0];
    };
    const created = await run(
      'operators',
      'create-client',
      '--client-id',
      'cli-shifting',
      '--role',
      'auditor',
    );
    expect(created.code).toBe(0);
    const secret = created.out.trim();
    const id = (await idOf('cli-shifting'))!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    const changed = await run(
      'operators',
      'set-role',
      '--id',
      id,
      '--role',
      'tenant_admin',
      '--tenant',
      'lakeside',
    );
    expect(changed, changed.err).toMatchObject({ code: 0 });
    await t.services.tenants.refresh();
    const token = await clientCredentialsToken(t.app, 'cli-shifting', secret);
    const me = adminMeResponse.parse((await adminCall(t.app, 'GET', '/me', { token })).json());
    expect(me.operator).toMatchObject({ id, role: 'tenant_admin', tenants: ['lakeside'] });
    const entries = async (action: string) =>
      t.services.db
        .selectFrom('audit_log')
        .selectAll()
        .where('action', '=', action)
        .where('target_id', '=', id)
        .execute();
    const [update] = await entries('operator.update');
    expect(update).toMatchObject({ actor_kind: 'cli', tenant_code: operatorTenantCode });
    expect(JSON.parse(update!.before!)).toEqual({ role: 'auditor', tenants: null });
    expect(JSON.parse(update!.after!)).toEqual({ role: 'tenant_admin', tenants: ['lakeside'] });

    const removed = await run('operators', 'remove', '--id', id);
    expect(removed, removed.err).toMatchObject({ code: 0 });
    await t.services.tenants.refresh();
    // Its client went with it: the token it holds fails at once.
    expect((await adminCall(t.app, 'GET', '/me', { token })).statusCode).toBe(401);
    expect(await entries('operator.remove')).toHaveLength(1);
    expect(await idOf('cli-shifting')).toBeUndefined();

    // Down to one owner, which keeps the role and stays.
    const owners = await t.services.db
      .selectFrom('operators')
      .select('id')
      .where('role', '=', 'owner')
      .execute();
    for (const owner of owners.slice(1))
      expect((await run('operators', 'remove', '--id', owner.id)).code).toBe(0);
    const last = owners[0]!.id;
    for (const argv of [
      ['remove', '--id', last],
      ['set-role', '--id', last, '--role', 'auditor'],
    ]) {
      const refused = await run('operators', ...argv);
      expect(refused.code).toBe(1);
      expect(refused.err).toContain('last owner');
    }
    const kept = await t.services.db
      .selectFrom('operators')
      .select('role')
      .where('id', '=', last)
      .executeTakeFirst();
    expect(kept?.role).toBe('owner');
    const unknown = await run('operators', 'remove', '--id', '00000000-0000-4000-8000-000000000000');
    expect(unknown.code).toBe(1);
  });

  it.each([
    [['set-role', '--role', 'auditor'], '--id must be an operator id'],
    [['set-role', '--id', '00000000-0000-4000-8000-000000000000', '--role', 'king'], '--role must be one of'],
    [
      [
        'set-role',
        '--id',
        '00000000-0000-4000-8000-000000000000',
        '--role',
        'auditor',
        '--tenant',
        operatorTenantCode,
      ],
      'the operator tenant is for owners only',
    ],
    [
      ['set-role', '--id', '00000000-0000-4000-8000-000000000000', '--role', 'owner', '--tenant', 'x'],
      'no --tenant',
    ],
    [['remove', '--id', 'nope'], '--id must be an operator id'],
  ])('refuses operators %j with a usage message (exit 2)', async (argv, message) => {
    const result = await run('operators', ...argv);
    expect(result.code).toBe(2);
    expect(result.err).toContain(message);
  });
});
