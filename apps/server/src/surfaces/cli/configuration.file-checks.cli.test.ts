import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { jsonSchemaFile, jsonSchemaText } from '../../features/configuration/json-schema.ts';
import { engines } from '../../test/helper.ts';
import { exampleFile, tenantFile, useConfigurationCli } from './configuration.cli.test-support.ts';

describe.each(engines)('keycard apply and export refusals on %s', (engine) => {
  const cli = useConfigurationCli(engine);
  const { run, write, tenantRow } = cli;

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
      bad((t) => Object.assign(t.theme as object, { fontSize: 'large' })),
      'tenants[0].theme.fontSize: unknown field',
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
    const missing = await run('apply', '-f', path.join(cli.dir, 'missing.yaml'));
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
