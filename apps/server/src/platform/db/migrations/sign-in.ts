import { type Kysely, type Migration, sql } from 'kysely';

// Migrations describe the schema as it was at their time, not today's types.
// biome-ignore lint/suspicious/noExplicitAny: Kysely's documented type for migrations
type AnyDb = Kysely<any>;

/** Sign-in invariants (issue 7), named '3xxx_…' so they sort after the MFA migrations. */
export const signInMigrations: Record<string, Migration> = {
  // Attempt limits as leaky buckets with a lock-until (security/rate-limiter.ts), replacing the
  // clock-aligned fixed windows. One row per key; a reservation is one atomic upsert.
  '3001_attempt_buckets': {
    async up(db: AnyDb) {
      await db.schema
        .createTable('attempt_buckets')
        .addColumn('key', 'varchar(255)', (c) => c.primaryKey())
        .addColumn('level', 'double precision', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('locked_until', 'bigint', (c) => c.notNull().defaultTo(0))
        // The nonce of the last reservation that was let through: how an upsert tells its
        // caller whether it counted (RETURNING shows the row after every concurrent writer).
        .addColumn('reservation', 'varchar(36)', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('attempt_buckets_expiry')
        .on('attempt_buckets')
        .column('expires_at')
        .execute();
      await db.schema.dropTable('rate_limits').execute();
      // The lockout never lived on the user row; these columns were never read.
      await db.schema.alterTable('users').dropColumn('failed_logins').execute();
      await db.schema.alterTable('users').dropColumn('locked_until').execute();
    },
  },
  // One MFA-passed record: how and when the session last passed MFA, on the session itself.
  '3002_session_mfa_record': {
    async up(db: AnyDb) {
      await db.schema.alterTable('sessions').addColumn('mfa_method', 'varchar(16)').execute();
      await sql`update sessions set
          mfa_method = (select c.method from mfa_session_checks c where c.session_id = sessions.id),
          mfa_verified_at = (select c.verified_at from mfa_session_checks c where c.session_id = sessions.id)
        where exists (select 1 from mfa_session_checks c where c.session_id = sessions.id)`.execute(db);
      await db.schema.dropTable('mfa_session_checks').execute();
      // Written once at creation and never again: it said nothing.
      await db.schema.alterTable('sessions').dropColumn('last_seen_at').execute();
    },
  },
  // Provider artifacts carry their account, so a credential change revokes every grant,
  // token and provider session of the user in one statement.
  '3003_oidc_payload_account': {
    async up(db: AnyDb) {
      await db.schema.alterTable('oidc_payloads').addColumn('account_id', 'varchar(255)').execute();
      const rows = await db
        .selectFrom('oidc_payloads')
        .select(['tenant_code', 'model', 'id', 'payload'])
        .execute();
      for (const row of rows as Array<{ tenant_code: string; model: string; id: string; payload: string }>) {
        const accountId = (JSON.parse(row.payload) as { accountId?: unknown }).accountId;
        if (typeof accountId !== 'string') continue;
        await db
          .updateTable('oidc_payloads')
          .set({ account_id: accountId })
          .where('tenant_code', '=', row.tenant_code)
          .where('model', '=', row.model)
          .where('id', '=', row.id)
          .execute();
      }
      await db.schema
        .createIndex('oidc_payloads_account')
        .on('oidc_payloads')
        .columns(['tenant_code', 'account_id'])
        .execute();
    },
  },
  // The app request a session's password step was made for: that session is the fresh
  // sign-in the request asked for (prompt=login, max_age), however fast the password came.
  '3005_session_interaction': {
    async up(db: AnyDb) {
      await db.schema.alterTable('sessions').addColumn('interaction_uid', 'varchar(128)').execute();
    },
  },
  // Browsers that signed in to an account before: their password attempts are counted apart
  // from the address's, so guesses made elsewhere cannot lock the owner out of them.
  '3006_known_browsers': {
    async up(db: AnyDb) {
      await db.schema
        .createTable('known_browsers')
        .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('tenant_code', 'varchar(64)', (c) =>
          c.notNull().references('tenants.code').onDelete('cascade'),
        )
        .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('known_browsers_user').on('known_browsers').column('user_id').execute();
    },
  },
  // A version per tenant, raised by every change to its settings, domains, theme or clients:
  // each instance polls the versions and drops what it cached of a changed tenant.
  '3004_tenant_version': {
    async up(db: AnyDb) {
      await db.schema
        .alterTable('tenants')
        .addColumn('version', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  },
};
