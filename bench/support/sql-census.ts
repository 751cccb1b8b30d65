import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { DatabaseSync, StatementSync } from 'node:sqlite';
import pg from 'pg';

/**
 * Counts every SQL statement the bench's server sends to its database, per HTTP route, with
 * the time spent in it. It patches the drivers' prototypes in the bench's own server process
 * (node:sqlite's DatabaseSync/StatementSync, node-postgres' Client), so the product's
 * openDatabase runs unchanged and everything that reaches the engine is seen: Kysely queries,
 * a transaction's BEGIN/COMMIT, migrations. Each statement is charged to the request whose
 * async context issued it (AsyncLocalStorage around the server's request listener); timers
 * (tenant poll, outbox worker, janitor) are charged to 'background'.
 */

export interface RouteCensus {
  requests: number;
  statements: Record<string, number>;
  /** Milliseconds from sending a statement to its answer (SQLite: blocking the event loop). */
  dbMs: number;
  /** SQLite only: milliseconds spent in prepare (the adapter prepares every statement anew). */
  prepareMs: number;
  /** Distinct statement shapes (first 120 characters, the provider's model) and their cost. */
  shapes: Record<string, { count: number; ms: number }>;
}

export type Census = Record<string, RouteCensus>;

const context = new AsyncLocalStorage<string>();
const census: Census = {};

function entry(route: string): RouteCensus {
  census[route] ??= { requests: 0, statements: {}, dbMs: 0, prepareMs: 0, shapes: {} };
  return census[route];
}

/** The verb a statement commits as: select, insert, update, delete, begin, commit, rollback, pragma… */
export function statementKind(sql: string): string {
  const word = /^\s*(\w+)/.exec(sql)?.[1]?.toLowerCase() ?? 'other';
  return word === 'with' ? 'select' : word;
}

/** oidc-provider's model names: the adapter passes one as a parameter of each statement. */
const models = new Set([
  'Session',
  'Interaction',
  'Grant',
  'AuthorizationCode',
  'AccessToken',
  'RefreshToken',
  'ClientCredentials',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
  'ReplayDetection',
  'PushedAuthorizationRequest',
  'RegistrationAccessToken',
  'InitialAccessToken',
  'Client',
]);

/** What is known of a statement's text, worked out once per distinct text (cheap to count). */
const texts = new Map<string, { kind: string; shape: string; provider: boolean }>();

function record(sql: string, params: unknown, ms: number): void {
  let text = texts.get(sql);
  if (!text) {
    const shape = sql.replace(/\s+/g, ' ').slice(0, 120);
    text = { kind: statementKind(sql), shape, provider: sql.includes('oidc_payloads') };
    if (texts.size > 5000) texts.clear();
    texts.set(sql, text);
  }
  const route = entry(context.getStore() ?? 'background');
  route.statements[text.kind] = (route.statements[text.kind] ?? 0) + 1;
  route.dbMs += ms;
  const model =
    text.provider && Array.isArray(params) ? params.find((value) => models.has(value as string)) : undefined;
  const shape = model ? `${text.shape} [${model}]` : text.shape;
  route.shapes[shape] ??= { count: 0, ms: 0 };
  const counted = route.shapes[shape];
  counted.count++;
  counted.ms += ms;
}

/** The name a request is counted under: its method and path, with the provider's ids folded. */
export function routeOf(method: string | undefined, url: string | undefined): string {
  const path = (url ?? '/').split('?')[0] ?? '/';
  if (path.startsWith('/oidc/auth/')) return `${method} /oidc/auth/:uid`;
  return `${method} ${path}`;
}

let installed = false;

export function installSqlCensus(): void {
  if (installed) return;
  installed = true;

  const prepare = DatabaseSync.prototype.prepare;
  DatabaseSync.prototype.prepare = function (this: DatabaseSync, sql: string, ...rest: never[]) {
    const start = performance.now();
    try {
      return prepare.call(this, sql, ...rest);
    } finally {
      entry(context.getStore() ?? 'background').prepareMs += performance.now() - start;
    }
  } as typeof prepare;
  for (const method of ['run', 'all', 'get'] as const) {
    const original = StatementSync.prototype[method] as (...args: unknown[]) => unknown;
    (StatementSync.prototype as unknown as Record<string, unknown>)[method] = function (
      this: StatementSync,
      ...args: unknown[]
    ) {
      const start = performance.now();
      try {
        return original.apply(this, args);
      } finally {
        record(this.sourceSQL, args, performance.now() - start);
      }
    };
  }
  const exec = DatabaseSync.prototype.exec;
  DatabaseSync.prototype.exec = function (this: DatabaseSync, sql: string) {
    const start = performance.now();
    try {
      return exec.call(this, sql);
    } finally {
      record(sql, [], performance.now() - start);
    }
  };

  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  (pg.Client.prototype as unknown as { query: unknown }).query = function (
    this: pg.Client,
    ...args: unknown[]
  ) {
    const first = args[0] as string | { text?: string } | undefined;
    const sql = typeof first === 'string' ? first : (first?.text ?? '');
    const start = performance.now();
    const result = query.apply(this, args);
    // A promise reaction runs in the async context that subscribed: the request's.
    const done = () => record(sql, args[1], performance.now() - start);
    if (result && typeof (result as Promise<unknown>).then === 'function') {
      (result as Promise<unknown>).then(done, done);
    } else {
      done();
    }
    return result;
  };
}

/** Runs each request of `server` in an async context named after its route. */
export function tagRequests(server: Server): void {
  const listeners = server.listeners('request') as Array<(req: IncomingMessage, res: ServerResponse) => void>;
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const route = routeOf(req.method, req.url);
    entry(route).requests++;
    context.run(route, () => {
      for (const listener of listeners) listener.call(server, req, res);
    });
  });
}

export function snapshot(): Census {
  return structuredClone(census);
}
