import type { Kysely, Migration } from 'kysely';

// Migrations describe the schema as it was at their time, not today's types.
// biome-ignore lint/suspicious/noExplicitAny: Kysely's documented type for migrations
type AnyDb = Kysely<any>;

/** Partner single sign-on (issue 8), named '4xxx_…' so they sort after the sign-in migrations. */
export const partnerMigrations: Record<string, Migration> = {
  '4001_partners': {
    async up(db: AnyDb) {
      // The partner registry: who may sign users in, with which keys, and where codes may go.
      await db.schema
        .createTable('partners')
        .addColumn('tenant_code', 'varchar(64)', (c) =>
          c.notNull().references('tenants.code').onDelete('cascade'),
        )
        .addColumn('partner_code', 'varchar(64)', (c) => c.notNull())
        .addColumn('display_name', 'varchar(120)', (c) => c.notNull())
        .addColumn('issuer', 'text', (c) => c.notNull())
        .addColumn('jwks_uri', 'text')
        // An inline JWKS (JSON), when the partner publishes no URL.
        .addColumn('jwks', 'text')
        .addColumn('algorithms', 'text', (c) => c.notNull())
        .addColumn('linking', 'varchar(32)', (c) => c.notNull())
        .addColumn('redirect_uris', 'text', (c) => c.notNull())
        .addColumn('help_url_template', 'text')
        .addColumn('skip_mfa', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('partners_pk', ['tenant_code', 'partner_code'])
        .execute();
      // A partner's subject, linked to one Keycard account: how and when it was linked.
      await db.schema
        .createTable('partner_identities')
        .addColumn('tenant_code', 'varchar(64)', (c) => c.notNull())
        .addColumn('partner_code', 'varchar(64)', (c) => c.notNull())
        .addColumn('subject', 'varchar(255)', (c) => c.notNull())
        .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
        // 'verified-email', 'provisioned' or 'operator'
        .addColumn('link_method', 'varchar(32)', (c) => c.notNull())
        // The address both sides had verified when the link was made.
        .addColumn('email_at_link', 'varchar(254)')
        .addColumn('linked_at', 'bigint', (c) => c.notNull())
        .addColumn('last_sign_in_at', 'bigint')
        .addPrimaryKeyConstraint('partner_identities_pk', ['tenant_code', 'partner_code', 'subject'])
        .addForeignKeyConstraint(
          'partner_identities_partner_fk',
          ['tenant_code', 'partner_code'],
          'partners',
          ['tenant_code', 'partner_code'],
          (c) => c.onDelete('cascade'),
        )
        .execute();
      await db.schema
        .createIndex('partner_identities_user')
        .on('partner_identities')
        .column('user_id')
        .execute();
      // Each partner token's jti is accepted once: the primary key makes the second insert
      // fail, atomically on every engine. Rows are swept after the token's expiry.
      await db.schema
        .createTable('partner_token_uses')
        .addColumn('tenant_code', 'varchar(64)', (c) => c.notNull())
        .addColumn('partner_code', 'varchar(64)', (c) => c.notNull())
        .addColumn('jti', 'varchar(255)', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('partner_token_uses_pk', ['tenant_code', 'partner_code', 'jti'])
        .execute();
      await db.schema
        .createIndex('partner_token_uses_expiry')
        .on('partner_token_uses')
        .column('expires_at')
        .execute();
      // The partner identity token of an authx session (SPEC §3), stored hashed.
      await db.schema.alterTable('sessions').addColumn('partner_token_hash', 'varchar(64)').execute();
    },
  },
};
