import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { migrateToLatest } from './migrations.ts';
import { openSqlite } from './node-sqlite.ts';
import { preparingPool } from './prepared-pool.ts';
import type { Database } from './schema.ts';

export type Engine = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  engine: Engine;
  close(): Promise<void>;
}

// PostgreSQL int8 arrives as a string by default; our int8 columns hold epoch milliseconds,
// well inside Number's safe range.
pg.types.setTypeParser(20, (value) => Number(value));

export interface DbOptions {
  databaseUrl?: string | undefined;
  sqliteFile?: string;
  onIdleError?: (error: Error) => void;
}

export async function openDatabase(options: DbOptions): Promise<Db> {
  let kysely: Kysely<Database>;
  let engine: Engine;
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
  } else {
    engine = 'sqlite';
    const file = options.sqliteFile ?? path.resolve('data', 'keycard.sqlite');
    mkdirSync(path.dirname(file), { recursive: true });
    const { database } = openSqlite(file);
    kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  }
  await migrateToLatest(kysely);
  return { kysely, engine, close: () => kysely.destroy() };
}
