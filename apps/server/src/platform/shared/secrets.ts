import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.ts';
import { keyRing } from './crypto.ts';

export interface Secrets {
  /** Keys for signed cookies (newest first), shared with oidc-provider's cookie keys. */
  cookieKeys: string[];
  /**
   * The newest 32-byte key for encrypting data at rest (signing keys, TOTP secrets), carrying
   * the older ones of ENCRYPTION_KEY for decryption (shared/crypto.ts keyRing).
   */
  encryptionKey: Buffer;
}

/** The secrets from lists of cookie secrets and hex keys, newest first. */
export function secretsOf(cookieSecrets: readonly string[], encryptionKeys: readonly string[]): Secrets {
  return {
    cookieKeys: [...cookieSecrets],
    encryptionKey: keyRing(encryptionKeys.map((key) => Buffer.from(key, 'hex'))),
  };
}

/**
 * Production takes secrets from the environment (checked in loadConfig). The embedded mode
 * generates them once and keeps them in the data directory (mode 0600), so restarts keep
 * sessions and encrypted data readable; COOKIE_SECRET and ENCRYPTION_KEY, when set, take
 * their place (and may list the stored one after a new one, to rotate).
 */
export async function loadSecrets(config: Config): Promise<Secrets> {
  if (config.cookieSecrets.length > 0 && config.encryptionKeys.length > 0) {
    return secretsOf(config.cookieSecrets, config.encryptionKeys);
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
  return secretsOf(
    config.cookieSecrets.length > 0 ? config.cookieSecrets : [stored.cookieSecret],
    config.encryptionKeys.length > 0 ? config.encryptionKeys : [stored.encryptionKey],
  );
}
