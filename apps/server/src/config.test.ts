import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, publicOrigin } from './config.ts';
import { loadSecrets } from './shared/secrets.ts';

describe('configuration', () => {
  it('has working defaults for the embedded mode', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      embedded: true,
      port: 3000,
      publicScheme: 'http',
      publicPort: 3000,
      seedDemo: true,
    });
    expect(publicOrigin(config, 'grand-hotel.localhost')).toBe('http://grand-hotel.localhost:3000');
  });

  it('names the bad variable when a value is invalid', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL: must be a postgres/);
    expect(() => loadConfig({ ENCRYPTION_KEY: 'short' })).toThrow(/ENCRYPTION_KEY/);
    expect(() => loadConfig({ LOGIN_MAX_FAILURES: '0' })).toThrow(ConfigError);
  });

  it('refuses to start in production without secrets and a database', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(
      /COOKIE_SECRET, ENCRYPTION_KEY, DATABASE_URL/,
    );
    const config = loadConfig({
      NODE_ENV: 'production',
      COOKIE_SECRET: 'x'.repeat(32),
      ENCRYPTION_KEY: 'ab'.repeat(32),
      DATABASE_URL: 'postgres://db/keycard',
    });
    expect(config).toMatchObject({
      embedded: false,
      publicScheme: 'https',
      publicPort: undefined,
      seedDemo: false,
    });
    expect(publicOrigin(config, 'login.example.com')).toBe('https://login.example.com');
  });
});

describe('embedded secrets', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('are generated once, kept private in the data directory, and reused', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'keycard-secrets-'));
    dirs.push(dir);
    const config = loadConfig({ DATA_DIR: dir });
    const first = await loadSecrets(config);
    const second = await loadSecrets(config);
    expect(first.encryptionKey.length).toBe(32);
    expect(second.encryptionKey.equals(first.encryptionKey)).toBe(true);
    expect(second.cookieKeys).toEqual(first.cookieKeys);
    const file = path.join(dir, 'secrets.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8')).cookieSecret).toBe(first.cookieKeys[0]);
  });
});
