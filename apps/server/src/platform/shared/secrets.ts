import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.ts';

export interface Secrets {
  /** Keys for signed cookies (newest first), shared with oidc-provider's cookie keys. */
  cookieKeys: string[];
  /** 32-byte key for encrypting data at rest (signing keys, TOTP secrets). */
  encryptionKey: Buffer;
}

/**
 * Production takes secrets from the environment (checked in loadConfig). The embedded mode
 * generates them once and keeps them in the data directory (mode 0600), so restarts keep
 * sessions and encrypted data readable.
 */
export async function loadSecrets(config: Config): Promise<Secrets> {
  if (config.cookieSecret && config.encryptionKey) {
    return { cookieKeys: [config.cookieSecret], encryptionKey: Buffer.from(config.encryptionKey, 'hex') };
  }
  if (!config.embedded) throw new Error('production needs COOKIE_SECRET and ENCRYPTION_KEY');
  await mkdir(config.dataDir, { recursive: true });
  const file = path.join(config.dataDir, 'secrets.json');
  let stored: { cookieSecret: string; encryptionKey: string };
  try {
    stored = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    stored = {
      cookieSecret: randomBytes(32).toString('base64url'),
      encryptionKey: randomBytes(32).toString('hex'),
    };
    await writeFile(file, JSON.stringify(stored), { mode: 0o600, flag: 'wx' });
  }
  return {
    cookieKeys: [config.cookieSecret ?? stored.cookieSecret],
    encryptionKey: Buffer.from(config.encryptionKey ?? stored.encryptionKey, 'hex'),
  };
}
