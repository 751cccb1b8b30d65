import { type Kysely, type Migration, Migrator, sql } from 'kysely';
import { accountMigrations } from './migrations/account.ts';
import { adminMigrations } from './migrations/admin.ts';
import { idempotencyMigrations } from './migrations/idempotency.ts';
import { lifecycleMigrations } from './migrations/lifecycle.ts';
import { mfaMigrations } from './migrations/mfa.ts';
import { mobileMigrations } from './migrations/mobile.ts';
import { operationsMigrations } from './migrations/operations.ts';
import { partnerMigrations } from './migrations/partners.ts';
import { passkeyMigrations } from './migrations/passkeys.ts';
import { signInMigrations } from './migrations/sign-in.ts';

// Migrations describe the schema as it was at their time, not today's types.
// biome-ignore lint/suspicious/noExplicitAny: Kysely's documented type for migrations
type AnyDb = Kysely<any>;

/** One set of migrations for both engines: only portable column types. */
const foundation: Record<string, Migration> = {
  '0001_foundation': {
    async up(db: AnyDb) {
      await db.schema
        .createTable('tenants')
        .addColumn('code', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('alias_code', 'varchar(64)')
        .addColumn('login_domain', 'varchar(253)', (c) => c.notNull().unique())
        .addColumn('login_client_id', 'varchar(128)', (c) => c.notNull())
        .addColumn('theme', 'text', (c) => c.notNull())
        .addColumn('default_redirect_uri', 'text', (c) => c.notNull())
        .addColumn('settings', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('tenant_domains')
        .addColumn('domain', 'varchar(253)', (c) => c.primaryKey())
        .addColumn('tenant_code', 'varchar(64)', (c) =>
          c.notNull().references('tenants.code').onDelete('cascade'),
        )
        .execute();
      await db.schema
        .createTable('oidc_clients')
        .addColumn('tenant_code', 'varchar(64)', (c) =>
          c.notNull().references('tenants.code').onDelete('cascade'),
        )
        .addColumn('client_id', 'varchar(128)', (c) => c.notNull())
        .addColumn('metadata', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('oidc_clients_pk', ['tenant_code', 'client_id'])
        .execute();
      await db.schema
        .createTable('users')
        .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
        .addColumn('tenant_code', 'varchar(64)', (c) =>
          c.notNull().references('tenants.code').onDelete('cascade'),
        )
        .addColumn('email', 'varchar(254)', (c) => c.notNull())
        .addColumn('type', 'varchar(32)', (c) => c.notNull())
        .addColumn('locale', 'varchar(8)', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('password_hash', 'text')
        .addColumn('password_changed_at', 'bigint')
        .addColumn('email_verified', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('email_verification_required', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('failed_logins', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('locked_until', 'bigint')
        .addColumn('secret_question', 'varchar(64)')
        .addColumn('secret_answer_hash', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('users_tenant_email', ['tenant_code', 'email'])
        .execute();
      await db.schema
        .createTable('password_history')
        .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
        .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('password_history_user').on('password_history').column('user_id').execute();
      await db.schema
        .createTable('sessions')
        .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('tenant_code', 'varchar(64)', (c) =>
          c.notNull().references('tenants.code').onDelete('cascade'),
        )
        .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('provider', 'varchar(16)', (c) => c.notNull())
        .addColumn('partner_code', 'varchar(64)')
        .addColumn('mfa_verified_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();
      await db.schema
        .createTable('one_time_tokens')
        .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('tenant_code', 'varchar(64)', (c) =>
          c.notNull().references('tenants.code').onDelete('cascade'),
        )
        .addColumn('user_id', 'varchar(36)', (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('purpose', 'varchar(32)', (c) => c.notNull())
        .addColumn('data', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('consumed_at', 'bigint')
        .execute();
      await db.schema
        .createTable('oidc_payloads')
        .addColumn('tenant_code', 'varchar(64)', (c) => c.notNull())
        .addColumn('model', 'varchar(64)', (c) => c.notNull())
        .addColumn('id', 'varchar(255)', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('grant_id', 'varchar(255)')
        .addColumn('user_code', 'varchar(255)')
        .addColumn('uid', 'varchar(255)')
        .addColumn('expires_at', 'bigint')
        .addColumn('consumed_at', 'bigint')
        .addPrimaryKeyConstraint('oidc_payloads_pk', ['tenant_code', 'model', 'id'])
        .execute();
      await db.schema
        .createIndex('oidc_payloads_grant')
        .on('oidc_payloads')
        .columns(['tenant_code', 'grant_id'])
        .execute();
      await db.schema
        .createIndex('oidc_payloads_uid')
        .on('oidc_payloads')
        .columns(['tenant_code', 'uid'])
        .execute();
      await db.schema
        .createTable('signing_keys')
        .addColumn('tenant_code', 'varchar(64)', (c) =>
          c.notNull().references('tenants.code').onDelete('cascade'),
        )
        .addColumn('kid', 'varchar(128)', (c) => c.notNull())
        .addColumn('sealed_jwk', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('signing_keys_pk', ['tenant_code', 'kid'])
        .execute();
      await db.schema
        .createTable('rate_limits')
        .addColumn('key', 'varchar(255)', (c) => c.primaryKey())
        .addColumn('window_start', 'bigint', (c) => c.notNull())
        .addColumn('count', 'integer', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('outbox')
        .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
        .addColumn('tenant_code', 'varchar(64)', (c) => c.notNull())
        .addColumn('channel', 'varchar(16)', (c) => c.notNull())
        .addColumn('recipient', 'varchar(254)', (c) => c.notNull())
        .addColumn('template', 'varchar(64)', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('sent_at', 'bigint')
        .addColumn('last_error', 'text')
        .execute();
      await db.schema.createIndex('outbox_due').on('outbox').columns(['status', 'next_attempt_at']).execute();
    },
  },
};

// Kysely applies migrations in name order: 0xxx foundation, 1xxx lifecycle, 2xxx MFA, 3xxx sign-in,
// 4xxx partners, 5xxx mobile-app MFA, 6xxx idempotency keys, 8xxx admin API (audit log, operators),
// 91xx the audit log's hash chain and sinks, 93xx passkeys, 94xx the account page, 95xx operations.
const migrations: Record<string, Migration> = {
  ...foundation,
  ...lifecycleMigrations,
  ...mfaMigrations,
  ...signInMigrations,
  ...partnerMigrations,
  ...mobileMigrations,
  ...idempotencyMigrations,
  ...adminMigrations,
  ...passkeyMigrations,
  ...accountMigrations,
  ...operationsMigrations,
};

export async function migrateToLatest(db: AnyDb): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed`, { cause: error });
  }
}

/** Applies the migrations up to and including name (tests of a migration's data step). */
export async function migrateTo(db: AnyDb, name: string): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error } = await migrator.migrateTo(name);
  if (error) throw new Error(`database migration to ${name} failed`, { cause: error });
}

/** Every migration this code knows, in the order they apply (a restored backup is checked against it). */
export function migrationNames(): string[] {
  return Object.keys(migrations).sort();
}

/** Migrations this code knows that the database has not applied (read without writing). */
export async function pendingMigrations(db: AnyDb): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
  const applied = new Set(rows.map((row) => row.name));
  return Object.keys(migrations)
    .filter((name) => !applied.has(name))
    .sort();
}

export { sql };
