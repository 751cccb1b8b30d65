import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Client secrets are kept as SHA-256 digests, never as they are: a copy of the database (a
 * backup, a replica, an injection) hands out no client's secret. Keycard's secrets are 256
 * random bits (or an operator's, from an environment variable); the clients authenticate with
 * client_secret_basic or _post only, so the provider needs the secret for nothing but the
 * comparison (no HS256 signing, no secret-derived encryption keys).
 */
const prefix = 'sha256:';

export function hashClientSecret(secret: string): string {
  return `${prefix}${createHash('sha256').update(secret, 'utf8').digest('base64url')}`;
}

export function isHashedClientSecret(stored: string | undefined): boolean {
  return typeof stored === 'string' && stored.startsWith(prefix);
}

/**
 * Whether a presented secret is the stored one, in constant time. A secret stored before
 * digests (migration 8005 converts them) is compared as it is.
 */
export function clientSecretMatches(stored: string | undefined, presented: string | undefined): boolean {
  if (typeof stored !== 'string' || typeof presented !== 'string') return false;
  const expected = Buffer.from(isHashedClientSecret(stored) ? stored : hashClientSecret(stored));
  const actual = Buffer.from(hashClientSecret(presented));
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
