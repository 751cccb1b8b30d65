import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** A one-time token: 256 bits of randomness, URL-safe. Only its hash is stored. */
export function createToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/**
 * ENCRYPTION_KEY may list several keys, newest first (rotation). Everything that seals or
 * keys a hash is handed one Buffer, the newest key; the older keys ride along with it here,
 * so the features that hold "the key" need not know there are several: `encrypt` uses the
 * newest, `decrypt` (and `keysOf`, for keyed hashes) every one.
 */
const olderKeys = new WeakMap<Buffer, readonly Buffer[]>();

/** The newest key, carrying the older ones for decryption. */
export function keyRing(keys: readonly Buffer[]): Buffer {
  const [newest, ...older] = keys;
  if (!newest) throw new Error('a key ring needs at least one key');
  for (const key of keys) if (key.length !== 32) throw new Error('encryption keys are 32 bytes');
  // A copy of its own, so the same bytes handed in elsewhere do not pick up this ring.
  const ring = Buffer.from(newest);
  olderKeys.set(ring, older);
  return ring;
}

/** Every key a ring holds, newest first (a plain Buffer is a ring of one). */
export function keysOf(key: Buffer): Buffer[] {
  return [key, ...(olderKeys.get(key) ?? [])];
}

/**
 * Keys no longer listed in ENCRYPTION_KEY that keyed hashes made under them still need
 * (shared/retired-keys.ts): they check codes, and never seal or open anything.
 */
const retiredKeys = new WeakMap<Buffer, readonly Buffer[]>();

export function addRetiredKeys(key: Buffer, keys: readonly Buffer[]): void {
  const known = [...keysOf(key), ...(retiredKeys.get(key) ?? [])];
  const added = keys.filter((candidate) => !known.some((k) => k.equals(candidate)));
  retiredKeys.set(key, [...(retiredKeys.get(key) ?? []), ...added]);
}

/** The keys a keyed hash may have been made with: the ring's, then the retired ones. */
export function hashKeysOf(key: Buffer): Buffer[] {
  return [...keysOf(key), ...(retiredKeys.get(key) ?? [])];
}

/** AES-256-GCM with the newest key; output `v1.<iv>.<tag>.<ciphertext>` in base64url. */
export function encrypt(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), body]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

function decryptWith(key: Buffer, sealed: string): string {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('unknown ciphertext format');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

/**
 * Opens what any key of the ring sealed, newest first. GCM's tag tells a wrong key from the
 * right one, so trying them in turn is safe; a value no key opens throws.
 */
export function decrypt(key: Buffer, sealed: string): string {
  let failure: unknown;
  for (const candidate of keysOf(key)) {
    try {
      return decryptWith(candidate, sealed);
    } catch (error) {
      failure ??= error;
    }
  }
  throw failure;
}

/**
 * The value sealed again with the newest key, or null when the newest key sealed it already
 * (`keycard rotate-encryption-key` rewrites only those, so it can run again and again).
 */
export function resealed(key: Buffer, sealed: string): string | null {
  try {
    decryptWith(key, sealed);
    return null;
  } catch {
    return encrypt(key, decrypt(key, sealed));
  }
}
