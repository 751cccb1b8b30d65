import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, publicOrigin } from './config.ts';
import { decrypt, encrypt, keyRing } from './shared/crypto.ts';
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

  it('trusts no proxy by default, every proxy for true, or only the listed load balancers', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: ' 10.0.0.0/8, 192.168.1.10,fd00::/8 ' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.168.1.10',
      'fd00::/8',
    ]);
    for (const bad of ['2', 'lb.internal', '10.0.0.0/33', '10.0.0.0/8,', 'fd00::/129', '10.0.0.1/8/8', '']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(
        /TRUST_PROXY: must be true, false, or the load balancers/,
      );
    }
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

describe('push provider settings', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'keycard-push-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, text: string) => {
    const file = path.join(dir, name);
    writeFileSync(file, text);
    return file;
  };
  const pem = (key: { export(options: { type: 'pkcs8'; format: 'pem' }): string | Buffer }) =>
    key.export({ type: 'pkcs8', format: 'pem' }).toString();
  const rsaKey = pem(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey);
  const p256Key = pem(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey);
  const serviceAccount = {
    type: 'service_account',
    project_id: 'keycard-authenticator',
    private_key_id: 'f00dfeed',
    private_key: rsaKey,
    client_email: 'push@keycard-authenticator.iam.gserviceaccount.com',
    token_uri: 'https://oauth2.googleapis.com/token',
  };
  const accountFile = write('service-account.json', JSON.stringify(serviceAccount));
  const p8File = write('AuthKey_ABCDE12345.p8', p256Key);
  const fcmEnv = { FCM_PROJECT_ID: 'keycard-authenticator', FCM_SERVICE_ACCOUNT_FILE: accountFile };
  const apnsEnv = {
    APNS_TEAM_ID: 'TEAM123456',
    APNS_KEY_ID: 'ABCDE12345',
    APNS_KEY_FILE: p8File,
    APNS_BUNDLE_ID: 'com.example.authenticator',
  };
  const production = {
    NODE_ENV: 'production',
    COOKIE_SECRET: 'x'.repeat(32),
    ENCRYPTION_KEY: 'ab'.repeat(32),
    DATABASE_URL: 'postgres://db/keycard',
  };

  it('are off by default: pushes stay in the outbox', () => {
    expect(loadConfig({})).toMatchObject({ fcm: undefined, apns: undefined });
  });

  it('read FCM from the project id and the service account key file, with Google’s address by default', () => {
    expect(loadConfig(fcmEnv).fcm).toEqual({
      projectId: 'keycard-authenticator',
      clientEmail: serviceAccount.client_email,
      privateKey: rsaKey,
      privateKeyId: 'f00dfeed',
      tokenUri: 'https://oauth2.googleapis.com/token',
      baseUrl: 'https://fcm.googleapis.com',
    });
    expect(loadConfig({ ...fcmEnv, FCM_BASE_URL: 'http://127.0.0.1:9099' }).fcm?.baseUrl).toBe(
      'http://127.0.0.1:9099',
    );
  });

  it('read APNs from team, key id, .p8 key and bundle id, with Apple’s production address by default', () => {
    expect(loadConfig(apnsEnv).apns).toEqual({
      teamId: 'TEAM123456',
      keyId: 'ABCDE12345',
      privateKey: p256Key,
      bundleId: 'com.example.authenticator',
      baseUrl: 'https://api.push.apple.com',
    });
  });

  it('go together, like the Twilio settings', () => {
    expect(() => loadConfig({ FCM_PROJECT_ID: 'keycard-authenticator' })).toThrow(
      /FCM_PROJECT_ID and FCM_SERVICE_ACCOUNT_FILE go together/,
    );
    expect(() => loadConfig({ ...apnsEnv, APNS_BUNDLE_ID: undefined })).toThrow(
      /APNS_TEAM_ID, APNS_KEY_ID, APNS_KEY_FILE and APNS_BUNDLE_ID go together/,
    );
  });

  it('name the bad variable when a value or a key file is wrong', () => {
    expect(() => loadConfig({ ...fcmEnv, FCM_PROJECT_ID: 'Keycard_Project' })).toThrow(
      /FCM_PROJECT_ID: must be/,
    );
    expect(() => loadConfig({ ...apnsEnv, APNS_TEAM_ID: 'team' })).toThrow(/APNS_TEAM_ID: must be/);
    expect(() => loadConfig({ ...apnsEnv, APNS_BUNDLE_ID: 'authenticator' })).toThrow(
      /APNS_BUNDLE_ID: must be/,
    );
    expect(() => loadConfig({ ...fcmEnv, FCM_SERVICE_ACCOUNT_FILE: path.join(dir, 'missing.json') })).toThrow(
      /FCM_SERVICE_ACCOUNT_FILE: cannot read .*ENOENT/,
    );
    const notJson = write('not-json.json', 'project_id=keycard');
    expect(() => loadConfig({ ...fcmEnv, FCM_SERVICE_ACCOUNT_FILE: notJson })).toThrow(
      /FCM_SERVICE_ACCOUNT_FILE: is not a JSON key file/,
    );
    const userCredentials = write(
      'user.json',
      JSON.stringify({ ...serviceAccount, type: 'authorized_user' }),
    );
    expect(() => loadConfig({ ...fcmEnv, FCM_SERVICE_ACCOUNT_FILE: userCredentials })).toThrow(
      /FCM_SERVICE_ACCOUNT_FILE: is not a service account key file/,
    );
    const ecAccount = write('ec-account.json', JSON.stringify({ ...serviceAccount, private_key: p256Key }));
    expect(() => loadConfig({ ...fcmEnv, FCM_SERVICE_ACCOUNT_FILE: ecAccount })).toThrow(/not an RSA key/);
    expect(() => loadConfig({ ...apnsEnv, APNS_KEY_FILE: write('rsa.p8', rsaKey) })).toThrow(
      /APNS_KEY_FILE: is not a P-256 key/,
    );
    expect(() => loadConfig({ ...apnsEnv, APNS_KEY_FILE: write('garbage.p8', 'not a key') })).toThrow(
      /APNS_KEY_FILE: is not a PEM private key/,
    );
  });

  it('send provider credentials over https only in production', () => {
    expect(loadConfig({ ...production, ...fcmEnv, ...apnsEnv })).toMatchObject({
      fcm: { baseUrl: 'https://fcm.googleapis.com' },
      apns: { baseUrl: 'https://api.push.apple.com' },
    });
    expect(() => loadConfig({ ...production, ...fcmEnv, FCM_BASE_URL: 'http://fcm.internal' })).toThrow(
      /FCM_BASE_URL: must be an https:\/\/ URL in production/,
    );
    expect(() => loadConfig({ ...production, ...apnsEnv, APNS_BASE_URL: 'http://apns.internal' })).toThrow(
      /APNS_BASE_URL: must be an https:\/\/ URL in production/,
    );
    const plainTokenUri = write(
      'plain-token-uri.json',
      JSON.stringify({ ...serviceAccount, token_uri: 'http://oauth2.internal/token' }),
    );
    expect(() => loadConfig({ ...production, ...fcmEnv, FCM_SERVICE_ACCOUNT_FILE: plainTokenUri })).toThrow(
      /token_uri\): must be an https:\/\/ URL in production/,
    );
  });
});

