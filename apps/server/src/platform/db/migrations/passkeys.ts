import type { Kysely, Migration } from 'kysely';

// Migrations describe the schema as it was at their time, not today's types.
// biome-ignore lint/suspicious/noExplicitAny: Kysely's documented type for migrations
type AnyDb = Kysely<any>;

/** Passkeys (issue 18, docs/passkeys.md), named '93xx_…' so they sort after the audit chain. */
export const passkeyMigrations: Record<string, Migration> = {
  '9301_passkeys': {
    async up(db: AnyDb) {
      // The WebAuthn user handle of an account: random, never the e-mail or the account id, so
      // an authenticator's list shows nothing a stranger could tie to the person.
      await db.schema
        .createTable('passkey_user_handles')
        .addColumn('user_id', 'varchar(36)', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('tenant_code', 'varchar(64)', (c) =>
          c.notNull().references('tenants.code').onDelete('cascade'),
        )
        .addColumn('handle', 'varchar(64)', (c) => c.notNull().unique())
        .execute();
      await db.schema
        .createTable('passkey_credentials')
        .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
        .addColumn('tenant_code', 'varchar(64)', (c) =>
          c.notNull().references('tenants.code').onDelete('cascade'),
        )
        .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
        // base64url of the authenticator's credential id (at most 1023 bytes in WebAuthn L3).
        .addColumn('credential_id', 'varchar(1400)', (c) => c.notNull())
        .addColumn('public_key', 'text', (c) => c.notNull())
        .addColumn('counter', 'bigint', (c) => c.notNull())
        /** JSON array of the transports the authenticator reported (hybrid, internal, usb…). */
        .addColumn('transports', 'text', (c) => c.notNull())
        /** The relying-party ID (login domain) it was made on: it signs in only there. */
        .addColumn('rp_id', 'varchar(253)', (c) => c.notNull())
        .addColumn('aaguid', 'varchar(36)', (c) => c.notNull())
        /** Backup eligible (a synced passkey) and backed up, as the authenticator last said. */
        .addColumn('backup_eligible', 'integer', (c) => c.notNull())
        .addColumn('backed_up', 'integer', (c) => c.notNull())
        .addColumn('name', 'varchar(64)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_used_at', 'bigint')
        .addUniqueConstraint('passkey_credentials_credential', ['tenant_code', 'credential_id'])
        .execute();
      await db.schema
        .createIndex('passkey_credentials_user')
        .on('passkey_credentials')
        .columns(['tenant_code', 'user_id'])
        .execute();
    },
  },
  '9302_passkey_challenges': {
    async up(db: AnyDb) {
      // One row per ceremony (sign-in, creation, verification): the challenge's hash, bound to
      // the tenant, the domain (RP ID), the purpose, the browser (a hash of its HttpOnly
      // ceremony cookie) and, for a signed-in ceremony, the session. Consumed by one guarded
      // UPDATE, so a challenge is used once however many requests race for it.
      await db.schema
        .createTable('passkey_challenges')
        .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('tenant_code', 'varchar(64)', (c) =>
          c.notNull().references('tenants.code').onDelete('cascade'),
        )
        .addColumn('purpose', 'varchar(16)', (c) => c.notNull())
        .addColumn('rp_id', 'varchar(253)', (c) => c.notNull())
        .addColumn('browser', 'varchar(64)', (c) => c.notNull())
        .addColumn('session_id', 'varchar(64)')
        .addColumn('user_id', 'varchar(36)')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('consumed_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('passkey_challenges_expiry')
        .on('passkey_challenges')
        .columns(['expires_at'])
        .execute();
    },
  },
};
