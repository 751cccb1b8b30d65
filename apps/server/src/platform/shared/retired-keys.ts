import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { addRetiredKeys, decrypt, encrypt, keysOf, resealed } from './crypto.ts';

/**
 * Recovery codes and phone codes are stored as HMACs keyed with ENCRYPTION_KEY
 * (factors/mfa-crypto.ts). Unlike sealed values, they cannot be re-keyed without the codes, so
 * a key dropped from ENCRYPTION_KEY would silently void every recovery code made under it.
 * `keycard rotate-encryption-key` therefore keeps each older key here, sealed with the newest,
 * and every instance loads them at start to check such codes — and for nothing else.
 * `--forget-retired` drops them (docs/operations.md#rotating-secrets).
 */

declare module '../db/schema.ts' {
  interface Database {
    retired_encryption_keys: RetiredEncryptionKeysTable;
  }
}

export interface RetiredEncryptionKeysTable {
  /** A digest of the key (never the key): the same key is kept once. */
  id: string;
  /** The key, hex, sealed with the newest key (shared/crypto.ts). */
  sealed_key: string;
  retired_at: number;
}

/** A stable name for a key that says nothing of it. */
export function keyId(key: Buffer): string {
  return createHash('sha256')
    .update('keycard retired key\u0000')
    .update(key)
    .digest('base64url')
    .slice(0, 43);
}

/** Keeps every older key of the ring; seals the ones kept before with the newest. */
export async function retireOlderKeys(
  db: Kysely<Database>,
  ring: Buffer,
  now: number,
): Promise<{ kept: number; resealed: number; unreadable: number }> {
  let kept = 0;
  for (const older of keysOf(ring).slice(1)) {
    const result = await db
      .insertInto('retired_encryption_keys')
      .values({ id: keyId(older), sealed_key: encrypt(ring, older.toString('hex')), retired_at: now })
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    kept += Number(result.numInsertedOrUpdatedRows ?? 0);
  }
  let resealedCount = 0;
  let unreadable = 0;
  const rows = await db.selectFrom('retired_encryption_keys').select(['id', 'sealed_key']).execute();
  for (const row of rows) {
    let next: string | null;
    try {
      next = resealed(ring, row.sealed_key);
    } catch {
      unreadable++;
      continue;
    }
    if (next === null) continue;
    const result = await db
      .updateTable('retired_encryption_keys')
      .set({ sealed_key: next })
      .where('id', '=', row.id)
      .where('sealed_key', '=', row.sealed_key)
      .executeTakeFirst();
    resealedCount += Number(result.numUpdatedRows);
  }
  return { kept, resealed: resealedCount, unreadable };
}

/** Drops the retired keys: codes keyed with them are no longer accepted. */
export async function forgetRetiredKeys(db: Kysely<Database>): Promise<number> {
  const result = await db.deleteFrom('retired_encryption_keys').executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * At start: the retired keys join the ring for checking keyed hashes. Answers how many were
 * loaded and how many no listed key opens (kept by a newer key this instance does not have).
 */
export async function useRetiredKeys(
  db: Kysely<Database>,
  ring: Buffer,
): Promise<{ loaded: number; unreadable: number }> {
  const rows = await db.selectFrom('retired_encryption_keys').select('sealed_key').execute();
  const keys: Buffer[] = [];
  let unreadable = 0;
  for (const row of rows) {
    try {
      keys.push(Buffer.from(decrypt(ring, row.sealed_key), 'hex'));
    } catch {
      unreadable++;
    }
  }
  addRetiredKeys(ring, keys);
  return { loaded: keys.length, unreadable };
}
