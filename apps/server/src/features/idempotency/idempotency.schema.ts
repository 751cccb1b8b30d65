/**
 * The idempotency table (migration 6001), owned by this feature and merged into the one
 * `Database` type (platform/db/schema.ts): every `Kysely<Database>` sees it.
 */
declare module '../../platform/db/schema.ts' {
  interface Database {
    idempotency_keys: IdempotencyKeysTable;
  }
}

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
