import { createHash } from 'node:crypto';
import { type Kysely, type Migration, sql } from 'kysely';
import type { ChainedContent } from '../audit-chain-format.ts';
import { entryHash, genesisHash } from '../audit-chain-format.ts';

// Migrations describe the schema as it was at their time, not today's types.
// biome-ignore lint/suspicious/noExplicitAny: Kysely's documented type for migrations
type AnyDb = Kysely<any>;

/** Is the database PostgreSQL? (Triggers are written differently on each engine.) */
async function isPostgres(db: AnyDb): Promise<boolean> {
  try {
    await sql`select version()`.execute(db);
    return true;
  } catch {
    return false;
  }
}

/** Admin API migrations (docs/admin-api.md), named '8xxx_…'. */
/**
 * The client-secret digest as migration 8005 wrote it. It is the stored format that
 * platform/security/client-secret.ts reads; a migration keeps its own copy so that it still
 * does what it did when it ran.
 */
const digestPrefix = 'sha256:';
const secretDigest = (secret: string) =>
  `${digestPrefix}${createHash('sha256').update(secret, 'utf8').digest('base64url')}`;

export const adminMigrations: Record<string, Migration> = {
  /**
   * The audit log: who changed what, when, with the changed fields before and after (secrets
   * removed). Append-only in the database itself: a trigger refuses every UPDATE and DELETE,
   * so not even a bug (or an operator with the application's credentials) rewrites history
   * through Keycard. No foreign keys: an entry outlives its tenant, user or client.
   */
  '8001_audit_log': {
    async up(db: AnyDb) {
      await db.schema
        .createTable('audit_log')
        .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addColumn('actor_kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('actor_id', 'varchar(255)')
        .addColumn('tenant_code', 'varchar(64)')
        .addColumn('action', 'varchar(64)', (c) => c.notNull())
        .addColumn('target_kind', 'varchar(32)', (c) => c.notNull())
        .addColumn('target_id', 'varchar(255)', (c) => c.notNull())
        .addColumn('before', 'text')
        .addColumn('after', 'text')
        .execute();
      await db.schema.createIndex('audit_log_at').on('audit_log').columns(['at', 'id']).execute();
      await db.schema
        .createIndex('audit_log_tenant_at')
        .on('audit_log')
        .columns(['tenant_code', 'at'])
        .execute();
      if (await isPostgres(db)) {
        await sql`
          create function audit_log_append_only() returns trigger language plpgsql as $$
          begin
            raise exception 'audit_log is append-only';
          end;
          $$`.execute(db);
        await sql`
          create trigger audit_log_append_only before update or delete on audit_log
          for each row execute function audit_log_append_only()`.execute(db);
        await sql`
          create trigger audit_log_no_truncate before truncate on audit_log
          for each statement execute function audit_log_append_only()`.execute(db);
      } else {
        await sql`
          create trigger audit_log_no_update before update on audit_log
          begin select raise(abort, 'audit_log is append-only'); end`.execute(db);
        await sql`
          create trigger audit_log_no_delete before delete on audit_log
          begin select raise(abort, 'audit_log is append-only'); end`.execute(db);
      }
    },
  },
  /**
   * Operators: who may use the admin API, and as what. A human operator is a user of the
   * operator tenant; a machine operator is one of its OAuth clients (client credentials).
   */
  '8002_operators': {
    async up(db: AnyDb) {
      await db.schema
        .createTable('operators')
        .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
        .addColumn('kind', 'varchar(8)', (c) => c.notNull())
        .addColumn('subject', 'varchar(255)', (c) => c.notNull())
        .addColumn('role', 'varchar(16)', (c) => c.notNull())
        .addColumn('tenants', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('operators_kind_subject', ['kind', 'subject'])
        .execute();
      // A disabled client is kept here, out of the provider's sight, until it is enabled.
      await db.schema
        .createTable('disabled_clients')
        .addColumn('tenant_code', 'varchar(64)', (c) =>
          c.notNull().references('tenants.code').onDelete('cascade'),
        )
        .addColumn('client_id', 'varchar(128)', (c) => c.notNull())
        .addColumn('metadata', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('disabled_clients_pk', ['tenant_code', 'client_id'])
        .execute();
    },
  },
  /** Theme images uploaded through the admin API, by content hash (admin/assets.service.ts). */
  '8003_tenant_assets': {
    async up(db: AnyDb) {
      await db.schema
        .createTable('tenant_assets')
        .addColumn('tenant_code', 'varchar(64)', (c) =>
          c.notNull().references('tenants.code').onDelete('cascade'),
        )
        .addColumn('id', 'varchar(64)', (c) => c.notNull())
        .addColumn('content_type', 'varchar(64)', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('tenant_assets_pk', ['tenant_code', 'id'])
        .execute();
    },
  },
  /**
   * One change at a time to a tenant through the admin API, across instances: a lease row per
   * tenant (admin/tenant-lease.ts withTenantLease), taken by an insert that only one request
   * can make, and given up after the change (or taken over once it has expired).
   */
  '8004_tenant_change_leases': {
    async up(db: AnyDb) {
      await db.schema
        .createTable('tenant_change_leases')
        .addColumn('tenant_code', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('holder', 'varchar(36)', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
  /**
   * Client secrets become SHA-256 digests (oidc/client-secret.ts): every secret stored as it
   * was, in either client table, is replaced by its digest. The clients keep working: the
   * provider compares the digest of what they present.
   */
  '8005_client_secret_digests': {
    async up(db: AnyDb) {
      for (const table of ['oidc_clients', 'disabled_clients']) {
        const rows = (await db
          .selectFrom(table)
          .select(['tenant_code', 'client_id', 'metadata'])
          .execute()) as Array<{
          tenant_code: string;
          client_id: string;
          metadata: string;
        }>;
        for (const row of rows) {
          const metadata = JSON.parse(row.metadata) as { client_secret?: unknown };
          if (typeof metadata.client_secret !== 'string' || metadata.client_secret.startsWith(digestPrefix))
            continue;
          metadata.client_secret = secretDigest(metadata.client_secret);
          await db
            .updateTable(table)
            .set({ metadata: JSON.stringify(metadata) })
            .where('tenant_code', '=', row.tenant_code)
            .where('client_id', '=', row.client_id)
            .execute();
        }
      }
    },
  },
  /**
   * The audit log's hash chain (admin/audit-chain.ts): each entry's position, the previous
   * entry's hash and its own, and a one-row head that appends lock in turn. The entries that
   * exist are chained in the order they were written (time, then id); the append-only
   * triggers are set aside for that one update, by the owner, inside this migration.
   */
  '9101_audit_chain': {
    async up(db: AnyDb) {
      const postgres = await isPostgres(db);
      await db.schema.alterTable('audit_log').addColumn('seq', 'bigint').execute();
      await db.schema.alterTable('audit_log').addColumn('prev_hash', 'varchar(64)').execute();
      await db.schema.alterTable('audit_log').addColumn('hash', 'varchar(64)').execute();
      await db.schema
        .createTable('audit_chain_head')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('seq', 'bigint', (c) => c.notNull())
        .addColumn('hash', 'varchar(64)', (c) => c.notNull())
        .execute();
      if (postgres) {
        await sql`alter table audit_log disable trigger audit_log_append_only`.execute(db);
      } else {
        await sql`drop trigger audit_log_no_update`.execute(db);
      }
      const rows = (await db
        .selectFrom('audit_log')
        .selectAll()
        .orderBy('at')
        .orderBy('id')
        .execute()) as ChainedContent[];
      let seq = 0;
      let hash = genesisHash;
      for (const row of rows) {
        seq += 1;
        const next = entryHash(hash, row);
        await db
          .updateTable('audit_log')
          .set({ seq, prev_hash: hash, hash: next })
          .where('id', '=', row.id)
          .execute();
        hash = next;
      }
      if (postgres) {
        await sql`alter table audit_log enable trigger audit_log_append_only`.execute(db);
      } else {
        await sql`
          create trigger audit_log_no_update before update on audit_log
          begin select raise(abort, 'audit_log is append-only'); end`.execute(db);
      }
      await db.insertInto('audit_chain_head').values({ id: 1, seq, hash }).execute();
      await db.schema.createIndex('audit_log_seq').on('audit_log').column('seq').unique().execute();
    },
  },
  /**
   * Audit sinks (admin/audit-sink.ts): how far each has shipped, and a lease so that one
   * instance at a time ships to it.
   */
  '9102_audit_sink_cursors': {
    async up(db: AnyDb) {
      await db.schema
        .createTable('audit_sink_cursors')
        .addColumn('sink', 'varchar(16)', (c) => c.primaryKey())
        .addColumn('seq', 'bigint', (c) => c.notNull())
        .addColumn('holder', 'varchar(36)')
        .addColumn('lease_until', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
};
