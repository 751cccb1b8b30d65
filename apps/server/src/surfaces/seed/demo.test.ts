import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { configurationSchema, tokenExchange } from '@keycard/contract';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import { runCliOn } from '../../features/accounts/test-support.ts';
import { jsonSchemaFile } from '../../features/configuration/json-schema.ts';
import { findPartner, listPartners, savePartner } from '../../features/partners/partner.repository.ts';
import { updateTenantSettings } from '../../features/tenants/tenant.admin.ts';
import { hashClientSecret } from '../../platform/security/client-secret.ts';
import { buildTestApp, call, engines, type TestApp } from '../../test/helper.ts';
import { demoClientSecretEnv, demoConfigurationFile, demoPartner, seedDemo } from './demo.ts';

describe.each(engines)('demo seed on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(engine);
  });
  afterAll(() => t.close());

  it('is idempotent and keeps settings an operator changed', async () => {
    await updateTenantSettings(t.services.db, 'seaside', { passwordExpiryDays: 90 });
    await seedDemo(t.services.db);
    await seedDemo(t.services.db);
    const tenants = await t.services.db
      .selectFrom('tenants')
      .select(['code', 'settings'])
      .orderBy('code')
      .execute();
    expect(tenants.map((row) => row.code)).toEqual(['grand-hotel', 'seaside', 'summit']);
    expect(JSON.parse(tenants[1]!.settings).passwordExpiryDays).toBe(90);
    expect(JSON.parse(tenants[2]!.settings).mfa.mode).toBe('required');
    const users = await t.services.db
      .selectFrom('users')
      .select('email')
      .where('email', 'like', 'demo@%')
      .execute();
    expect(users).toHaveLength(3);
  });

  it('registers the demo partner app on grand-hotel and summit once, keeping what an operator changed', async () => {
    const db = t.services.db;
    expect(await listPartners(db, 'seaside')).toEqual([]);
    for (const tenant of ['grand-hotel', 'summit']) {
      expect(await findPartner(db, tenant, 'demo-partner')).toMatchObject({
        tenantCode: tenant,
        issuer: 'http://localhost:3002',
        jwksUri: 'http://localhost:3002/.well-known/jwks.json',
        jwks: null,
        algorithms: ['ES256'],
        linking: 'link-verified-email',
        redirectUris: ['http://localhost:3002/handoff'],
        skipMfa: false,
      });
    }
    await savePartner(db, 'summit', { ...demoPartner(), skipMfa: true }, Date.now());
    await seedDemo(db);
    expect((await findPartner(db, 'summit', 'demo-partner'))?.skipMfa).toBe(true);
    expect(await listPartners(db, 'grand-hotel')).toHaveLength(1);
  });

  it('registers the demo partner app as a client the token endpoint accepts', async () => {
    const clients = await t.services.db
      .selectFrom('oidc_clients')
      .select(['tenant_code', 'client_id'])
      .where('client_id', '=', 'demo-partner-app')
      .orderBy('tenant_code')
      .execute();
    expect(clients.map((row) => row.tenant_code)).toEqual(['grand-hotel', 'summit']);
    for (const host of ['grand-hotel.localhost:3000', 'summit.localhost:3000']) {
      const response = await call(t.app, 'POST', '/oidc/token', {
        host,
        origin: null,
        headers: {
          authorization: `Basic ${Buffer.from('demo-partner-app:demo-partner-app-secret').toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({
          grant_type: tokenExchange.grantType,
          subject_token: 'not-a-hand-off-code',
          subject_token_type: tokenExchange.handoffCodeType,
        }).toString(),
      });
      // The client and its grant are known: only the code is wrong.
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().error).toBe('invalid_grant');
    }
  });
});

describe('the demo configuration file', () => {
  it('validates against the committed JSON Schema, as an editor checks it, and against the zod schema', () => {
    const text = readFileSync(demoConfigurationFile, 'utf8');
    // The first line points editors at the schema, relative to the file.
    const first = text.split('\n')[0]!;
    expect(first).toMatch(/^# yaml-language-server: \$schema=(.+)$/);
    const schemaPath = path.resolve(path.dirname(demoConfigurationFile), first.split('$schema=')[1]!);
    expect(schemaPath).toBe(jsonSchemaFile);

    const ajv = new Ajv2020({ strict: false, allErrors: true });
    // A CommonJS module: its function is the default export's default.
    (formats as unknown as { default: (ajv: Ajv2020) => void }).default(ajv);
    const validate = ajv.compile(JSON.parse(readFileSync(jsonSchemaFile, 'utf8')));
    const document = parse(text);
    expect(validate(document), JSON.stringify(validate.errors)).toBe(true);
    // The same validator refuses what the format forbids: it is not a schema that accepts anything.
    const misspelt = structuredClone(document);
    misspelt.tenants[0].theme.colour = misspelt.tenants[0].theme.colours;
    expect(validate(misspelt)).toBe(false);

    expect(configurationSchema.safeParse(document).success).toBe(true);
  });
});

/**
 * What the demo seed wrote when it was code (before the demo became a configuration file): the
 * tests and the example apps rely on every one of these values.
 */
const demoClient = {
  client_id: 'demo-app',
  client_secret: hashClientSecret('demo-app-secret'),
  redirect_uris: ['http://localhost:3001/callback'],
  post_logout_redirect_uris: ['http://localhost:3001/'],
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  token_endpoint_auth_method: 'client_secret_basic',
};
const demoPartnerAppClient = {
  client_id: 'demo-partner-app',
  client_secret: hashClientSecret('demo-partner-app-secret'),
  redirect_uris: ['http://localhost:3002/handoff'],
  response_types: [],
  grant_types: [tokenExchange.grantType],
  token_endpoint_auth_method: 'client_secret_basic',
};
const expectedTenants = [
  {
    code: 'grand-hotel',
    alias_code: 'gh',
    login_domain: 'grand-hotel.localhost',
    domains: ['grand-hotel.localhost', 'localhost'],
    theme: 'Grand Hotel Group',
    primaryBackground: '#1f3a5f',
    clients: [demoClient, demoPartnerAppClient],
    mfa: undefined,
  },
  {
    code: 'seaside',
    alias_code: 'sea',
    login_domain: 'seaside.localhost',
    domains: ['seaside.localhost'],
    theme: 'Seaside Resorts',
    primaryBackground: '#006d77',
    clients: [demoClient],
    mfa: undefined,
  },
  {
    code: 'summit',
    alias_code: 'sum',
    login_domain: 'summit.localhost',
    domains: ['summit.localhost'],
    theme: 'Summit',
    primaryBackground: '#233d2e',
    clients: [demoClient, demoPartnerAppClient],
    mfa: {
      mode: 'required',
      mandatoryFrom: null,
      trustedDeviceDays: 60,
      methods: ['totp', 'sms', 'voice', 'smmobile'],
    },
  },
];

describe.each(engines)('the demo file applied on a fresh database on %s', (engine) => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    // buildTestApp seeds its fresh database, as `npm start` does.
    t = await buildTestApp(engine);
    dir = mkdtempSync(path.join(tmpdir(), 'keycard-demo-'));
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });
  afterEach(() => vi.unstubAllEnvs());

  it('yields the tenants, domains, themes, settings and clients the code seed made', async () => {
    const db = t.services.db;
    const rows = await db.selectFrom('tenants').selectAll().orderBy('code').execute();
    expect(rows.map((row) => row.code)).toEqual(expectedTenants.map((tenant) => tenant.code));
    for (const [index, expected] of expectedTenants.entries()) {
      const row = rows[index]!;
      expect(row).toMatchObject({
        alias_code: expected.alias_code,
        login_domain: expected.login_domain,
        login_client_id: 'demo-app',
        default_redirect_uri: 'http://localhost:3001/',
      });
      const theme = JSON.parse(row.theme);
      expect(theme.name).toBe(expected.theme);
      expect(theme.colours.primaryBackground).toBe(expected.primaryBackground);
      expect(theme.images).toEqual({
        favicon: `/brand/${expected.code}-favicon.svg`,
        logo: `/brand/${expected.code}-logo.svg`,
      });
      expect(JSON.parse(row.settings).mfa).toEqual(expected.mfa);
      const domains = await db
        .selectFrom('tenant_domains')
        .select('domain')
        .where('tenant_code', '=', expected.code)
        .orderBy('domain')
        .execute();
      expect(domains.map((each) => each.domain)).toEqual(expected.domains);
      const clients = await db
        .selectFrom('oidc_clients')
        .select('metadata')
        .where('tenant_code', '=', expected.code)
        .orderBy('client_id')
        .execute();
      // Nothing more than the code seed wrote but an empty post-logout list.
      expect(
        clients.map((each) => {
          const { post_logout_redirect_uris, ...metadata } = JSON.parse(each.metadata);
          return post_logout_redirect_uris?.length ? { ...metadata, post_logout_redirect_uris } : metadata;
        }),
      ).toEqual(expected.clients);
      const partners = await listPartners(db, expected.code);
      expect(partners.map((partner) => partner.code)).toEqual(
        expected.clients.length > 1 ? ['demo-partner'] : [],
      );
    }
    const users = await db
      .selectFrom('users')
      .select(['tenant_code', 'email', 'status'])
      .orderBy('email')
      .execute();
    expect(users).toEqual([
      { tenant_code: 'grand-hotel', email: 'demo@grand-hotel.test', status: 'active' },
      { tenant_code: 'seaside', email: 'demo@seaside.test', status: 'active' },
      { tenant_code: 'summit', email: 'demo@summit.test', status: 'active' },
    ]);
  });

  it('changes nothing when started again: no version is raised', async () => {
    const versions = async () =>
      (await t.services.db.selectFrom('tenants').select(['code', 'version']).orderBy('code').execute()).map(
        (row) => `${row.code}@${row.version}`,
      );
    const before = await versions();
    await seedDemo(t.services.db);
    expect(await versions()).toEqual(before);
  });

  it('round-trips with keycard export, and keycard apply of the file finds nothing to change', async () => {
    const file = parse(readFileSync(demoConfigurationFile, 'utf8'));
    for (const [name, value] of Object.entries(demoClientSecretEnv)) vi.stubEnv(name, value);
    const applied = await runCliOn(t, 'apply', '-f', demoConfigurationFile);
    expect(applied, applied.err).toMatchObject({ code: 0 });
    expect(applied.out).toContain('No changes: the database already matches');

    for (const tenant of file.tenants) {
      const exported = await runCliOn(t, 'export', '--tenant', tenant.code);
      expect(exported, exported.err).toMatchObject({ code: 0 });
      const fromExport = configurationSchema.parse(parse(exported.out)).tenants[0]!;
      const fromFile = configurationSchema.parse({ tenants: [tenant] }).tenants[0]!;
      // Everything the file says, the export says the same; the export adds every setting's
      // current value and leaves the secrets' variables out.
      const withoutSecrets = (clients: typeof fromFile.clients) =>
        clients
          .map(({ secretEnv: _secretEnv, ...client }) => client)
          .sort((a, b) => a.clientId.localeCompare(b.clientId));
      expect(withoutSecrets(fromExport.clients)).toEqual(withoutSecrets(fromFile.clients));
      const { clients: _a, settings: exportedSettings, ...exportRest } = fromExport;
      const { clients: _b, settings: fileSettings, ...fileRest } = fromFile;
      expect(exportRest).toEqual(fileRest);
      expect(exportedSettings).toMatchObject(fileSettings);

      // The export applied back to the same database changes nothing.
      const exportFile = path.join(dir, `${tenant.code}.yaml`);
      writeFileSync(exportFile, exported.out);
      const again = await runCliOn(t, 'apply', '-f', exportFile);
      expect(again, again.err).toMatchObject({ code: 0 });
      expect(again.out).toContain('No changes: the database already matches');
    }
  });
});

describe('the demo seed started by many instances at once on postgres', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp('postgres', { seed: false });
  });
  afterAll(() => t.close());

  it('creates each tenant, client, partner and user once when 20 seeds race on a fresh database', async () => {
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => seedDemo(t.services.db)));
    expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
    const count = async (table: 'tenants' | 'oidc_clients' | 'users' | 'tenant_domains') =>
      Number(
        (
          await t.services.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await count('tenants')).toBe(3);
    expect(await count('tenant_domains')).toBe(4);
    expect(await count('oidc_clients')).toBe(5);
    expect(await count('users')).toBe(3);
    expect((await listPartners(t.services.db, 'grand-hotel')).map((partner) => partner.code)).toEqual([
      'demo-partner',
    ]);
    const versions = await t.services.db.selectFrom('tenants').select('version').execute();
    expect(versions.map((row) => Number(row.version))).toEqual([1, 1, 1]);
  });
});
