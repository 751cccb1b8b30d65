import type { Kysely, Migration } from 'kysely';

// Migrations describe the schema as it was at their time, not today's types.
// biome-ignore lint/suspicious/noExplicitAny: Kysely's documented type for migrations
type AnyDb = Kysely<any>;

/** Idempotency keys (issue 11 item 5, docs/security.md), named '6xxx_…' to sort last. */
export const idempotencyMigrations: Record<string, Migration> = {
  '6001_idempotency_keys': {
    async up(db: AnyDb) {
      await db.schema
        .createTable('idempotency_keys')
        // SHA-256 of tenant, route, subject (e-mail or session) and the key: neither the
        // address nor the session id is stored in the clear.
        .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('tenant_code', 'varchar(64)', (c) =>
          c.notNull().references('tenants.code').onDelete('cascade'),
        )
        // SHA-256 of the request (path and body): a key reused for another request is refused.
        .addColumn('fingerprint', 'varchar(64)', (c) => c.notNull())
        // Null while the first request runs; then the answer it gave, replayed to repeats.
        .addColumn('status', 'integer')
        .addColumn('body', 'text')
        .addColumn('claimed_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('idempotency_keys_expiry')
        .on('idempotency_keys')
        .column('expires_at')
        .execute();
    },
  },
};
