import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { activeUser, uniqueEmail } from '../../features/accounts/test-support.ts';
import { buildTestApp, call, demo, freePort, postgresAdminUrl, type TestApp } from '../../test/helper.ts';
import { tcpRelay } from '../../test/tcp-relay.ts';

const state = 'state-0123456789abcdef';
const unavailable = {
  code: 'common.unavailable',
  message: 'The service is briefly unavailable; try again in a moment.',
};

/** What a client sees of the API while a store is down: every call a 503 with a coded error. */
async function expectUnavailable(t: TestApp) {
  const login = await call(t.app, 'POST', '/api/login', {
    body: { email: demo.grandHotel.email, password: demo.password, state },
  });
  expect(login.statusCode).toBe(503);
  expect(login.json()).toEqual(unavailable);
  // When to come back, as the provider's answers say it too (oidc/provider-outage.ts).
  expect(login.headers['retry-after']).toBe('10');
  const session = await call(t.app, 'GET', '/api/session', { cookie: 'AUTH_X_TOKEN=some-session-token' });
  expect(session.statusCode).toBe(503);
  expect(session.json()).toEqual(unavailable);
}

async function withAdmin<T>(action: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: postgresAdminUrl });
  await admin.connect();
  try {
    return await action(admin);
  } finally {
    await admin.end();
  }
}

describe('database outage', () => {
  it('SQLite: a closed database answers 503 common.unavailable, and /readyz says so', async () => {
    const t = await buildTestApp('sqlite');
    try {
      await t.services.database.close();
      await expectUnavailable(t);
      const ready = await call(t.app, 'GET', '/readyz');
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({ status: 'unavailable', checks: { database: 'unavailable' } });
    } finally {
      await t.close();
    }
  });

  /** An app on a fresh PostgreSQL database that it reaches through a relay the test controls. */
  async function appBehindRelay() {
    const name = `keycard_test_${randomBytes(6).toString('hex')}`;
    await withAdmin((admin) => admin.query(`CREATE DATABASE ${name}`));
    const server = new URL(postgresAdminUrl);
    const relay = await tcpRelay({ host: server.hostname, port: Number(server.port || 5432) });
    const url = new URL(postgresAdminUrl);
    url.hostname = '127.0.0.1';
    url.port = String(relay.port);
    url.pathname = `/${name}`;
    // The engine named here only picks the scratch directory; DATABASE_URL makes it PostgreSQL.
    const t = await buildTestApp('sqlite', { env: { DATABASE_URL: url.href } });
    expect(t.services.database.engine).toBe('postgres');
    const before = await call(t.app, 'POST', '/api/login', {
      body: { email: demo.grandHotel.email, password: demo.password, state },
    });
    expect(before.statusCode).toBe(200);
    return {
      t,
      relay,
      close: async () => {
        await t.close();
        await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
      },
    };
  }

  it('PostgreSQL: a server that went away (connections cut, port closed) answers 503 common.unavailable', async () => {
    const { t, relay, close } = await appBehindRelay();
    try {
      await relay.cut();
      await expectUnavailable(t);
      const ready = await call(t.app, 'GET', '/readyz');
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({ checks: { database: 'unavailable' } });
    } finally {
      await close();
    }
  });

  it('PostgreSQL: a query in flight when the connection drops answers 503, and the server keeps running', async () => {
    const { t, relay, close } = await appBehindRelay();
    const uncaught: unknown[] = [];
    const record = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', record);
    try {
      // The network goes silent: the session lookup is sent and never answered…
      relay.blackhole();
      const pending = call(t.app, 'GET', '/api/session', { cookie: 'AUTH_X_TOKEN=some-session-token' });
      await new Promise((resolve) => setTimeout(resolve, 100));
      // …then the connection drops under it.
      await relay.cut();
      const response = await pending;
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual(unavailable);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(uncaught.map(String)).toEqual([]);
    } finally {
      process.off('uncaughtException', record);
      await close();
    }
  });

  it('PostgreSQL: connections terminated by the server, new ones refused, answer 503 common.unavailable', async () => {
    const t = await buildTestApp('postgres');
    const name = new URL(t.config.databaseUrl!).pathname.slice(1);
    try {
      const before = await call(t.app, 'POST', '/api/login', {
        body: { email: demo.grandHotel.email, password: demo.password, state },
      });
      expect(before.statusCode).toBe(200);
      await withAdmin(async (admin) => {
        await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
        await admin.query(
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
          [name],
        );
      });
      await expectUnavailable(t);
    } finally {
      await withAdmin((admin) => admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`));
      await t.close();
    }
  });
});

describe('Redis outage', () => {
  it('answers 503 common.unavailable and /readyz 503 with checks.redis unavailable, at once', async () => {
    // A port where nothing listens.
    const t = await buildTestApp('sqlite', { env: { REDIS_URL: `redis://127.0.0.1:${await freePort()}` } });
    try {
      const started = Date.now();
      const login = await call(t.app, 'POST', '/api/login', {
        body: { email: demo.grandHotel.email, password: demo.password, state },
      });
      expect(login.statusCode).toBe(503);
      expect(login.json()).toEqual(unavailable);
      const ready = await call(t.app, 'GET', '/readyz');
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({
        status: 'unavailable',
        checks: { database: 'ok', redis: 'unavailable' },
      });
      // At the start of an outage ioredis gives up after one quick reconnection attempt.
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      await t.close();
    }
  });

  it('answers /readyz 200 with checks.redis ok, and signs in, while Redis is up', async () => {
    const t = await buildTestApp('sqlite', {
      env: { REDIS_URL: 'redis://127.0.0.1:6379', TRUST_PROXY: 'true' },
    });
    try {
      const ready = await call(t.app, 'GET', '/readyz');
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toMatchObject({ status: 'ready', checks: { database: 'ok', redis: 'ok' } });
      // Redis is shared with other test runs: an account and an address of this test's own.
      const email = uniqueEmail('redis');
      await activeUser(t, email, demo.password);
      const login = await call(t.app, 'POST', '/api/login', {
        body: { email, password: demo.password, state },
        headers: { 'x-forwarded-for': `10.${randomBytes(3).join('.')}` },
      });
      expect(login.statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('goes unavailable when Redis goes away under a running app', async () => {
    const relay = await tcpRelay({ host: '127.0.0.1', port: 6379 });
    const t = await buildTestApp('sqlite', { env: { REDIS_URL: `redis://127.0.0.1:${relay.port}` } });
    try {
      expect((await call(t.app, 'GET', '/readyz')).json()).toMatchObject({ checks: { redis: 'ok' } });
      await relay.cut();
      const started = Date.now();
      const ready = await call(t.app, 'GET', '/readyz');
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({ checks: { redis: 'unavailable' } });
      const login = await call(t.app, 'POST', '/api/login', {
        body: { email: demo.grandHotel.email, password: demo.password, state },
      });
      expect(login.statusCode).toBe(503);
      expect(login.json()).toEqual(unavailable);
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      await t.close();
    }
  });
});
