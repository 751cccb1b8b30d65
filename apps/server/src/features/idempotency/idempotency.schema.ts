import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';

/**
 * The idempotency table (migration 6001), owned by this feature; `idempotencyDb` widens a
 * Kysely instance to see it.
 */
// A type alias (not an interface) so it satisfies Kysely's table-map constraint.
export type IdempotencyTables = {
  idempotency_keys: IdempotencyKeysTable;
};

export interface IdempotencyKeysTable {
  id: string;
  tenant_code: string;
  fingerprint: string;
  /** Null while the first request with the key runs. */
  status: number | null;
  /** The JSON answer the first request gave. */
  body: string | null;
  claimed_at: number;
  expires_at: number;
}

export function idempotencyDb(db: Kysely<Database>): Kysely<Database & IdempotencyTables> {
  return db as unknown as Kysely<Database & IdempotencyTables>;
}
