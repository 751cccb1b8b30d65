import { createHash } from 'node:crypto';
import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';

/** Distinct statements one connection keeps prepared; the server sends a few dozen. */
export const preparedPerConnection = 256;

const preparable = /^\s*(select|insert|update|delete|with)\b/i;

const names = new Map<string, string>();

/** A statement's name on the server: its text's digest (the same text, the same plan). */
function statementName(text: string): string {
  let name = names.get(text);
  if (!name) {
    name = `k${createHash('sha1').update(text).digest('hex')}`;
    if (names.size >= 4 * preparedPerConnection) names.clear();
    names.set(text, name);
  }
  return name;
}

/**
 * PostgreSQL prepared statements for Kysely: each data statement is parsed and planned once
 * per connection and then only bound and executed (node-postgres does this for a named query).
 * The sign-in sends the same two dozen statements every time, and parsing them was a third of
 * PostgreSQL's CPU per sign-in. Schema statements (migrations) stay unnamed.
 *
 * When another instance changes a table under a prepared statement, PostgreSQL refuses the
 * stale plan (0A000). Outside a transaction the statement is run again unprepared; inside one
 * the transaction fails (PostgreSQL has aborted it) and answers 503, which clients retry.
 * Either way the connection is closed when it is given back, so no stale plan outlives it.
 */
export function preparingPool(pool: pg.Pool): PostgresPool {
  return {
    end: () => pool.end(),
    async connect(): Promise<PostgresPoolClient> {
      const client = await pool.connect();
      const state = connectionState(client);
      async function run<R>(text: string, values: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> {
        const plain = () =>
          client.query(text, values as unknown[]) as unknown as Promise<PostgresQueryResult<R>>;
        trackTransaction(state, text);
        const name = statementName(text);
        if (
          state.stale ||
          !preparable.test(text) ||
          (state.names.size >= preparedPerConnection && !state.names.has(name))
        ) {
          return plain();
        }
        try {
          const result = await client.query({ name, text, values: values as unknown[] });
          state.names.add(name);
          return result as unknown as PostgresQueryResult<R>;
        } catch (error) {
          // 0A000: cached plan must not change result type; 26000: no such prepared statement.
          const code = (error as { code?: string }).code;
          if (code !== '0A000' && code !== '26000') throw error;
          state.stale = true;
          if (state.inTransaction) throw error;
          return plain();
        }
      }
      return {
        query: ((textOrCursor: string | PostgresCursor<unknown>, values?: ReadonlyArray<unknown>) =>
          typeof textOrCursor === 'string'
            ? run(textOrCursor, values ?? [])
            : client.query(textOrCursor as never)) as PostgresPoolClient['query'],
        // A connection that met a stale plan is closed rather than reused.
        release: () => client.release(state.stale ? true : undefined),
      };
    },
  };
}

interface ConnectionState {
  names: Set<string>;
  inTransaction: boolean;
  stale: boolean;
}

const states = new WeakMap<pg.PoolClient, ConnectionState>();

function connectionState(client: pg.PoolClient): ConnectionState {
  let state = states.get(client);
  if (!state) {
    state = { names: new Set(), inTransaction: false, stale: false };
    states.set(client, state);
  }
  return state;
}

/** Kysely opens and ends transactions with plain statements on the connection. */
function trackTransaction(state: ConnectionState, text: string): void {
  const word = /^\s*(\w+)/.exec(text)?.[1]?.toLowerCase();
  if (word === 'begin' || word === 'start') state.inTransaction = true;
  else if (word === 'commit' || word === 'rollback' || word === 'end') state.inTransaction = false;
}
