import { describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import { activeUser, mailsTo } from '../../features/accounts/test-support.ts';
import { findUserByEmail } from '../../features/accounts/user.repository.ts';
import { findPartner } from '../../features/partners/partner.repository.ts';
import { hashClientSecret } from '../../platform/security/client-secret.ts';
import { engines } from '../../test/helper.ts';
import { exampleFile, tenantFile, useConfigurationCli } from './configuration.cli.test-support.ts';

describe.each(engines)('keycard apply on %s', (engine) => {
  const cli = useConfigurationCli(engine);
  const { run, write, tenantRow, clientOf, domainsOf } = cli;

  it('applies the committed example cleanly, and a second time changes nothing', async () => {
    vi.stubEnv('LAKESIDE_PMS_SECRET', 'lakeside-secret-from-env');
    const first = await run('apply', '-f', exampleFile);
    expect(first, first.err).toMatchObject({ code: 0, err: '' });
    expect(first.out).toContain('+ tenant lakeside: create');
    expect(first.out).toContain('Applied');
    // The secret came from the environment: neither printed nor generated.
    expect(first.out).not.toContain('lakeside-secret-from-env');
    expect(first.out).not.toContain('shown once');

    const tenant = (await cli.app.services.tenants.byCode('lakeside'))!;
    expect(tenant).toMatchObject({ aliasCode: 'lake', loginDomain: 'lakeside.localhost' });
    expect(tenant.theme.name).toBe('Lakeside Lodges');
    expect(tenant.settings).toMatchObject({ passwordExpiryDays: 365, mfa: { mode: 'recommended' } });
    expect(await domainsOf('lakeside')).toEqual(['lakeside.localhost', 'login.lakeside.localhost']);
    expect(await cli.app.services.tenants.resolveHost('login.lakeside.localhost:3000')).toMatchObject({
      code: 'lakeside',
    });
    expect(await clientOf('lakeside', 'lakeside-pms')).toMatchObject({
      client_secret: hashClientSecret('lakeside-secret-from-env'),
      token_endpoint_auth_method: 'client_secret_basic',
      response_types: ['code'],
    });
    expect((await clientOf('lakeside', 'lakeside-spa'))?.client_secret).toBeUndefined();
    expect(await findPartner(cli.app.services.db, 'lakeside', 'lakeside-booking')).toMatchObject({
      algorithms: ['ES256'],
      linking: 'link-verified-email',
    });
    expect(
      await findUserByEmail(cli.app.services.db, 'lakeside', 'rezeption@lakeside.example'),
    ).toMatchObject({
      status: 'pending',
      type: 'property',
      locale: 'de',
    });
    const mails = await mailsTo(cli.app, 'rezeption@lakeside.example');
    expect(mails.map((mail) => mail.template)).toEqual(['account.activation']);

    const version = (await tenantRow('lakeside'))!.version;
    const second = await run('apply', '-f', exampleFile);
    expect(second.code).toBe(0);
    expect(second.out).toContain('No changes: the database already matches');
    expect(second.out).not.toMatch(/^[+~] /m);
    expect((await tenantRow('lakeside'))!.version).toBe(version);
    expect(await mailsTo(cli.app, 'rezeption@lakeside.example')).toHaveLength(1);
  });

  it('updates what changed, field by field, raises the version and keeps the client secret', async () => {
    vi.stubEnv('CFG_TEST_SECRET', 'first-secret');
    const tenant = tenantFile();
    expect((await run('apply', '-f', write('update-1.yaml', { tenants: [tenant] }))).code).toBe(0);
    const before = (await tenantRow(tenant.code))!;
    const unverified = `unverified-${tenant.code}@cfg.example`;
    await activeUser(cli.app, unverified, 'Harbour-lights-42', {
      tenantCode: tenant.code,
      emailVerificationRequired: false,
    });
    await cli.app.services.db
      .updateTable('users')
      .set({ email_verified: 0 })
      .where('email', '=', unverified)
      .execute();

    vi.stubEnv('CFG_TEST_SECRET', '');
    const clients = tenant.clients as Array<Record<string, unknown>>;
    const changed = {
      ...tenant,
      aliasDomains: [`alias.${tenant.code}.localhost`],
      theme: {
        ...(tenant.theme as object),
        colours: { ...(tenant.theme as { colours: object }).colours, primaryBackground: '#003366' },
      },
      settings: { emailVerificationRequired: true },
      clients: [{ ...clients[0], secretEnv: undefined, redirectUris: ['https://app.example/callback'] }],
    };
    const result = await run('apply', '-f', write('update-2.yaml', { tenants: [changed] }));
    expect(result, result.err).toMatchObject({ code: 0 });
    expect(result.out).toContain(`~ tenant ${tenant.code}: change`);
    expect(result.out).toContain('theme.colours.primaryBackground: "#1f3a5f" → "#003366"');
    expect(result.out).toContain('settings.emailVerificationRequired: false → true');
    expect(result.out).toContain(`aliasDomains: [] → ["alias.${tenant.code}.localhost"]`);
    expect(result.out).toContain(`~ client ${tenant.code}-app of ${tenant.code}: change`);
    expect(result.out).toContain(
      'redirectUris: ["http://localhost:3001/callback"] → ["https://app.example/callback"]',
    );

    const after = (await tenantRow(tenant.code))!;
    expect(after.version).toBeGreaterThan(before.version);
    expect(JSON.parse(after.theme).colours.primaryBackground).toBe('#003366');
    expect(await domainsOf(tenant.code)).toEqual(
      [`${tenant.code}.localhost`, `alias.${tenant.code}.localhost`].sort(),
    );
    expect(await clientOf(tenant.code, `${tenant.code}-app`)).toMatchObject({
      client_secret: hashClientSecret('first-secret'),
      redirect_uris: ['https://app.example/callback'],
    });
    // As with keycard tenant-settings, accounts not verified yet are asked to verify.
    expect(
      (await findUserByEmail(cli.app.services.db, tenant.code, unverified))!.email_verification_required,
    ).toBe(1);
    // A running server picks the change up from the version (TenantDirectory polls it).
    await cli.app.services.tenants.refresh();
    expect((await cli.app.services.tenants.byCode(tenant.code))!.settings.emailVerificationRequired).toBe(
      true,
    );
  });

  it('generates the secret of a new confidential client once, and never again', async () => {
    const tenant = tenantFile();
    const clients = tenant.clients as Array<Record<string, unknown>>;
    const file = write('generated.yaml', {
      tenants: [{ ...tenant, clients: [{ ...clients[0], secretEnv: undefined }] }],
    });
    const first = await run('apply', '-f', file);
    expect(first.code).toBe(0);
    const printed = first.out.match(/Secret of client \S+ of \S+ \(shown once, store it now\): (\S+)/);
    expect(printed).not.toBeNull();
    expect(printed![1]!.length).toBeGreaterThanOrEqual(43);
    expect((await clientOf(tenant.code, `${tenant.code}-app`))!.client_secret).toBe(
      hashClientSecret(printed![1]!),
    );

    const again = await run('apply', '-f', file);
    expect(again.out).toContain('No changes');
    expect(again.out).not.toContain(printed![1]);
  });

  it('dry-run prints the diff and writes nothing', async () => {
    vi.stubEnv('CFG_TEST_SECRET', 'dry-secret');
    const tenant = tenantFile({ invitations: [{ email: 'dry@cfg.example', type: 'staff' }] });
    const file = write('dry.yaml', { tenants: [tenant] });
    const dry = await run('apply', '-f', file, '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.out).toContain(`+ tenant ${tenant.code}: create`);
    expect(dry.out).toContain(`    loginDomain: "${tenant.code}.localhost"`);
    expect(dry.out).toContain(`+ client ${tenant.code}-app of ${tenant.code}: create`);
    expect(dry.out).toContain('    secret: (secret from $CFG_TEST_SECRET)');
    expect(dry.out).toContain(`+ invitation dry@cfg.example of ${tenant.code}: create`);
    expect(dry.out).toContain('Nothing was written.');
    expect(dry.out).not.toContain('dry-secret');
    expect(await tenantRow(tenant.code)).toBeUndefined();
    expect(await clientOf(tenant.code, `${tenant.code}-app`)).toBeUndefined();
    expect(await mailsTo(cli.app, 'dry@cfg.example')).toHaveLength(0);

    expect((await run('apply', '-f', file)).code).toBe(0);
    const version = (await tenantRow(tenant.code))!.version;
    const renamed = { ...tenant, theme: { ...(tenant.theme as object), name: 'Renamed' } };
    const change = await run('apply', '-f', write('dry-2.yaml', { tenants: [renamed] }), '--dry-run');
    expect(change.out).toContain(`~ tenant ${tenant.code}: change`);
    expect(change.out).toContain(`    theme.name: "Tenant ${tenant.code}" → "Renamed"`);
    expect(change.out).toContain(`= client ${tenant.code}-app of ${tenant.code}: unchanged`);
    expect(change.out).toContain('1 to change');
    expect((await tenantRow(tenant.code))!.version).toBe(version);
    expect(JSON.parse((await tenantRow(tenant.code))!.theme).name).toBe(`Tenant ${tenant.code}`);
  });

  it('changes the operator tenant only with --allow-operator-tenant', async () => {
    expect((await run('operators', 'create-owner', '--email', 'cfg-owner@example.com')).code).toBe(0);
    const exported = await run('export', '--tenant', 'keycard-operators');
    expect(exported.code).toBe(0);
    const operators = parse(exported.out) as { tenants: Array<Record<string, unknown>> };
    const tenant = operators.tenants[0] as { settings: { mfa: Record<string, unknown> } } & Record<
      string,
      unknown
    >;
    // The shell's way to take away the owners' MFA requirement.
    const weakened = {
      ...tenant,
      settings: { ...tenant.settings, mfa: { ...tenant.settings.mfa, mode: 'off' } },
    };
    const file = write('operators.yaml', { tenants: [weakened] });
    for (const argv of [
      ['apply', '-f', file],
      ['apply', '-f', file, '--dry-run'],
    ]) {
      const refused = await run(...argv);
      expect(refused.code, refused.out).toBe(1);
      expect(refused.err).toContain('Nothing was written');
      expect(refused.err).toContain('--allow-operator-tenant');
    }
    const stored = await tenantRow('keycard-operators');
    expect(JSON.parse(stored!.settings).mfa.mode).toBe('required');

    // Asked for in so many words, a change to it is made (here its theme's name).
    const renamed = { ...tenant, theme: { ...(tenant.theme as object), name: 'Operators of Keycard' } };
    const allowed = await run(
      'apply',
      '-f',
      write('operators-2.yaml', { tenants: [renamed] }),
      '--allow-operator-tenant',
    );
    expect(allowed, allowed.err).toMatchObject({ code: 0 });
    expect(JSON.parse((await tenantRow('keycard-operators'))!.theme).name).toBe('Operators of Keycard');
  });

  it("waits for the tenant's change lease, as the admin API does", async () => {
    const tenant = tenantFile();
    vi.stubEnv('CFG_TEST_SECRET', 'lease-secret');
    expect((await run('apply', '-f', write('lease-1.yaml', { tenants: [tenant] }))).code).toBe(0);
    // A request of the admin API holds the lease (as withTenantLease writes it).
    await cli.app.services.db
      .insertInto('tenant_change_leases')
      .values({ tenant_code: tenant.code, holder: 'a-request', expires_at: Date.now() + 30_000 })
      .execute();
    const changed = { ...tenant, theme: { ...(tenant.theme as object), name: 'Renamed under lease' } };
    let finished = false;
    const applying = run('apply', '-f', write('lease-2.yaml', { tenants: [changed] })).then((result) => {
      finished = true;
      return result;
    });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(finished).toBe(false);
    expect(JSON.parse((await tenantRow(tenant.code))!.theme).name).toBe(`Tenant ${tenant.code}`);
    await cli.app.services.db
      .deleteFrom('tenant_change_leases')
      .where('tenant_code', '=', tenant.code)
      .execute();
    const result = await applying;
    expect(result, result.err).toMatchObject({ code: 0 });
    expect(JSON.parse((await tenantRow(tenant.code))!.theme).name).toBe('Renamed under lease');
    // And gives it back: nothing is left held.
    const leases = await cli.app.services.db
      .selectFrom('tenant_change_leases')
      .select('tenant_code')
      .where('tenant_code', '=', tenant.code)
      .execute();
    expect(leases).toEqual([]);
  });
});
