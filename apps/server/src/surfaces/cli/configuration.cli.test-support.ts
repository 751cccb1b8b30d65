import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { stringify } from 'yaml';
import { runCliOn } from '../../features/accounts/test-support.ts';
import type { Engine } from '../../platform/db/database.ts';
import { buildTestApp, type TestApp } from '../../test/helper.ts';

/** What the `keycard apply` and `export` tests share: files to apply, an app, what they read back. */

export const exampleFile = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../../examples/keycard.example.yaml',
);

let counter = 0;
/** A small tenant of its own per test, so tests in one app never share one. */
export function tenantFile(overrides: Record<string, unknown> = {}) {
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

/**
 * Inside a `describe`: a test app on `engine` and a scratch directory for configuration files,
 * both removed after the tests; environment variables a test stubs are put back after each.
 */
export function useConfigurationCli(engine: Engine) {
  let app: TestApp;
  let dir: string;
  beforeAll(async () => {
    app = await buildTestApp(engine);
    dir = mkdtempSync(path.join(tmpdir(), 'keycard-config-'));
  });
  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });
  afterEach(() => vi.unstubAllEnvs());

  const run = (...argv: string[]) => runCliOn(app, ...argv);
  const write = (name: string, content: unknown) => {
    const file = path.join(dir, name);
    writeFileSync(file, typeof content === 'string' ? content : stringify(content));
    return file;
  };
  const tenantRow = (code: string) =>
    app.services.db.selectFrom('tenants').selectAll().where('code', '=', code).executeTakeFirst();
  const clientOf = async (code: string, clientId: string) => {
    const row = await app.services.db
      .selectFrom('oidc_clients')
      .select('metadata')
      .where('tenant_code', '=', code)
      .where('client_id', '=', clientId)
      .executeTakeFirst();
    return row ? (JSON.parse(row.metadata) as Record<string, unknown>) : undefined;
  };
  const domainsOf = async (code: string) =>
    (
      await app.services.db
        .selectFrom('tenant_domains')
        .select('domain')
        .where('tenant_code', '=', code)
        .orderBy('domain')
        .execute()
    ).map((row) => row.domain);
  return {
    /** The test app (set once the tests run). */
    get app() {
      return app;
    },
    /** The scratch directory of this describe's files. */
    get dir() {
      return dir;
    },
    run,
    write,
    tenantRow,
    clientOf,
    domainsOf,
  };
}
