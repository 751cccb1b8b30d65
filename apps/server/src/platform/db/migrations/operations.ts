import type { Kysely, Migration } from 'kysely';

// Migrations describe the schema as it was at their time, not today's types.
// biome-ignore lint/suspicious/noExplicitAny: Kysely's documented type for migrations
type AnyDb = Kysely<any>;

/** Operations (issue 20), named '95xx_…'. */
export const operationsMigrations: Record<string, Migration> = {
  '9501_retired_encryption_keys': {
    async up(db: AnyDb) {
      // Keys dropped from ENCRYPTION_KEY, sealed with the newest, kept to check the keyed
      // hashes made under them (platform/shared/retired-keys.ts).
      await db.schema
        .createTable('retired_encryption_keys')
        .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('sealed_key', 'text', (c) => c.notNull())
        .addColumn('retired_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
};
