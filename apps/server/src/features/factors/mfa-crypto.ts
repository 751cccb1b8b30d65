import { createHmac, randomInt } from 'node:crypto';
import { hashKeysOf } from '../../platform/shared/crypto.ts';

/**
 * Short secrets (6-digit phone codes, 50-bit recovery codes) are stored as an HMAC keyed with
 * the server's encryption key: a plain hash of a 6-digit code is reversed by trying a million
 * values, an HMAC is not without the key. The label separates the uses of the key.
 */
export function keyedHash(key: Buffer, label: string, value: string): string {
  return createHmac('sha256', key).update(label).update('\u0000').update(value).digest('base64url');
}

/**
 * The keyed hash of a value under every key it may have been made with, newest first: the
 * ring of ENCRYPTION_KEY, then the keys retired from it (shared/retired-keys.ts). A code
 * stored before a rotation matches an older one: a keyed hash cannot be re-keyed without
 * the value, so it keeps needing its key.
 */
export function keyedHashes(key: Buffer, label: string, value: string): string[] {
  return hashKeysOf(key).map((candidate) => keyedHash(candidate, label, value));
}

/** A uniformly random string of digits (crypto.randomInt, no modulo bias). */
export function randomDigits(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += String(randomInt(0, 10));
  return out;
}

// Lower-case letters and digits without the look-alikes i, l, o, u.
const recoveryAlphabet = '0123456789abcdefghjkmnpqrstvwxyz';

/** A recovery code: 10 characters of a 32-letter alphabet (50 bits), shown as `xxxxx-xxxxx`. */
export function randomRecoveryCode(): string {
  let out = '';
  for (let i = 0; i < 10; i++) out += recoveryAlphabet[randomInt(0, recoveryAlphabet.length)];
  return `${out.slice(0, 5)}-${out.slice(5)}`;
}

/** What a user typed, reduced to the stored form: lower case, no separators or spaces. */
export function normaliseRecoveryCode(value: string): string {
  return value.toLowerCase().replace(/[^0-9a-z]/g, '');
}
