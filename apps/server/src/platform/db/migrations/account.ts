import type { Kysely, Migration } from 'kysely';

// Migrations describe the schema as it was at their time, not today's types.
// biome-ignore lint/suspicious/noExplicitAny: Kysely's documented type for migrations
type AnyDb = Kysely<any>;

/** The account page (issue 18, docs/account.md), named '94xx_…' so they sort after passkeys. */
export const accountMigrations: Record<string, Migration> = {
  // When the password was last proven again in a session (the account page's "confirm it is
  // you"): with the factor, it makes a sign-in recent (sign-in/recent-sign-in.ts).
  '9401_session_reauthentication': {
    async up(db: AnyDb) {
      await db.schema.alterTable('sessions').addColumn('reauthenticated_at', 'bigint').execute();
    },
  },
  // The account page's recent activity (features/accounts/activity.ts): sign-ins, failed ones
  // and security changes, kept 30 days; read per account, newest first.
  '9402_account_activity': {
    async up(db: AnyDb) {
      await db.schema
        .createTable('account_activity')
        .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
        .addColumn('tenant_code', 'varchar(64)', (c) =>
          c.notNull().references('tenants.code').onDelete('cascade'),
        )
        .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('kind', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('user_agent', 'varchar(512)')
        .addColumn('ip', 'varchar(64)')
        .addColumn('detail', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('account_activity_user')
        .on('account_activity')
        .columns(['tenant_code', 'user_id', 'created_at'])
        .execute();
      await db.schema
        .createIndex('account_activity_time')
        .on('account_activity')
        .column('created_at')
        .execute();
    },
  },
  // What the account page shows of a session (features/sessions/session-details.ts): the
  // browser, the address and the last use. A table of its own, one row per session, removed
  // with it, so the sign-in's hot path keeps its one sessions row.
  '9403_session_details': {
    async up(db: AnyDb) {
      await db.schema
        .createTable('session_details')
        .addColumn('session_id', 'varchar(64)', (c) =>
          c.primaryKey().references('sessions.id').onDelete('cascade'),
        )
        .addColumn('tenant_code', 'varchar(64)', (c) =>
          c.notNull().references('tenants.code').onDelete('cascade'),
        )
        .addColumn('user_agent', 'varchar(512)')
        .addColumn('ip', 'varchar(64)')
        .addColumn('last_used_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
};
