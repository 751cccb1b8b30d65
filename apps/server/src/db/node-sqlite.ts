import { DatabaseSync } from 'node:sqlite';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/**
 * Kysely's SqliteDialect speaks to any database with better-sqlite3's shape. Node 24 ships
 * SQLite (node:sqlite), so we adapt it instead of compiling a native addon at install time —
 * which would be built against the machine's Node headers, not the Node 24 we run on.
 */
export function openSqlite(file: string): { database: SqliteDatabase; raw: DatabaseSync } {
  const raw = new DatabaseSync(file);
  raw.exec('PRAGMA journal_mode = WAL');
  raw.exec('PRAGMA synchronous = FULL');
  raw.exec('PRAGMA foreign_keys = ON');
  raw.exec('PRAGMA busy_timeout = 5000');
  const database: SqliteDatabase = {
    close: () => raw.close(),
    prepare(sql: string): SqliteStatement {
      const statement = raw.prepare(sql);
      const params = (values: ReadonlyArray<unknown>) => values as never[];
      return {
        reader: statement.columns().length > 0,
        all: (values) => statement.all(...params(values)),
        run: (values) => {
          const result = statement.run(...params(values));
          return { changes: result.changes, lastInsertRowid: result.lastInsertRowid };
        },
        iterate: (values) => statement.iterate(...params(values)) as IterableIterator<unknown>,
      };
    },
  };
  return { database, raw };
}
