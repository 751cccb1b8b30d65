import type { Kysely, Migration } from 'kysely';

// Migrations describe the schema as it was at their time, not today's types.
// biome-ignore lint/suspicious/noExplicitAny: Kysely's documented type for migrations
type AnyDb = Kysely<any>;

/** Mobile-app MFA migrations (docs/mobile-mfa.md), named '5xxx_…' so they sort after partners. */
export const mobileMigrations: Record<string, Migration> = {
  '5001_mobile_mfa': {
    async up(db: AnyDb) {
      // The partner app as the account's primary device: its public key (JWK, P-256) only.
      // At most one 'active' device per user; a replaced one stays 'inactive' for the record.
      await db.schema
        .createTable('mobile_devices')
        .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
        .addColumn('tenant_code', 'varchar(64)', (c) =>
          c.notNull().references('tenants.code').onDelete('cascade'),
        )
        .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('factor_id', 'varchar(36)', (c) => c.notNull())
        .addColumn('name', 'varchar(64)', (c) => c.notNull())
        .addColumn('platform', 'varchar(16)', (c) => c.notNull())
        .addColumn('public_jwk', 'text', (c) => c.notNull())
        .addColumn('push_token', 'text')
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_used_at', 'bigint')
        .addColumn('deactivated_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('mobile_devices_user')
        .on('mobile_devices')
        .columns(['tenant_code', 'user_id', 'status'])
        .execute();

      // Enrolments: only the SHA-256 of the token is stored; single use by a conditional UPDATE.
      await db.schema
        .createTable('mobile_enrolments')
        .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
        .addColumn('tenant_code', 'varchar(64)', (c) =>
          c.notNull().references('tenants.code').onDelete('cascade'),
        )
        .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('session_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('replace_factor', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('status', 'varchar(24)', (c) => c.notNull())
        .addColumn('device_id', 'varchar(36)')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('completed_at', 'bigint')
        .addColumn('finished_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('mobile_enrolments_user')
        .on('mobile_enrolments')
        .columns(['tenant_code', 'user_id', 'status'])
        .execute();

      // Device access tokens (opaque, 256 bits, stored hashed, 1 hour).
      await db.schema
        .createTable('mobile_device_tokens')
        .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('tenant_code', 'varchar(64)', (c) => c.notNull())
        .addColumn('device_id', 'varchar(36)', (c) =>
          c.notNull().references('mobile_devices.id').onDelete('cascade'),
        )
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();

      // Number challenges. pending_user holds the user id while the challenge is PENDING and
      // is cleared by the UPDATE that closes it: its unique index lets one pending challenge
      // per user exist, whatever the concurrency (NULLs do not collide on either engine).
      await db.schema
        .createTable('mobile_challenges')
        .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
        .addColumn('tenant_code', 'varchar(64)', (c) =>
          c.notNull().references('tenants.code').onDelete('cascade'),
        )
        .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('session_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('device_id', 'varchar(36)', (c) => c.notNull())
        .addColumn('pending_user', 'varchar(36)', (c) => c.unique())
        .addColumn('number', 'integer', (c) => c.notNull())
        .addColumn('numbers', 'varchar(32)', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('ip_address', 'varchar(64)')
        .addColumn('user_agent', 'varchar(512)')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('closed_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('mobile_challenges_device')
        .on('mobile_challenges')
        .columns(['device_id', 'status'])
        .execute();

      // Push-fatigue back-off per user.
      await db.schema
        .createTable('mobile_backoff')
        .addColumn('tenant_code', 'varchar(64)', (c) => c.notNull())
        .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('strikes', 'integer', (c) => c.notNull())
        .addColumn('next_allowed_at', 'bigint', (c) => c.notNull())
        .addColumn('muted_until', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('mobile_backoff_pk', ['tenant_code', 'user_id'])
        .execute();

      // Device JWT ids seen, kept until the proof would have expired anyway.
      await db.schema
        .createTable('mobile_used_jtis')
        .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
};
