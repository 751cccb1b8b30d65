import { type Kysely, type Migration, sql } from 'kysely';

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
  // Issue 16: a partner link records whether the account's owner confirmed it; an account the
  // mailbox owner claims (reset, activation, e-mail verification) loses the links nobody
  // confirmed, and the subjects removed from an account are remembered so they are not
  // linked to it again by e-mail.
  '9001_partner_link_confirmation': {
    async up(db: AnyDb) {
      await db.schema.alterTable('partner_identities').addColumn('owner_confirmed_at', 'bigint').execute();
      // Links made on an address verified on both sides, to an account whose owner holds a
      // password, were the owner's (they proved the mailbox to Keycard); the others (provisioned
      // accounts, operator links) were never confirmed.
      await sql`update partner_identities set owner_confirmed_at = linked_at
        where link_method = 'verified-email'
        and exists (select 1 from users u where u.id = partner_identities.user_id and u.password_hash is not null)`.execute(
        db,
      );
      await db.schema
        .createTable('partner_link_refusals')
        .addColumn('tenant_code', 'varchar(64)', (c) => c.notNull())
        .addColumn('partner_code', 'varchar(64)', (c) => c.notNull())
        .addColumn('subject', 'varchar(255)', (c) => c.notNull())
        .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
        // 'owner' (dropped from the account page) or 'claim' (removed when the account was claimed)
        .addColumn('reason', 'varchar(16)', (c) => c.notNull())
        .addColumn('removed_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('partner_link_refusals_pk', [
          'tenant_code',
          'partner_code',
          'subject',
          'user_id',
        ])
        .addForeignKeyConstraint(
          'partner_link_refusals_partner_fk',
          ['tenant_code', 'partner_code'],
          'partners',
          ['tenant_code', 'partner_code'],
          (c) => c.onDelete('cascade'),
        )
        .execute();
      await db.schema
        .createIndex('partner_link_refusals_user')
        .on('partner_link_refusals')
        .column('user_id')
        .execute();
    },
  },
  // Issue 16: when an account last passed MFA with a factor (or a device trusted after one).
  // Kept apart from the factors, which an MFA reset removes, so a partner's skipMfa cannot
  // apply to an account that used a factor within the tenant's trusted-device period.
  '9002_account_mfa_sign_ins': {
    async up(db: AnyDb) {
      await db.schema
        .createTable('account_mfa_sign_ins')
        .addColumn('user_id', 'varchar(36)', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('tenant_code', 'varchar(64)', (c) => c.notNull())
        .addColumn('last_mfa_at', 'bigint', (c) => c.notNull())
        .execute();
      await sql`insert into account_mfa_sign_ins (user_id, tenant_code, last_mfa_at)
        select s.user_id, min(s.tenant_code), max(s.mfa_verified_at) from sessions s
        where s.mfa_verified_at is not null group by s.user_id`.execute(db);
    },
  },
};
