import { type Kysely, sql } from 'kysely';
import type { Database } from './schema.ts';

/**
 * The two PostgreSQL roles (docs/operations.md#database-roles): the owner runs the migrations
 * and owns every table; the server runs as an application role that may read and write the
 * tables it serves from but only read and append to the audit log. A role that can alter the
 * log — its owner, a member of its owner, the owner of its schema (who may drop it), a
 * superuser, or one granted UPDATE, DELETE, TRUNCATE or TRIGGER on it — could rewrite history
 * and disable the triggers that keep it append-only; the server refuses to serve on one
 * unless told the set-up is a demo (AUDIT_LOG_PROTECTION=demo).
 */

/** Why the connected role can alter the audit log; empty when it cannot. */
export async function auditLogAlterations(db: Kysely<Database>): Promise<string[]> {
  const { rows } = await sql<{
    role: string;
    superuser: boolean;
    owns_table: boolean;
    owns_schema: boolean;
    owns_trigger_function: boolean;
    can_update: boolean;
    can_delete: boolean;
    can_truncate: boolean;
    can_trigger: boolean;
  }>`
    select
      current_user as role,
      (select rolsuper from pg_roles where rolname = current_user) as superuser,
      pg_has_role(current_user, c.relowner, 'MEMBER') as owns_table,
      pg_has_role(current_user, n.nspowner, 'MEMBER') as owns_schema,
      coalesce((select bool_or(pg_has_role(current_user, p.proowner, 'MEMBER'))
                from pg_proc p where p.proname = 'audit_log_append_only'), false) as owns_trigger_function,
      has_table_privilege(c.oid, 'UPDATE') as can_update,
      has_table_privilege(c.oid, 'DELETE') as can_delete,
      has_table_privilege(c.oid, 'TRUNCATE') as can_truncate,
      has_table_privilege(c.oid, 'TRIGGER') as can_trigger
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.oid = to_regclass('audit_log')`.execute(db);
  const row = rows[0];
  if (!row) return ['the audit log table is missing (run the migrations)'];
  const reasons: string[] = [];
  if (row.superuser) reasons.push(`${row.role} is a superuser`);
  if (row.owns_table) reasons.push(`${row.role} owns audit_log (or is a member of its owner)`);
  if (row.owns_schema) reasons.push(`${row.role} owns the schema of audit_log (and may drop it)`);
  if (row.owns_trigger_function) reasons.push(`${row.role} owns the append-only trigger function`);
  for (const [granted, privilege] of [
    [row.can_update, 'UPDATE'],
    [row.can_delete, 'DELETE'],
    [row.can_truncate, 'TRUNCATE'],
    [row.can_trigger, 'TRIGGER'],
  ] as const) {
    if (granted) reasons.push(`${row.role} has ${privilege} on audit_log`);
  }
  return reasons;
}

export class AuditLogProtectionError extends Error {}

/**
 * Grants the application role what the server needs and no more on the audit log: every
 * table of the schema read and written, the audit log only read and appended to, the migration
 * bookkeeping only read. Run by the owner after each migration (idempotent).
 */
export async function grantAppRole(owner: Kysely<Database>, appRole: string): Promise<void> {
  if (!/^[a-z_][a-z0-9_$]{0,62}$/.test(appRole)) {
    throw new Error(`${appRole} is not a plain role name (lower-case letters, digits, _)`);
  }
  const role = sql.id(appRole);
  const { rows } = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(owner);
  await sql`grant usage on schema ${sql.id(await currentSchema(owner))} to ${role}`.execute(owner);
  // Grants first, then the revocations: a running server never loses what it uses.
  for (const { name } of rows) {
    const table = sql.id(name);
    if (name === 'audit_log') {
      await sql`grant select, insert on ${table} to ${role}`.execute(owner);
      await sql`revoke update, delete, truncate, trigger, references on ${table} from ${role}`.execute(owner);
    } else if (name.startsWith('kysely_migration')) {
      await sql`grant select on ${table} to ${role}`.execute(owner);
      await sql`revoke insert, update, delete, truncate, trigger, references on ${table} from ${role}`.execute(
        owner,
      );
    } else {
      await sql`grant select, insert, update, delete on ${table} to ${role}`.execute(owner);
    }
  }
  await sql`grant usage, select on all sequences in schema ${sql.id(await currentSchema(owner))} to ${role}`.execute(
    owner,
  );
}

async function currentSchema(db: Kysely<Database>): Promise<string> {
  const { rows } = await sql<{ name: string }>`select current_schema() as name`.execute(db);
  return rows[0]!.name;
}

/** The role a connection logs in as. */
export async function currentRole(db: Kysely<Database>): Promise<string> {
  const { rows } = await sql<{ name: string }>`select current_user as name`.execute(db);
  return rows[0]!.name;
}
