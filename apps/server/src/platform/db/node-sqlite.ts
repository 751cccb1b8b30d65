import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** Distinct SQL texts kept prepared; the queries of a running server are a few dozen. */
const statementCacheSize = 500;

/**
 * Kysely's SqliteDialect speaks to any database with better-sqlite3's shape. Node 24 ships
 * SQLite (node:sqlite), so we adapt it instead of compiling a native addon at install time —
 * which would be built against the machine's Node headers, not the Node 24 we run on.
 *
 * Statements are prepared once per SQL text and reused (parsing and planning were a tenth of
 * the server's CPU in a sign-in); only iteration gets a statement of its own, since an open
 * iterator holds its statement.
 */
export function openSqlite(file: string): { database: SqliteDatabase; raw: DatabaseSync } {
  const raw = new DatabaseSync(file);
  raw.exec('PRAGMA journal_mode = WAL');
  raw.exec('PRAGMA synchronous = FULL');
  raw.exec('PRAGMA foreign_keys = ON');
  raw.exec('PRAGMA busy_timeout = 5000');
  const prepared = new Map<string, { statement: StatementSync; reader: boolean }>();
  const prepare = (sql: string) => {
    let entry = prepared.get(sql);
    if (!entry) {
      const statement = raw.prepare(sql);
      entry = { statement, reader: statement.columns().length > 0 };
      if (prepared.size >= statementCacheSize) prepared.delete(prepared.keys().next().value as string);
      prepared.set(sql, entry);
    }
    return entry;
  };
  const params = (values: ReadonlyArray<unknown>) => values as never[];
  const database: SqliteDatabase = {
    close: () => {
      prepared.clear();
      raw.close();
    },
    prepare(sql: string): SqliteStatement {
      const { statement, reader } = prepare(sql);
      return {
        reader,
        all: (values) => statement.all(...params(values)),
        run: (values) => {
          const result = statement.run(...params(values));
          return { changes: result.changes, lastInsertRowid: result.lastInsertRowid };
        },
        iterate: (values) => raw.prepare(sql).iterate(...params(values)) as IterableIterator<unknown>,
      };
    },
  };
  return { database, raw };
}
