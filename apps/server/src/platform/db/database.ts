import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { AuditLogProtectionError, auditLogAlterations, currentRole, grantAppRole } from './database-roles.ts';
import { migrateToLatest, pendingMigrations } from './migrations.ts';
import { openSqlite } from './node-sqlite.ts';
import { preparingPool } from './prepared-pool.ts';
import type { Database } from './schema.ts';

export { AuditLogProtectionError } from './database-roles.ts';

export type Engine = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  engine: Engine;
  close(): Promise<void>;
  /** PostgreSQL: the pool's connections now, for metrics (platform/observability). */
  poolUse?: () => { total: number; idle: number; waiting: number; max: number };
}

// PostgreSQL int8 arrives as a string by default; our int8 columns hold epoch milliseconds,
// well inside Number's safe range.
pg.types.setTypeParser(20, (value) => Number(value));

export interface DbOptions {
  databaseUrl?: string | undefined;
  sqliteFile?: string;
  onIdleError?: (error: Error) => void;
  /** Apply pending migrations on open (default); false for a role that may not (the app role). */
  migrate?: boolean;
}

export async function openDatabase(options: DbOptions): Promise<Db> {
  let kysely: Kysely<Database>;
  let engine: Engine;
  let poolUse: Db['poolUse'];
  if (options.databaseUrl) {
    engine = 'postgres';
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // An idle connection can be cut by the server (restart, failover). node-postgres emits
    // that on the pool; unhandled, it would end the process. The pool replaces the client.
    pool.on('error', (error) => options.onIdleError?.(error));
    // A connection lost during a query fails that query (answered 503), and then its client
    // emits 'error' too; pg-pool listens only while the client is idle, and an unheard
    // 'error' would end the process. A database restart or failover must not take us down.
    pool.on('connect', (client) => client.on('error', (error) => options.onIdleError?.(error)));
    kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool: preparingPool(pool) }) });
    poolUse = () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
      max: pool.options.max ?? 10,
    });
  } else {
    engine = 'sqlite';
    const file = options.sqliteFile ?? path.resolve('data', 'keycard.sqlite');
    mkdirSync(path.dirname(file), { recursive: true });
    const { database } = openSqlite(file);
    kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  }
  if (options.migrate !== false) await migrateToLatest(kysely);
  return { kysely, engine, close: () => kysely.destroy(), ...(poolUse ? { poolUse } : {}) };
}

/** What the server (main.ts) and the CLI open the database with. */
export interface ServerDbOptions {
  databaseUrl: string | undefined;
  /** The owner role; the same as databaseUrl in the simple case. */
  migrationDatabaseUrl: string | undefined;
  auditLogProtection: 'strict' | 'demo';
  sqliteFile: string;
  onIdleError?: (error: Error) => void;
  /** Told when the role can alter the audit log and the set-up is declared a demo. */
  warn?: (message: string) => void;
}

/**
 * Opens the database as the server runs on it. On PostgreSQL the migrations run as the owner
 * role (MIGRATION_DATABASE_URL), which then grants the application role (DATABASE_URL) what
 * it needs — the audit log only read and appended to; the server's own pool is the
 * application role's, and it refuses to serve on a role that can alter the audit log
 * (db/database-roles.ts) unless the set-up is declared a demo. SQLite has no roles: whoever
 * can write its file can do anything, and the hash chain and the sink are its protection.
 */
export async function openServerDatabase(options: ServerDbOptions): Promise<Db> {
  const { databaseUrl, migrationDatabaseUrl } = options;
  const separateOwner = Boolean(databaseUrl && migrationDatabaseUrl && migrationDatabaseUrl !== databaseUrl);
  if (separateOwner) {
    const owner = await openDatabase({ databaseUrl: migrationDatabaseUrl });
    try {
      const app = await openDatabase({ databaseUrl, migrate: false });
      try {
        await grantAppRole(owner.kysely, await currentRole(app.kysely));
      } finally {
        await app.close();
      }
    } finally {
      await owner.close();
    }
  }
  const db = await openDatabase({
    databaseUrl,
    sqliteFile: options.sqliteFile,
    ...(options.onIdleError ? { onIdleError: options.onIdleError } : {}),
    migrate: !separateOwner,
  });
  if (db.engine !== 'postgres') return db;
  try {
    const pending = await pendingMigrations(db.kysely);
    if (pending.length > 0) {
      throw new Error(`database migrations not applied: ${pending.join(', ')} (run keycard db migrate)`);
    }
    const reasons = await auditLogAlterations(db.kysely);
    if (reasons.length > 0) {
      const message = `the database role can alter the audit log: ${reasons.join('; ')}`;
      if (options.auditLogProtection !== 'demo') {
        throw new AuditLogProtectionError(
          `Refusing to start: ${message}. Run the server as an application role (docs/operations.md#database-roles), or set AUDIT_LOG_PROTECTION=demo for a demo.`,
        );
      }
      options.warn?.(`${message} (AUDIT_LOG_PROTECTION=demo)`);
    }
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}
