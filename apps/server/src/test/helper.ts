import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { createApp } from '../app.ts';
import { usePasswordHashing } from '../features/accounts/password.service.ts';
import { type Config, loadConfig } from '../platform/config.ts';
import { type Engine, openServerDatabase } from '../platform/db/database.ts';
import type { Clock } from '../platform/shared/clock.ts';
import type { Services } from '../surfaces/context.ts';
import { seedDemo } from '../surfaces/seed/demo.ts';

export const engines: Engine[] = ['sqlite', 'postgres'];

/** A TCP port that was free a moment ago, for servers whose public URL must name their port. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** Base URL of the PostgreSQL server the tests create their databases on. */
export const postgresAdminUrl =
  process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export class TestClock implements Clock {
  offset = 0;
  #held: number | undefined;
  now(): number {
    return this.#held ?? Date.now() + this.offset;
  }
  advance(ms: number): void {
    this.offset += ms;
    if (this.#held !== undefined) this.#held += ms;
  }
  /** Stops the clock where it is until `release()`: meanwhile no limit drains, nothing expires. */
  hold(): void {
    this.#held = this.now();
  }
  release(): void {
    this.#held = undefined;
  }
}

export interface TestApp {
  app: FastifyInstance;
  services: Services;
  config: Config;
  clock: TestClock;
  engine: Engine;
  close(): Promise<void>;
}

/** A fresh database of its own for each test app: an SQLite file or a new PostgreSQL database. */
async function freshDatabase(
  engine: Engine,
): Promise<{ url: string | undefined; dir: string; drop(): Promise<void> }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'keycard-test-'));
  if (engine === 'sqlite')
    return { url: undefined, dir, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  const name = `keycard_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresAdminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(postgresAdminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    dir,
    drop: async () => {
      const client = new pg.Client({ connectionString: postgresAdminUrl });
      await client.connect();
      // The pool's sockets may still be closing: wait for them rather than kill them (a
      // killed backend surfaces as an unhandled error in the closed pool's client).
      for (let attempt = 0; ; attempt++) {
        try {
          await client.query(`DROP DATABASE IF EXISTS ${name}${attempt >= 60 ? ' WITH (FORCE)' : ''}`);
          break;
        } catch (error) {
          if ((error as { code?: string }).code !== '55006' || attempt >= 60) throw error;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
      await client.end();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Tests hash passwords at OWASP's argon2id minimum (19 MiB, t=2, p=1) rather than the default
 * (64 MiB, t=3, p=4): they prove behaviour, not hashing cost, and every seeded user and sign-in
 * pays it. The defaults and the rehash to them are tested in password.service.test.ts. An
 * env given to a test app overrides these.
 */
export const testPasswordHashingEnv: Record<string, string> = {
  PASSWORD_HASH_MEMORY_KIB: '19456',
  PASSWORD_HASH_ITERATIONS: '2',
  PASSWORD_HASH_PARALLELISM: '1',
};

export async function buildTestApp(
  engine: Engine,
  options: {
    env?: Record<string, string>;
    seed?: boolean;
    /** Where log lines go (LOG_LEVEL in env); without it the app logs nothing. */
    logStream?: { write(line: string): void };
    /** Runs before the app is ready: the last moment to register a test-only route. */
    beforeReady?: (app: FastifyInstance) => void | Promise<void>;
    /** The built portal to serve (default apps/portal/dist). */
    portalDist?: string;
  } = {},
): Promise<TestApp> {
  const database = await freshDatabase(engine);
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '3000',
    DATA_DIR: database.dir,
    LOG_LEVEL: 'silent',
    COOKIE_SECRET: randomBytes(32).toString('hex'),
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    ...(database.url ? { DATABASE_URL: database.url } : {}),
    // Tests connect as the postgres superuser: a demo set-up, as far as the audit log goes
    // (the two roles are proven in admin/audit.roles.test.ts).
    AUDIT_LOG_PROTECTION: 'demo',
    ...testPasswordHashingEnv,
    ...options.env,
  });
  usePasswordHashing(config.passwordHashing);
  const db = await openServerDatabase({
    databaseUrl: config.databaseUrl,
    migrationDatabaseUrl: config.migrationDatabaseUrl,
    auditLogProtection: config.auditLogProtection,
    sqliteFile: path.join(database.dir, 'test.sqlite'),
  });
  if (options.seed !== false) await seedDemo(db.kysely);
  const clock = new TestClock();
  const { app, services } = await createApp({
    config,
    database: db,
    secrets: { cookieKeys: [config.cookieSecret!], encryptionKey: Buffer.from(config.encryptionKey!, 'hex') },
    clock,
    ...(options.logStream ? { logStream: options.logStream } : { logger: false }),
    ...(options.portalDist ? { portalDist: options.portalDist } : {}),
  });
  await options.beforeReady?.(app);
  await app.ready();
  return {
    app,
    services,
    config,
    clock,
    engine,
    close: async () => {
      await app.close();
      await db.close();
      await database.drop();
    },
  };
}

export interface CallOptions {
  host?: string;
  body?: unknown;
  cookie?: string;
  origin?: string | null;
  headers?: Record<string, string>;
}

/** Calls the app as a browser on the tenant's own pages would (Host and Origin of the tenant). */
export function call(app: FastifyInstance, method: string, url: string, options: CallOptions = {}) {
  const host = options.host ?? 'grand-hotel.localhost:3000';
  const headers: Record<string, string> = { host, ...options.headers };
  if (options.origin !== null) headers.origin = options.origin ?? `http://${host}`;
  if (options.cookie) headers.cookie = options.cookie;
  let payload: string | undefined;
  if (options.body !== undefined) {
    headers['content-type'] ??= 'application/json';
    payload = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  }
  return app.inject({ method: method as 'GET', url, headers, ...(payload === undefined ? {} : { payload }) });
}

export function sessionCookieOf(response: LightMyRequestResponse): string | undefined {
  const cookie = response.cookies.find((c) => c.name === 'AUTH_X_TOKEN');
  return cookie?.value ? `AUTH_X_TOKEN=${cookie.value}` : undefined;
}

export const demo = {
  password: 'Keycard-demo-1',
  grandHotel: { host: 'grand-hotel.localhost:3000', email: 'demo@grand-hotel.test', code: 'grand-hotel' },
  seaside: { host: 'seaside.localhost:3000', email: 'demo@seaside.test', code: 'seaside' },
};

/** Password login plus code exchange; answers the session cookie and the identity. */
export async function signIn(
  app: FastifyInstance,
  tenant: { host: string; email: string; code: string } = demo.grandHotel,
  password = demo.password,
) {
  const login = await call(app, 'POST', '/api/login', {
    host: tenant.host,
    body: { email: tenant.email, password, state: 'state-0123456789abcdef' },
  });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.statusCode} ${login.body}`);
  const authenticate = await call(app, 'POST', '/api/authenticate', {
    host: tenant.host,
    body: { code: login.json().code, tenantCode: tenant.code },
  });
  if (authenticate.statusCode !== 200) throw new Error(`authenticate failed: ${authenticate.body}`);
  return { cookie: sessionCookieOf(authenticate)!, identity: authenticate.json() };
}
