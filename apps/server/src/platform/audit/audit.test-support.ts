import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { postgresAdminUrl } from '../../test/helper.ts';
import type { Db, Engine } from '../db/database.ts';
import { openDatabase } from '../db/database.ts';
import type { Database } from '../db/schema.ts';

/** A PostgreSQL database of its own, created by the superuser (optionally owned by a role). */
export async function scratchPostgres(
  owner?: string,
): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const name = `keycard_audit_${randomBytes(6).toString('hex')}`;
  await superuser(`create database ${name}${owner ? ` owner ${owner}` : ''}`);
  const url = new URL(postgresAdminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    name,
    drop: () => superuser(`drop database if exists ${name} with (force)`),
  };
}

/** Runs statements as the postgres superuser on the server's maintenance database. */
export async function superuser(statement: string, database?: string): Promise<void> {
  const url = new URL(postgresAdminUrl);
  if (database) url.pathname = `/${database}`;
  const client = new pg.Client({ connectionString: url.href });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** An opened, migrated database on the engine, and how to remove it. */
export async function scratchDatabase(
  engine: Engine,
  options: { migrate?: boolean } = {},
): Promise<{ db: Db; url: string | undefined; drop(): Promise<void> }> {
  if (engine === 'sqlite') {
    const dir = mkdtempSync(path.join(tmpdir(), 'keycard-audit-'));
    const db = await openDatabase({
      sqliteFile: path.join(dir, 'audit.sqlite'),
      migrate: options.migrate ?? true,
    });
    return {
      db,
      url: undefined,
      drop: async () => {
        await db.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const scratch = await scratchPostgres();
  const db = await openDatabase({ databaseUrl: scratch.url, migrate: options.migrate ?? true });
  return {
    db,
    url: scratch.url,
    drop: async () => {
      await db.close();
      await scratch.drop();
    },
  };
}

/**
 * Runs a statement on the audit log past its append-only triggers, as someone with the
 * owner's (or a superuser's) rights would: the attack the chain makes visible.
 */
export async function tamper(db: Db, statement: string): Promise<void> {
  if (db.engine === 'sqlite') {
    await sql`drop trigger audit_log_no_update`.execute(db.kysely);
    await sql`drop trigger audit_log_no_delete`.execute(db.kysely);
    try {
      await sql.raw(statement).execute(db.kysely);
    } finally {
      await sql`create trigger audit_log_no_update before update on audit_log
        begin select raise(abort, 'audit_log is append-only'); end`.execute(db.kysely);
      await sql`create trigger audit_log_no_delete before delete on audit_log
        begin select raise(abort, 'audit_log is append-only'); end`.execute(db.kysely);
    }
    return;
  }
  await db.kysely.transaction().execute(async (trx) => {
    await sql`set local session_replication_role = replica`.execute(trx);
    await sql.raw(statement).execute(trx);
  });
}

/** Every entry in chain order. */
export function chainRows(db: Kysely<Database>) {
  return db.selectFrom('audit_log').selectAll().orderBy('seq').execute();
}
