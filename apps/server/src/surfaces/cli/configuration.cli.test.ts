import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { parse, stringify } from 'yaml';
import { activeUser, mailsTo, runCliOn } from '../../features/accounts/test-support.ts';
import { findUserByEmail } from '../../features/accounts/user.repository.ts';
import { jsonSchemaFile, jsonSchemaText } from '../../features/configuration/json-schema.ts';
import { findPartner } from '../../features/partners/partner.repository.ts';
import { hashClientSecret } from '../../platform/security/client-secret.ts';
import { buildTestApp, engines, type TestApp } from '../../test/helper.ts';

const exampleFile = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../../examples/keycard.example.yaml',
);

let counter = 0;
/** A small tenant of its own per test, so tests in one app never share one. */
function tenantFile(overrides: Record<string, unknown> = {}) {
  counter += 1;
  const code = `cfg-${counter}-${Math.random().toString(36).slice(2, 7)}`;
  return {
    code,
    loginDomain: `${code}.localhost`,
    defaultRedirectUri: 'http://localhost:3001/',
    loginClientId: `${code}-app`,
    theme: {
      name: `Tenant ${code}`,
      images: { logo: '/brand/logo.svg', favicon: '/brand/favicon.svg' },
      colours: {
        primaryBackground: '#1f3a5f',
        primaryForeground: '#ffffff',
        secondaryBackground: '#f5efe6',
        secondaryForeground: '#1a1a1a',
        tertiaryBackground: '#7a5c2e',
        tertiaryForeground: '#ffffff',
      },
      links: { loginHelpUrl: null, contactSupportUrl: 'https://help.example/support' },
    },
    clients: [
      {
        clientId: `${code}-app`,
        redirectUris: ['http://localhost:3001/callback'],
        postLogoutRedirectUris: ['http://localhost:3001/'],
        secretEnv: 'CFG_TEST_SECRET',
      },
    ],
    ...overrides,
  } as Record<string, unknown> & { code: string };
}

