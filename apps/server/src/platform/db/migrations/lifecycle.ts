import type { Kysely, Migration } from 'kysely';

// Migrations describe the schema as it was at their time, not today's types.
// biome-ignore lint/suspicious/noExplicitAny: Kysely's documented type for migrations
type AnyDb = Kysely<any>;

/** Account-lifecycle migrations, named '1xxx_…' so they sort after the foundation. */
export const lifecycleMigrations: Record<string, Migration> = {
  // A used reset link retires the user's other live reset links: find them by user and purpose.
  '1001_one_time_tokens_by_user': {
    async up(db: AnyDb) {
      await db.schema
        .createIndex('one_time_tokens_user_purpose')
        .on('one_time_tokens')
        .columns(['tenant_code', 'user_id', 'purpose'])
        .execute();
    },
  },
};
