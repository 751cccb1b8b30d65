import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../app.ts';
import type { Services } from '../../surfaces/context.ts';
import { seedDemo } from '../../surfaces/seed/demo.ts';
import { call, demo, freePort, postgresAdminUrl, testPasswordHashingEnv } from '../../test/helper.ts';
import { Browser } from '../../test/http-client.ts';
import { discoverIssuer } from '../../test/oidc.ts';
import { appSignIn, passwordStep } from '../../test/sign-in-flow.ts';
import { loadConfig } from '../config.ts';
import { type Db, openDatabase } from '../db/database.ts';
import { enqueueMessage } from '../messaging/outbox.ts';
import { type Exposition, parseExposition } from './exposition.test-support.ts';
import { Metrics } from './metrics.ts';
import { startMetricsServer } from './metrics-server.ts';
import { mfaSteps, signInSteps } from './sign-in-steps.ts';

const token = 'metrics-token-0123456789abcdef';
const state = 'state-0123456789abcdef';

interface Running {
  app: FastifyInstance;
  services: Services;
  metrics: Metrics;
  scrape(): Promise<Exposition>;
  close(): Promise<void>;
}

async function start(database: Db, dir: string, tenantLabel: boolean, port?: number): Promise<Running> {
  const config = loadConfig({
    ...(port === undefined ? {} : { PORT: String(port) }),
    DATA_DIR: dir,
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    COOKIE_SECRET: randomBytes(32).toString('hex'),
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    ...testPasswordHashingEnv,
  });
  const metrics = new Metrics({ tenantLabel });
  const { app, services } = await createApp({
    config,
    database,
    secrets: {
      cookieKeys: [config.cookieSecret ?? ''],
      encryptionKey: Buffer.from(config.encryptionKey ?? '', 'hex'),
    },
    logger: false,
    metrics,
    metricsToken: token,
  });
  await app.ready();
  // Listening (on the port its issuers name) for tests that sign in through openid-client.
  if (port !== undefined) await app.listen({ port, host: '127.0.0.1' });
  const listener = await startMetricsServer(metrics, { port: 0, host: '127.0.0.1' });
  return {
    app,
    services,
    metrics,
    scrape: async () => {
      const response = await fetch(`http://127.0.0.1:${listener.port}/metrics`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/plain');
      return parseExposition(await response.text());
    },
    close: async () => {
      await listener.close();
      await app.close();
    },
  };
}

const login = (app: FastifyInstance, email: string, password: string, host = demo.grandHotel.host) =>
  call(app, 'POST', '/api/login', { host, body: { email, password, state } });

describe('Prometheus metrics', () => {
  let dir: string;
  let database: Db;
  let running: Running;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'keycard-metrics-'));
    database = await openDatabase({ sqliteFile: path.join(dir, 'k.sqlite') });
    await seedDemo(database.kysely);
    running = await start(database, dir, false);
  });

  afterAll(async () => {
    await running?.close();
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('know the sign-in and MFA routes by the templates the app registers', () => {
    for (const key of [...signInSteps.keys(), ...mfaSteps.keys()]) {
      const [method = '', url = ''] = key.split(' ');
      expect(running.app.hasRoute({ method: method as 'POST', url }), key).toBe(true);
    }
  });

  it('count a password sign-in by result and reason, with bounded labels', async () => {
    const { app } = running;
    const before = await running.scrape();
    expect(before.value('keycard_sign_ins_total')).toBe(0);

    expect((await login(app, demo.grandHotel.email, 'Wrong-Secret-77')).statusCode).toBe(401);
    const right = await login(app, demo.grandHotel.email, demo.password);
    expect(right.statusCode).toBe(200);
    const exchange = await call(app, 'POST', '/api/authenticate', {
      body: { code: right.json().code, tenantCode: demo.grandHotel.code },
    });
    expect(exchange.statusCode).toBe(200);
    // A route with a parameter, and a path no route has, carrying what looks like an address.
    await call(app, 'GET', `/api/login-domains/${encodeURIComponent('grand-hotel.localhost')}`);
    await call(app, 'GET', '/api/no-such-route/someone%40example.com');

    const after = await running.scrape();
    expect(after.value('keycard_sign_ins_total', { step: 'login', result: 'success', reason: 'none' })).toBe(
      1,
    );
    expect(
      after.value('keycard_sign_ins_total', {
        step: 'login',
        result: 'failure',
        reason: 'login.invalid_credentials',
      }),
    ).toBe(1);
    expect(after.value('keycard_sign_ins_total', { step: 'authenticate', result: 'success' })).toBe(1);
    expect(after.value('keycard_sign_ins_total', { step: 'authenticate', result: 'failure' })).toBe(0);
    expect(
      after.value('keycard_http_requests_total', {
        route: '/api/login',
        method: 'POST',
        status_class: '2xx',
      }),
    ).toBe(1);
    expect(
      after.value('keycard_http_requests_total', {
        route: '/api/login',
        method: 'POST',
        status_class: '4xx',
      }),
    ).toBe(1);
    expect(
      after.value('keycard_api_errors_total', { route: '/api/login', code: 'login.invalid_credentials' }),
    ).toBe(1);
    expect(
      after.value('keycard_http_request_duration_seconds_count', {
        route: '/api/login',
        status_class: '2xx',
      }),
    ).toBe(1);
    expect(after.value('keycard_http_requests_total', { route: '/api/login-domains/:domain' })).toBe(1);
    expect(after.value('keycard_http_requests_total', { route: 'unmatched', status_class: '4xx' })).toBe(1);
    // Two hashes (the wrong and the right password) waited for their turn.
    expect(after.value('keycard_hashing_queue_wait_seconds_count')).toBeGreaterThanOrEqual(2);
    expect(after.value('keycard_hashing_queue_capacity')).toBeGreaterThan(0);
    // The runtime's own: event-loop lag among them.
    expect(after.find('nodejs_eventloop_lag_seconds')).toHaveLength(1);

    for (const sample of after.samples) {
      for (const [label, value] of Object.entries(sample.labels)) {
        expect(value, `${sample.name}{${label}}`).not.toContain('@');
        expect(value, `${sample.name}{${label}}`).not.toContain('grand-hotel');
        expect(label, sample.name).not.toBe('tenant');
      }
    }
  });

  it('count lockouts and refusals by the limit, never its key', async () => {
    const { app } = running;
    const email = 'nobody-here@grand-hotel.test';
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt++)
      statuses.push((await login(app, email, 'Wrong-77-x')).statusCode);
    // The fifth failure fills the address's bucket and locks it; the sixth is refused unchecked.
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429]);
    const scraped = await running.scrape();
    expect(scraped.value('keycard_lockouts_total', { limit: 'login:email' })).toBe(1);
    expect(scraped.value('keycard_limiter_refusals_total', { limit: 'login:email', locked: 'true' })).toBe(1);
    expect(
      scraped.value('keycard_sign_ins_total', {
        step: 'login',
        result: 'failure',
        reason: 'login.too_many_attempts',
      }),
    ).toBe(2);
    for (const sample of scraped.samples) {
      for (const value of Object.values(sample.labels)) expect(value).not.toContain('nobody-here');
    }
  });

  it('tell the outbox backlog, its age and delivery results by channel', async () => {
    const { services } = running;
    const now = services.clock.now();
    await enqueueMessage(
      database.kysely,
      {
        tenantCode: demo.grandHotel.code,
        channel: 'email',
        recipient: 'guest@grand-hotel.test',
        template: 'test',
        content: { subject: 's', html: '<p>t</p>', text: 't' },
      },
      now - 30_000,
    );
    const waiting = await running.scrape();
    expect(waiting.value('keycard_outbox_pending_messages')).toBeGreaterThanOrEqual(1);
    expect(waiting.value('keycard_outbox_oldest_pending_age_seconds')).toBeGreaterThanOrEqual(29);
    expect(await services.outbox.runOnce()).toBeGreaterThanOrEqual(1);
    const sent = await running.scrape();
    expect(
      sent.value('keycard_message_deliveries_total', { channel: 'email', result: 'sent' }),
    ).toBeGreaterThanOrEqual(1);
    expect(sent.value('keycard_outbox_oldest_pending_age_seconds')).toBe(0);
  });

  it('are not served on the public listener; the operator host needs the token', async () => {
    const { app } = running;
    const onTenant = await call(app, 'GET', '/metrics');
    expect(onTenant.statusCode).toBe(404);
    expect(onTenant.body).not.toContain('keycard_');
    const withTokenOnTenant = await call(app, 'GET', '/metrics', {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(withTokenOnTenant.statusCode).toBe(404);
    expect(withTokenOnTenant.body).not.toContain('keycard_');
    const admin = { host: 'admin.localhost:3000' };
    expect((await call(app, 'GET', '/metrics', admin)).statusCode).toBe(404);
    const wrong = await call(app, 'GET', '/metrics', {
      ...admin,
      headers: { authorization: `Bearer ${token}x` },
    });
    expect(wrong.statusCode).toBe(404);
    const right = await call(app, 'GET', '/metrics', {
      ...admin,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(right.statusCode).toBe(200);
    expect(parseExposition(right.body).types.get('keycard_sign_ins_total')).toBe('counter');
  });

  it("count the caches' hits and misses: a sign-in builds a tenant's provider once, then finds it", async () => {
    await running.close();
    const port = await freePort();
    running = await start(database, dir, false, port);
    const origin = `http://grand-hotel.localhost:${port}`;
    const fresh = await running.scrape();
    expect(fresh.value('keycard_cache_lookups_total', { cache: 'provider' })).toBe(0);

    // The app's discovery is the first request to the tenant's provider: it is built.
    const issuer = await discoverIssuer(origin);
    const first = await running.scrape();
    expect(first.value('keycard_cache_lookups_total', { cache: 'provider', result: 'miss' })).toBe(1);
    expect(first.value('keycard_cache_lookups_total', { cache: 'provider', result: 'hit' })).toBe(0);
    expect(first.value('keycard_cache_lookups_total', { cache: 'tenant', result: 'miss' })).toBe(1);
    expect(first.value('keycard_cache_lookups_total', { cache: 'tenant_domain', result: 'miss' })).toBe(1);

    // A whole sign-in (password, code, tokens) finds it every time after.
    const browser = new Browser();
    await passwordStep(browser, origin, demo.grandHotel.code, demo.grandHotel.email);
    const tokens = await appSignIn(issuer, browser, origin);
    expect(tokens.claims()?.email).toBe(demo.grandHotel.email);
    const signedIn = await running.scrape();
    expect(signedIn.value('keycard_cache_lookups_total', { cache: 'provider', result: 'miss' })).toBe(1);
    expect(
      signedIn.value('keycard_cache_lookups_total', { cache: 'provider', result: 'hit' }),
    ).toBeGreaterThanOrEqual(4);
    expect(signedIn.value('keycard_cache_lookups_total', { cache: 'tenant', result: 'miss' })).toBe(1);
    expect(signedIn.value('keycard_cache_lookups_total', { cache: 'tenant', result: 'hit' })).toBeGreaterThan(
      4,
    );
    expect(signedIn.value('keycard_cache_lookups_total', { cache: 'tenant_domain', result: 'miss' })).toBe(1);

    // The tenant changes: its provider is dropped, and the next request builds it again.
    running.services.tenants.invalidate(demo.grandHotel.code);
    expect((await call(running.app, 'GET', '/oidc/.well-known/openid-configuration')).statusCode).toBe(200);
    const rebuilt = await running.scrape();
    expect(rebuilt.value('keycard_cache_evictions_total', { cache: 'provider' })).toBe(1);
    expect(rebuilt.value('keycard_cache_evictions_total', { cache: 'tenant' })).toBe(1);
    expect(rebuilt.value('keycard_cache_lookups_total', { cache: 'provider', result: 'rebuild' })).toBe(1);
    expect(rebuilt.value('keycard_cache_lookups_total', { cache: 'provider', result: 'miss' })).toBe(1);
    expect(rebuilt.value('keycard_cache_lookups_total', { cache: 'tenant', result: 'miss' })).toBe(2);
  });

  it('carry the tenant only when the operator turns it on', async () => {
    await running.close();
    running = await start(database, dir, true);
    expect((await login(running.app, demo.grandHotel.email, 'Wrong-Secret-77')).statusCode).toBe(401);
    expect(
      (await login(running.app, demo.seaside.email, 'Wrong-Secret-77', demo.seaside.host)).statusCode,
    ).toBe(401);
    const scraped = await running.scrape();
    expect(
      scraped.value('keycard_sign_ins_total', {
        step: 'login',
        reason: 'login.invalid_credentials',
        tenant: demo.grandHotel.code,
      }),
    ).toBe(1);
    expect(
      scraped.value('keycard_http_requests_total', { route: '/api/login', tenant: demo.grandHotel.code }),
    ).toBe(1);
    expect(scraped.value('keycard_sign_ins_total', { tenant: demo.seaside.code })).toBe(1);
    // The provider cache names its tenant; the tenant caches, keyed by what requests bring, do not.
    await call(running.app, 'GET', '/oidc/.well-known/openid-configuration', { host: demo.seaside.host });
    await call(running.app, 'GET', '/oidc/.well-known/openid-configuration', { host: demo.seaside.host });
    const cached = await running.scrape();
    expect(
      cached.value('keycard_cache_lookups_total', {
        cache: 'provider',
        result: 'miss',
        tenant: demo.seaside.code,
      }),
    ).toBe(1);
    expect(
      cached.value('keycard_cache_lookups_total', {
        cache: 'provider',
        result: 'hit',
        tenant: demo.seaside.code,
      }),
    ).toBe(1);
    expect(cached.value('keycard_cache_lookups_total', { cache: 'tenant', tenant: 'none' })).toBeGreaterThan(
      0,
    );
    // Still no e-mail anywhere.
    for (const sample of scraped.samples) {
      for (const value of Object.values(sample.labels)) expect(value).not.toContain('@');
    }
  });
});

describe('Prometheus metrics on PostgreSQL', () => {
  it("tell the pool's use, and count sign-ins as on SQLite", async () => {
    const name = `keycard_metrics_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: postgresAdminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(postgresAdminUrl);
    url.pathname = `/${name}`;
    const dir = mkdtempSync(path.join(tmpdir(), 'keycard-metrics-pg-'));
    const database = await openDatabase({ databaseUrl: url.href });
    let running: Running | undefined;
    try {
      await seedDemo(database.kysely);
      running = await start(database, dir, false);
      const { app } = running;
      const before = await running.scrape();
      expect(before.value('keycard_db_pool_connections', { state: 'max' })).toBe(10);
      const logins = await Promise.all(
        Array.from({ length: 4 }, () => login(app, demo.grandHotel.email, demo.password)),
      );
      expect(logins.map((response) => response.statusCode)).toEqual([200, 200, 200, 200]);
      const after = await running.scrape();
      expect(after.value('keycard_sign_ins_total', { step: 'login', result: 'success' })).toBe(4);
      expect(after.value('keycard_db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
      expect(after.find('keycard_db_pool_connections', { state: 'idle' })).toHaveLength(1);
      expect(after.find('keycard_db_pool_connections', { state: 'waiting' })).toHaveLength(1);
      // The first request to the tenant's provider builds it; the next finds it.
      for (let i = 0; i < 2; i++) {
        expect((await call(app, 'GET', '/oidc/.well-known/openid-configuration')).statusCode).toBe(200);
      }
      const cached = await running.scrape();
      expect(cached.value('keycard_cache_lookups_total', { cache: 'provider', result: 'miss' })).toBe(1);
      expect(cached.value('keycard_cache_lookups_total', { cache: 'provider', result: 'hit' })).toBe(1);
    } finally {
      await running?.close();
      await database.close();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