describe.each(engines)('keycard apply and export on %s', (engine) => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    t = await buildTestApp(engine);
    dir = mkdtempSync(path.join(tmpdir(), 'keycard-config-'));
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });
  afterEach(() => vi.unstubAllEnvs());

  const run = (...argv: string[]) => runCliOn(t, ...argv);
  const write = (name: string, content: unknown) => {
    const file = path.join(dir, name);
    writeFileSync(file, typeof content === 'string' ? content : stringify(content));
    return file;
  };
  const tenantRow = (code: string) =>
    t.services.db.selectFrom('tenants').selectAll().where('code', '=', code).executeTakeFirst();
  const clientOf = async (code: string, clientId: string) => {
    const row = await t.services.db
      .selectFrom('oidc_clients')
      .select('metadata')
      .where('tenant_code', '=', code)
      .where('client_id', '=', clientId)
      .executeTakeFirst();
    return row ? (JSON.parse(row.metadata) as Record<string, unknown>) : undefined;
  };
  const domainsOf = async (code: string) =>
    (
      await t.services.db
        .selectFrom('tenant_domains')
        .select('domain')
        .where('tenant_code', '=', code)
        .orderBy('domain')
        .execute()
    ).map((row) => row.domain);

  it('applies the committed example cleanly, and a second time changes nothing', async () => {
    vi.stubEnv('LAKESIDE_PMS_SECRET', 'lakeside-secret-from-env');
    const first = await run('apply', '-f', exampleFile);
    expect(first, first.err).toMatchObject({ code: 0, err: '' });
    expect(first.out).toContain('+ tenant lakeside: create');
    expect(first.out).toContain('Applied');
    // The secret came from the environment: neither printed nor generated.
    expect(first.out).not.toContain('lakeside-secret-from-env');
    expect(first.out).not.toContain('shown once');

    const tenant = (await t.services.tenants.byCode('lakeside'))!;
    expect(tenant).toMatchObject({ aliasCode: 'lake', loginDomain: 'lakeside.localhost' });
    expect(tenant.theme.name).toBe('Lakeside Lodges');
    expect(tenant.settings).toMatchObject({ passwordExpiryDays: 365, mfa: { mode: 'recommended' } });
    expect(await domainsOf('lakeside')).toEqual(['lakeside.localhost', 'login.lakeside.localhost']);
    expect(await t.services.tenants.resolveHost('login.lakeside.localhost:3000')).toMatchObject({
      code: 'lakeside',
    });
    expect(await clientOf('lakeside', 'lakeside-pms')).toMatchObject({
      client_secret: hashClientSecret('lakeside-secret-from-env'),
      token_endpoint_auth_method: 'client_secret_basic',
      response_types: ['code'],
    });
    expect((await clientOf('lakeside', 'lakeside-spa'))?.client_secret).toBeUndefined();
    expect(await findPartner(t.services.db, 'lakeside', 'lakeside-booking')).toMatchObject({
      algorithms: ['ES256'],
      linking: 'link-verified-email',
    });
    expect(await findUserByEmail(t.services.db, 'lakeside', 'rezeption@lakeside.example')).toMatchObject({
      status: 'pending',
      type: 'property',
      locale: 'de',
    });
    const mails = await mailsTo(t, 'rezeption@lakeside.example');
    expect(mails.map((mail) => mail.template)).toEqual(['account.activation']);

    const version = (await tenantRow('lakeside'))!.version;
    const second = await run('apply', '-f', exampleFile);
    expect(second.code).toBe(0);
    expect(second.out).toContain('No changes: the database already matches');
    expect(second.out).not.toMatch(/^[+~] /m);
    expect((await tenantRow('lakeside'))!.version).toBe(version);
    expect(await mailsTo(t, 'rezeption@lakeside.example')).toHaveLength(1);
  });

  it('updates what changed, field by field, raises the version and keeps the client secret', async () => {
    vi.stubEnv('CFG_TEST_SECRET', 'first-secret');
    const tenant = tenantFile();
    expect((await run('apply', '-f', write('update-1.yaml', { tenants: [tenant] }))).code).toBe(0);
    const before = (await tenantRow(tenant.code))!;
    const unverified = `unverified-${counter}@cfg.example`;
    await activeUser(t, unverified, 'Harbour-lights-42', {
      tenantCode: tenant.code,
      emailVerificationRequired: false,
    });
    await t.services.db
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
    expect((await findUserByEmail(t.services.db, tenant.code, unverified))!.email_verification_required).toBe(
      1,
    );
    // A running server picks the change up from the version (TenantDirectory polls it).
    await t.services.tenants.refresh();
    expect((await t.services.tenants.byCode(tenant.code))!.settings.emailVerificationRequired).toBe(true);
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
    expect(await mailsTo(t, 'dry@cfg.example')).toHaveLength(0);

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

  it('removes clients and partners the file leaves out only with prune, dry-run first', async () => {
    vi.stubEnv('CFG_TEST_SECRET', 'prune-secret');
    const tenant = tenantFile();
    const clients = tenant.clients as Array<Record<string, unknown>>;
    const kiosk = {
      ...clients[0],
      clientId: `${tenant.code}-kiosk`,
      redirectUris: ['https://kiosk.example/cb'],
    };
    const partner = {
      code: 'booking',
      issuer: 'https://booking.example',
      jwksUri: 'https://booking.example/jwks',
    };
    const full = { ...tenant, clients: [...clients, kiosk], partners: [partner] };
    expect((await run('apply', '-f', write('prune-1.yaml', { tenants: [full] }))).code).toBe(0);
    const version = (await tenantRow(tenant.code))!.version;

    // Left out without prune: nothing is removed.
    const short = { ...tenant, clients, partners: [] };
    const kept = await run('apply', '-f', write('prune-2.yaml', { tenants: [short] }));
    expect(kept.out).toContain('No changes');
    expect(await clientOf(tenant.code, `${tenant.code}-kiosk`)).toBeDefined();

    const file = write('prune-3.yaml', { tenants: [{ ...short, prune: true }] });
    const dry = await run('apply', '-f', file, '--dry-run');
    expect(dry.out).toContain(`- client ${tenant.code}-kiosk of ${tenant.code}: remove`);
    expect(dry.out).toContain('    redirectUris: ["https://kiosk.example/cb"]');
    expect(dry.out).toContain(`- partner booking of ${tenant.code}: remove`);
    expect(dry.out).toContain('2 to remove');
    expect(await clientOf(tenant.code, `${tenant.code}-kiosk`)).toBeDefined();

    const applied = await run('apply', '-f', file);
    expect(applied, applied.err).toMatchObject({ code: 0 });
    expect(applied.out).toContain('2 removed');
    expect(await clientOf(tenant.code, `${tenant.code}-kiosk`)).toBeUndefined();
    expect(await clientOf(tenant.code, `${tenant.code}-app`)).toMatchObject({
      client_secret: hashClientSecret('prune-secret'),
    });
    expect(await findPartner(t.services.db, tenant.code, 'booking')).toBeNull();
    // Running servers drop the tenant's provider, and with it the removed client.
    expect((await tenantRow(tenant.code))!.version).toBeGreaterThan(version);
    expect((await run('apply', '-f', file)).out).toContain('No changes');
  });

  it('audits a pruned client and partner as removals, with what they were', async () => {
    vi.stubEnv('CFG_TEST_SECRET', 'prune-audit-secret');
    const tenant = tenantFile();
    const clients = tenant.clients as Array<Record<string, unknown>>;
    const extra = {
      ...clients[0],
      clientId: `${tenant.code}-extra`,
      redirectUris: ['https://extra.example/cb'],
    };
    const partner = {
      code: 'pruned',
      issuer: 'https://pruned.example',
      jwksUri: 'https://pruned.example/jwks',
    };
    const full = { ...tenant, clients: [...clients, extra], partners: [partner] };
    expect((await run('apply', '-f', write('prune-audit-1.yaml', { tenants: [full] }))).code).toBe(0);
    const pruned = await run(
      'apply',
      '-f',
      write('prune-audit-2.yaml', { tenants: [{ ...tenant, clients, partners: [], prune: true }] }),
    );
    expect(pruned, pruned.err).toMatchObject({ code: 0 });
    const entries = await t.services.db
      .selectFrom('audit_log')
      .selectAll()
      .where('tenant_code', '=', tenant.code)
      .where('target_id', 'in', [`${tenant.code}-extra`, 'pruned'])
      .orderBy('id')
      .execute();
    const actions = entries.map((entry) => `${entry.action} ${entry.target_id}`);
    expect(actions).toEqual([
      `client.create ${tenant.code}-extra`,
      'partner.create pruned',
      `client.remove ${tenant.code}-extra`,
      'partner.remove pruned',
    ]);
    const removal = entries.find((entry) => entry.action === 'client.remove')!;
    expect(removal.actor_kind).toBe('apply');
    expect(JSON.parse(removal.before!)).toMatchObject({ redirectUris: ['https://extra.example/cb'] });
    expect(removal.after).toBeNull();
    expect(await findPartner(t.services.db, tenant.code, 'pruned')).toBeNull();
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
    await t.services.db
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
    await t.services.db.deleteFrom('tenant_change_leases').where('tenant_code', '=', tenant.code).execute();
    const result = await applying;
    expect(result, result.err).toMatchObject({ code: 0 });
    expect(JSON.parse((await tenantRow(tenant.code))!.theme).name).toBe('Renamed under lease');
    // And gives it back: nothing is left held.
    const leases = await t.services.db
      .selectFrom('tenant_change_leases')
      .select('tenant_code')
      .where('tenant_code', '=', tenant.code)
      .execute();
    expect(leases).toEqual([]);
  });

  it('disables and enables a client with disabled, keeping its secret, and exports the switch', async () => {
    vi.stubEnv('CFG_TEST_SECRET', 'disable-secret');
    const tenant = tenantFile();
    const clients = tenant.clients as Array<Record<string, unknown>>;
    const kioskId = `${tenant.code}-kiosk`;
    const kiosk = { clientId: kioskId, redirectUris: ['https://kiosk.example/cb'] };
    const file = (disabled?: boolean) =>
      write(`disable-${disabled}.yaml`, {
        tenants: [
          { ...tenant, clients: [...clients, { ...kiosk, ...(disabled === undefined ? {} : { disabled }) }] },
        ],
      });
    const created = await run('apply', '-f', file());
    expect(created.out).not.toContain('disabled');
    const secret = (await clientOf(tenant.code, kioskId))!.client_secret;
    expect(secret).toEqual(expect.any(String));
    const disabledRow = () =>
      t.services.db
        .selectFrom('disabled_clients')
        .select('metadata')
        .where('tenant_code', '=', tenant.code)
        .where('client_id', '=', kioskId)
        .executeTakeFirst();

    const disabled = await run('apply', '-f', file(true));
    expect(disabled, disabled.err).toMatchObject({ code: 0 });
    expect(disabled.out).toContain(`~ client ${kioskId} of ${tenant.code}: change`);
    expect(disabled.out).toContain('    disabled: false → true');
    // Out of the provider's sight, in one table only, its secret kept.
    expect(await clientOf(tenant.code, kioskId)).toBeUndefined();
    expect(JSON.parse((await disabledRow())!.metadata).client_secret).toBe(secret);
    expect((await run('apply', '-f', file(true))).out).toContain('No changes');

    const exported = await run('export', '--tenant', tenant.code);
    expect(parse(exported.out).tenants[0].clients).toContainEqual(
      expect.objectContaining({ clientId: kioskId, disabled: true }),
    );
    expect((await run('apply', '-f', write('disable-export.yaml', exported.out))).out).toContain(
      'No changes',
    );

    // The file's value wins: a file without the switch enables the client again.
    const enabled = await run('apply', '-f', file());
    expect(enabled.out).toContain('    disabled: true → false');
    expect(await disabledRow()).toBeUndefined();
    expect((await clientOf(tenant.code, kioskId))!.client_secret).toBe(secret);
  });

  it('refuses to disable the login client, naming the field', async () => {
    vi.stubEnv('CFG_TEST_SECRET', 'login-secret');
    const tenant = tenantFile();
    const clients = tenant.clients as Array<Record<string, unknown>>;
    const file = write('disable-login.yaml', {
      tenants: [{ ...tenant, clients: [{ ...clients[0], disabled: true }] }],
    });
    const result = await run('apply', '-f', file);
    expect(result.code).toBe(1);
    expect(result.err).toContain(
      `${file}: tenants[0].clients[0].disabled: the login client ${tenant.code}-app cannot be disabled`,
    );
    expect(await tenantRow(tenant.code)).toBeUndefined();
  });

  it('exports a tenant that applies as a no-op, without any secret', async () => {
    const exported = await run('export', '--tenant', 'grand-hotel');
    expect(exported.code).toBe(0);
    expect(exported.out).not.toMatch(/demo-app-secret|demo-partner-app-secret/);
    expect(exported.out).not.toMatch(/^\s*(client_)?secret:/m);
    const document = parse(exported.out) as { tenants: Array<Record<string, unknown>> };
    expect(document.tenants[0]).toMatchObject({
      code: 'grand-hotel',
      loginDomain: 'grand-hotel.localhost',
      aliasDomains: ['localhost'],
    });
    const again = await run('apply', '-f', write('grand-hotel.yaml', exported.out));
    expect(again, again.err).toMatchObject({ code: 0 });
    expect(again.out).toContain('No changes');
    expect((await clientOf('grand-hotel', 'demo-app'))!.client_secret).toBe(
      hashClientSecret('demo-app-secret'),
    );

    // -o writes the same text to a file.
    const file = path.join(dir, 'out.yaml');
    expect((await run('export', '--tenant', 'grand-hotel', '-o', file)).code).toBe(0);
    expect(readFileSync(file, 'utf8').trimEnd()).toBe(exported.out);
  });

  it('round-trips a tenant made by apply, with its captcha secret, partners and pending invitations', async () => {
    vi.stubEnv('CFG_TEST_SECRET', 'round-trip-client-secret');
    vi.stubEnv('CFG_CAPTCHA_SECRET', 'round-trip-captcha-secret');
    const invitee = `invitee-${counter}@cfg.example`;
    const tenant = tenantFile({
      settings: {
        mfa: { mode: 'required', mandatoryFrom: '2027-03-01' },
        captcha: { siteKey: 'site-key', secretEnv: 'CFG_CAPTCHA_SECRET', minScore: 0.7 },
      },
      partners: [
        {
          code: 'booking',
          issuer: 'https://booking.example',
          jwksUri: 'https://booking.example/jwks.json',
        },
      ],
      invitations: [{ email: invitee, type: 'partner', locale: 'fr' }],
    });
    expect((await run('apply', '-f', write('round.yaml', { tenants: [tenant] }))).code).toBe(0);
    const stored = JSON.parse((await tenantRow(tenant.code))!.settings);
    expect(stored.captcha.secret).toBe('round-trip-captcha-secret');
    expect(stored.mfa.mandatoryFrom).toBe(Date.parse('2027-03-01'));

    vi.unstubAllEnvs();
    const exported = await run('export', '--tenant', tenant.code);
    expect(exported.out).not.toContain('round-trip');
    expect(exported.out).toContain('mandatoryFrom: 2027-03-01');
    expect(exported.out).toContain(invitee);
    const again = await run('apply', '-f', write('round-2.yaml', exported.out));
    expect(again, again.err).toMatchObject({ code: 0 });
    expect(again.out).toContain('No changes');
    expect(JSON.parse((await tenantRow(tenant.code))!.settings).captcha.secret).toBe(
      'round-trip-captcha-secret',
    );
  });

  it('carries text overrides through apply, export and dry-run: a change is a diff, the export a no-op', async () => {
    vi.stubEnv('CFG_TEST_SECRET', 'texts-secret');
    const heading = 'Willkommen bei <b>Lakeside</b>';
    const tenant = tenantFile();
    const withTexts = (texts: unknown) => ({ ...tenant, theme: { ...(tenant.theme as object), texts } });
    const first = await run(
      'apply',
      '-f',
      write('texts-1.yaml', {
        tenants: [
          withTexts({ de: { 'login.email.heading': heading, 'login.password.heading': 'Passwort' }, th: {} }),
        ],
      }),
    );
    expect(first, first.err).toMatchObject({ code: 0 });
    // Stored as given (a language without overrides dropped), and served on the next request.
    const stored = { de: { 'login.email.heading': heading, 'login.password.heading': 'Passwort' } };
    expect(JSON.parse((await tenantRow(tenant.code))!.theme).texts).toEqual(stored);
    await t.services.tenants.refresh();
    expect((await t.services.tenants.byCode(tenant.code))!.theme.texts).toEqual(stored);

    const exported = await run('export', '--tenant', tenant.code);
    expect((parse(exported.out) as { tenants: Array<{ theme: unknown }> }).tenants[0]!.theme).toMatchObject({
      texts: stored,
    });
    const version = (await tenantRow(tenant.code))!.version;
    const again = await run('apply', '-f', write('texts-2.yaml', exported.out));
    expect(again, again.err).toMatchObject({ code: 0 });
    expect(again.out).toContain('No changes');
    expect((await tenantRow(tenant.code))!.version).toBe(version);

    const changed = withTexts({
      de: { 'login.email.heading': 'Hallo', 'login.password.heading': 'Passwort' },
      en: { 'lifecycle.resetRequest.intro': 'We will mail you a link.' },
    });
    const dry = await run('apply', '-f', write('texts-3.yaml', { tenants: [changed] }), '--dry-run');
    expect(dry.out).toContain(`~ tenant ${tenant.code}: change`);
    expect(dry.out).toContain(`    theme.texts.de.login.email.heading: ${JSON.stringify(heading)} → "Hallo"`);
    expect(dry.out).toContain(
      '    theme.texts.en.lifecycle.resetRequest.intro: null → "We will mail you a link."',
    );
    expect(dry.out).not.toContain('login.password.heading');
    expect(dry.out).toContain('Nothing was written.');
    expect((await tenantRow(tenant.code))!.version).toBe(version);

    // A file without texts takes every override away, each shown as it goes.
    const cleared = await run('apply', '-f', write('texts-4.yaml', { tenants: [tenant] }));
    expect(cleared, cleared.err).toMatchObject({ code: 0 });
    expect(cleared.out).toContain(
      `    theme.texts.de.login.email.heading: ${JSON.stringify(heading)} → null`,
    );
    expect(JSON.parse((await tenantRow(tenant.code))!.theme).texts).toBeUndefined();
    expect((await run('export', '--tenant', tenant.code)).out).not.toContain('texts:');
    // ... and `texts: {}` says the same: nothing to change.
    expect((await run('apply', '-f', write('texts-5.yaml', { tenants: [withTexts({})] }))).out).toContain(
      'No changes',
    );
  });

  const bad = (mutate: (tenant: Record<string, unknown>) => void) => {
    const tenant = tenantFile();
    mutate(tenant);
    return tenant;
  };
  it.each([
    [
      'an unknown field',
      bad((t) => Object.assign(t, { colour: 'blue' })),
      'tenants[0].colour: unknown field',
    ],
    [
      'an unknown theme field',
      bad((t) => Object.assign(t.theme as object, { font: 'Comic Sans' })),
      'tenants[0].theme.font: unknown field',
    ],
    [
      'a wrong type',
      bad((t) => Object.assign(t, { settings: { passwordExpiryDays: 'ten' } })),
      'tenants[0].settings.passwordExpiryDays: Invalid input: expected number, received string',
    ],
    [
      'a bad URL',
      bad((t) => Object.assign((t.theme as { links: object }).links, { loginHelpUrl: 'help desk' })),
      'tenants[0].theme.links.loginHelpUrl: an http(s) URL',
    ],
    [
      'a text key a theme cannot override',
      bad((t) => Object.assign(t.theme as object, { texts: { de: { 'login.email.label': 'Adresse' } } })),
      'tenants[0].theme.texts.de.login.email.label: unknown field',
    ],
    [
      'a text override with a placeholder',
      bad((t) =>
        Object.assign(t.theme as object, { texts: { de: { 'login.email.heading': 'Hallo {{name}}' } } }),
      ),
      'tenants[0].theme.texts.de.login.email.heading: no {{placeholders}}',
    ],
    [
      'a javascript: logo',
      bad((t) =>
        Object.assign((t.theme as { images: object }).images, { logo: 'javascript:alert(document.domain)' }),
      ),
      'tenants[0].theme.images.logo: an https or http URL, a path starting with a single /, or empty for none',
    ],
    [
      'a protocol-relative favicon',
      bad((t) =>
        Object.assign((t.theme as { images: object }).images, { favicon: '//evil.example/icon.svg' }),
      ),
      'tenants[0].theme.images.favicon: an https or http URL',
    ],
    [
      'alg none in a partner',
      bad((t) =>
        Object.assign(t, {
          partners: [
            {
              code: 'p',
              issuer: 'https://p.example',
              jwksUri: 'https://p.example/jwks',
              algorithms: ['none'],
            },
          ],
        }),
      ),
      'tenants[0].partners[0].algorithms[0]: Invalid option: expected one of "RS256"|"ES256"|"EdDSA"',
    ],
    [
      'a redirect URI that is not absolute',
      bad((t) => Object.assign((t.clients as Array<object>)[0]!, { redirectUris: ['/callback'] })),
      'tenants[0].clients[0].redirectUris[0]: an absolute URI',
    ],
    [
      'a domain of another tenant',
      bad((t) => Object.assign(t, { aliasDomains: ['seaside.localhost'] })),
      'tenants[0].aliasDomains[0]: seaside.localhost is a domain of tenant seaside',
    ],
    [
      'an unknown login client',
      bad((t) => Object.assign(t, { loginClientId: 'nobody' })),
      'tenants[0].loginClientId: no client nobody in the file or on the tenant',
    ],
    [
      'an unset secret variable',
      bad((t) => Object.assign((t.clients as Array<object>)[0]!, { secretEnv: 'CFG_UNSET_SECRET' })),
      'tenants[0].clients[0].secretEnv: the environment variable CFG_UNSET_SECRET is not set',
    ],
  ])('refuses %s: exit 1, the file and field named, nothing written', async (_name, tenant, message) => {
    vi.stubEnv('CFG_TEST_SECRET', 'some-secret');
    // A good tenant first in the same file: nothing of it is written either.
    const good = tenantFile();
    const file = write(`bad-${tenant.code}.yaml`, { tenants: [good, tenant] });
    const result = await run('apply', '-f', file);
    expect(result.code).toBe(1);
    expect(result.err).toContain('Nothing was written.');
    expect(result.err).toContain(`${file}: ${message.replace('tenants[0]', 'tenants[1]')}`);
    expect(await tenantRow(good.code)).toBeUndefined();
    expect(await tenantRow(tenant.code)).toBeUndefined();
  });

  it('refuses a tenant twice in one file', async () => {
    vi.stubEnv('CFG_TEST_SECRET', 'some-secret');
    const tenant = tenantFile();
    const file = write('twice.yaml', { tenants: [tenant, { ...tenant, aliasCode: 'x' }] });
    const result = await run('apply', '-f', file);
    expect(result.code).toBe(1);
    expect(result.err).toContain(`${file}: tenants[1].code: the tenant ${tenant.code} appears twice`);
    expect(await tenantRow(tenant.code)).toBeUndefined();
  });

  it('refuses a file that is not YAML or JSON, naming the file', async () => {
    const yamlFile = write('broken.yaml', 'tenants: [\n  - code: x\n');
    const yaml = await run('apply', '-f', yamlFile);
    expect(yaml.code).toBe(1);
    expect(yaml.err).toContain(`${yamlFile}: not valid YAML`);
    const jsonFile = write('broken.json', '{"tenants": ');
    const json = await run('apply', '-f', jsonFile);
    expect(json.err).toContain(`${jsonFile}: not valid JSON`);
    const missing = await run('apply', '-f', path.join(dir, 'missing.yaml'));
    expect(missing.err).toContain('missing.yaml: cannot be read (ENOENT)');
  });

  it('reads JSON files too', async () => {
    vi.stubEnv('CFG_TEST_SECRET', 'json-secret');
    const tenant = tenantFile();
    const file = write('tenant.json', JSON.stringify({ tenants: [tenant] }));
    const result = await run('apply', '-f', file);
    expect(result, result.err).toMatchObject({ code: 0 });
    expect(await tenantRow(tenant.code)).toBeDefined();
  });

  it.each([
    [['apply'], 'apply needs -f <file>'],
    [
      ['apply', '-f', 'x.yaml', '--tenant', 'seaside'],
      'apply takes -f, --dry-run and --allow-operator-tenant only',
    ],
    [['export'], '--tenant is required'],
    [['export', '--tenant', 'seaside', '--dry-run'], 'export takes --tenant and -o only'],
  ])('refuses %j with a usage message (exit 2)', async (argv, message) => {
    const result = await run(...argv);
    expect(result.code).toBe(2);
    expect(result.err).toContain(message);
    expect(result.err).toContain('keycard apply -f');
  });

  it('answers 1 for an export of an unknown tenant', async () => {
    const result = await run('export', '--tenant', 'nobody');
    expect(result).toMatchObject({ code: 1, err: 'No tenant with the code nobody.' });
  });
});

describe('docs/configuration.md', () => {
  it('shows the committed example file as it is', () => {
    const docs = readFileSync(path.resolve(path.dirname(exampleFile), '../docs/configuration.md'), 'utf8');
    expect(docs).toContain(`\`\`\`yaml\n${readFileSync(exampleFile, 'utf8')}\`\`\``);
  });
});

describe('configuration JSON Schema', () => {
  it('is current: the committed file is what the contract generates (npm run config-schema)', () => {
    expect(readFileSync(jsonSchemaFile, 'utf8')).toBe(jsonSchemaText());
  });
});
