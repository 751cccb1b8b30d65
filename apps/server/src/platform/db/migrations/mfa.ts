import type { Kysely, Migration } from 'kysely';

// Migrations describe the schema as it was at their time, not today's types.
// biome-ignore lint/suspicious/noExplicitAny: Kysely's documented type for migrations
type AnyDb = Kysely<any>;

/** MFA migrations, named '2xxx_…' so they sort after the foundation and lifecycle. */
export const mfaMigrations: Record<string, Migration> = {
  '2001_mfa_factors_devices_codes': {
    async up(db: AnyDb) {
      // One row per factor: an authenticator app (secret sealed with AES-256-GCM) or a phone.
      // 'pending' while being registered; at most one 'active' factor per user.
      await db.schema
        .createTable('mfa_factors')
        .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
        .addColumn('tenant_code', 'varchar(64)', (c) =>
          c.notNull().references('tenants.code').onDelete('cascade'),
        )
        .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('type', 'varchar(16)', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('secret_sealed', 'text')
        .addColumn('phone', 'varchar(32)')
        // TOTP replay guard: the last accepted time step, raised only by a conditional UPDATE.
        .addColumn('last_step', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('confirmed_at', 'bigint')
        .addColumn('last_used_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('mfa_factors_user')
        .on('mfa_factors')
        .columns(['user_id', 'status'])
        .execute();

      // Phone codes: only an HMAC of the code is stored; attempts are counted atomically.
      await db.schema
        .createTable('mfa_phone_codes')
        .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
        .addColumn('tenant_code', 'varchar(64)', (c) =>
          c.notNull().references('tenants.code').onDelete('cascade'),
        )
        .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('factor_id', 'varchar(36)', (c) =>
          c.notNull().references('mfa_factors.id').onDelete('cascade'),
        )
        .addColumn('channel', 'varchar(16)', (c) => c.notNull())
        .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('outbox_id', 'varchar(36)')
        // A failure reported after the provider accepted the message (e.g. a busy line).
        .addColumn('delivery_error', 'varchar(64)')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('consumed_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('mfa_phone_codes_user')
        .on('mfa_phone_codes')
        .columns(['user_id', 'created_at'])
        .execute();

      // Trusted devices: the id is the hash of the userDeviceToken the browser keeps.
      await db.schema
        .createTable('mfa_devices')
        .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('tenant_code', 'varchar(64)', (c) =>
          c.notNull().references('tenants.code').onDelete('cascade'),
        )
        .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('last_used_at', 'bigint')
        .execute();
      await db.schema.createIndex('mfa_devices_user').on('mfa_devices').column('user_id').execute();

      await db.schema
        .createTable('mfa_recovery_codes')
        .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
        .addColumn('tenant_code', 'varchar(64)', (c) =>
          c.notNull().references('tenants.code').onDelete('cascade'),
        )
        .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('mfa_recovery_codes_user')
        .on('mfa_recovery_codes')
        .columns(['user_id', 'code_hash'])
        .execute();

      // How this session passed MFA (factor, recovery code or trusted device) and when: a
      // trusted-device sign-in must not mint a new device token, and sensitive actions want a
      // recent factor check.
      await db.schema
        .createTable('mfa_session_checks')
        .addColumn('session_id', 'varchar(64)', (c) =>
          c.primaryKey().references('sessions.id').onDelete('cascade'),
        )
        .addColumn('tenant_code', 'varchar(64)', (c) => c.notNull())
        .addColumn('method', 'varchar(16)', (c) => c.notNull())
        .addColumn('verified_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
  '2002_analytics_events': {
    async up(db: AnyDb) {
      await db.schema
        .createTable('analytics_events')
        .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
        .addColumn('tenant_code', 'varchar(64)', (c) =>
          c.notNull().references('tenants.code').onDelete('cascade'),
        )
        .addColumn('event', 'varchar(64)', (c) => c.notNull())
        .addColumn('user_type', 'varchar(32)')
        .addColumn('user_id', 'varchar(36)')
        .addColumn('properties', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('forwarded_at', 'bigint')
        .addColumn('forward_error', 'varchar(128)')
        .execute();
      await db.schema
        .createIndex('analytics_events_tenant')
        .on('analytics_events')
        .columns(['tenant_code', 'created_at'])
        .execute();
    },
  },
};