describe('secrets that can be rotated', () => {
  const keyA = 'ab'.repeat(32);
  const keyB = 'CD'.repeat(32);

  it('reads COOKIE_SECRET and ENCRYPTION_KEY as lists, newest first', async () => {
    const config = loadConfig({
      COOKIE_SECRET: `${'n'.repeat(32)}, ${'o'.repeat(40)}`,
      ENCRYPTION_KEY: `${keyB},${keyA}`,
    });
    expect(config.cookieSecret).toBe('n'.repeat(32));
    expect(config.cookieSecrets).toEqual(['n'.repeat(32), 'o'.repeat(40)]);
    expect(config.encryptionKey).toBe(keyB.toLowerCase());
    expect(config.encryptionKeys).toEqual([keyB.toLowerCase(), keyA]);
    const secrets = await loadSecrets(config);
    expect(secrets.cookieKeys).toEqual(config.cookieSecrets);
    // The newest encrypts; every key of the list decrypts.
    expect(secrets.encryptionKey.toString('hex')).toBe(keyB.toLowerCase());
    const older = keyRing([Buffer.from(keyA, 'hex')]);
    expect(decrypt(secrets.encryptionKey, encrypt(older, 'sealed before'))).toBe('sealed before');
    expect(() => decrypt(older, encrypt(secrets.encryptionKey, 'sealed after'))).toThrow();
  });

  it('names a bad entry of a list', () => {
    expect(() => loadConfig({ COOKIE_SECRET: `${'n'.repeat(32)},short` })).toThrow(
      /COOKIE_SECRET: each must be at least 32 characters/,
    );
    expect(() => loadConfig({ ENCRYPTION_KEY: `${keyA},xyz` })).toThrow(
      /ENCRYPTION_KEY: each must be 64 hex characters/,
    );
    expect(() => loadConfig({ ENCRYPTION_KEY: `${keyA},${keyA}` })).toThrow(
      /ENCRYPTION_KEY: lists the same value twice/,
    );
  });

  it('drains for five seconds in production and not at all elsewhere, unless told', () => {
    expect(loadConfig({}).shutdown).toEqual({ drainMs: 0, timeoutMs: 25_000 });
    expect(
      loadConfig({
        NODE_ENV: 'production',
        COOKIE_SECRET: 'x'.repeat(32),
        ENCRYPTION_KEY: keyA,
        DATABASE_URL: 'postgres://db/keycard',
      }).shutdown,
    ).toEqual({ drainMs: 5_000, timeoutMs: 25_000 });
    expect(loadConfig({ SHUTDOWN_DRAIN_SECONDS: '2.5', SHUTDOWN_TIMEOUT_SECONDS: '60' }).shutdown).toEqual({
      drainMs: 2_500,
      timeoutMs: 60_000,
    });
  });
});
