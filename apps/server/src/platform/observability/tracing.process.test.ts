import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as client from 'openid-client';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo, freePort, postgresAdminUrl, testPasswordHashingEnv } from '../../test/helper.ts';
import { Browser } from '../../test/http-client.ts';
import { discoverIssuer, startAuthorization } from '../../test/oidc.ts';
import { registerTotp } from '../../test/sign-in-flow.ts';
import { parseExposition } from './exposition.test-support.ts';

/**
 * Keycard as operators run it — `node --import otel.ts main.ts`, a real process — with a test
 * OTLP/HTTP receiver (JSON) and the metrics listener: a full OpenID Connect sign-in arrives as
 * one trace per action, each with the span of its sign-in step, and the log lines name them.
 */

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: Record<string, unknown>;
}

interface RawAttribute {
  key: string;
  value: { stringValue?: string; intValue?: number | string; boolValue?: boolean };
}

interface RawSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes?: RawAttribute[];
}

interface RawExport {
  resourceSpans?: Array<{ scopeSpans?: Array<{ spans?: RawSpan[] }> }>;
}

function spansOf(body: RawExport): OtlpSpan[] {
  const spans: OtlpSpan[] = [];
  for (const resource of body.resourceSpans ?? []) {
    for (const scope of resource.scopeSpans ?? []) {
      for (const span of scope.spans ?? []) {
        const attributes: Record<string, unknown> = {};
        for (const { key, value } of span.attributes ?? []) {
          attributes[key] = value.stringValue ?? value.intValue ?? value.boolValue;
        }
        spans.push({
          traceId: span.traceId,
          spanId: span.spanId,
          ...(span.parentSpanId ? { parentSpanId: span.parentSpanId } : {}),
          name: span.name,
          attributes,
        });
      }
    }
  }
  return spans;
}

/** A database of its own on the local PostgreSQL, dropped afterwards. */
async function freshPostgres(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `keycard_otel_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresAdminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(postgresAdminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    drop: async () => {
      const client = new pg.Client({ connectionString: postgresAdminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

const here = path.dirname(fileURLToPath(import.meta.url));
const mainScript = path.resolve(here, '../../main.ts');
const register = path.resolve(here, 'otel.ts');

/** The stores an instance runs on: the embedded default, or PostgreSQL with Redis. */
const setups = [
  { name: 'SQLite', stores: false },
  { name: 'PostgreSQL and Redis', stores: true },
];

describe.each(setups)('traces over OTLP from a running instance on $name', ({ stores }) => {
  const received: OtlpSpan[] = [];
  const lines: string[] = [];
  let receiver: Server;
  let child: ChildProcess;
  let dir: string;
  let port: number;
  let metricsPort: number;
  let database: { url: string; drop(): Promise<void> } | undefined;

  beforeAll(async () => {
    if (stores) database = await freshPostgres();
    receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        if (request.url === '/v1/traces' && request.headers['content-type']?.includes('json')) {
          received.push(...spansOf(JSON.parse(Buffer.concat(chunks).toString('utf8')) as RawExport));
        }
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const receiverPort = (receiver.address() as AddressInfo).port;
    dir = mkdtempSync(path.join(tmpdir(), 'keycard-otel-'));
    port = await freePort();
    metricsPort = await freePort();
    child = spawn(
      process.execPath,
      ['--disable-warning=ExperimentalWarning', '--import', register, mainScript],
      {
        env: {
          PATH: process.env.PATH ?? '',
          HOME: dir,
          DATA_DIR: dir,
          PORT: String(port),
          HOST: '127.0.0.1',
          METRICS_PORT: String(metricsPort),
          LOG_LEVEL: 'info',
          OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${receiverPort}`,
          OTEL_BSP_SCHEDULE_DELAY: '100',
          ...testPasswordHashingEnv,
          ...(database
            ? {
                DATABASE_URL: database.url,
                REDIS_URL: 'redis://127.0.0.1:6379',
                AUDIT_LOG_PROTECTION: 'demo',
              }
            : {}),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let buffered = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const parts = buffered.split('\n');
      buffered = parts.pop() ?? '';
      lines.push(...parts);
    });
    let errors = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      errors += chunk.toString('utf8');
    });
    const deadline = Date.now() + 30_000;
    while (!lines.some((line) => line.includes('"msg":"metrics listening"'))) {
      if (child.exitCode !== null || Date.now() > deadline) {
        throw new Error(`the server did not start: ${errors}\n${lines.join('\n')}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }, 60_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await new Promise((resolve) => receiver?.close(resolve));
    if (dir) rmSync(dir, { recursive: true, force: true });
    await database?.drop();
  });

  it('a full sign-in is one trace per action, each with its step span, tied to the trace token', async () => {
    const origin = `http://${demo.grandHotel.code}.localhost:${port}`;
    const config = await discoverIssuer(origin);
    const browser = new Browser();
    const start = await startAuthorization(config, browser);
    const iid = new URL(start.location, origin).searchParams.get('iid');
    expect(iid).toBeTruthy();
    const tokens = {
      login: 'action-login-0001',
      authenticate: 'action-authenticate-0002',
      authorize: 'action-authorize-0003',
    };
    const login = await browser.fetch(`${origin}/api/login`, {
      method: 'POST',
      headers: { 'x-trace-token': tokens.login },
      body: { email: demo.grandHotel.email, password: demo.password, state: 'state-0123456789abcdef', iid },
    });
    expect(login.status).toBe(200);
    const { code } = (await login.json()) as { code: string };
    const authenticate = await browser.fetch(`${origin}/api/authenticate`, {
      method: 'POST',
      headers: { 'x-trace-token': tokens.authenticate },
      body: { code, tenantCode: demo.grandHotel.code },
    });
    expect(authenticate.status).toBe(200);
    const authorize = await browser.fetch(`${origin}/api/authorize`, {
      method: 'POST',
      headers: { 'x-trace-token': tokens.authorize },
      body: { iid },
    });
    expect(authorize.status).toBe(200);
    const { location } = (await authorize.json()) as { location: string };
    const resumed = await browser.fetch(location);
    const callback = new URL(resumed.headers.get('location') ?? '');
    const tokenSet = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: start.verifier,
      expectedState: start.state,
      expectedNonce: start.nonce,
    });
    expect(tokenSet.id_token).toBeTruthy();

    // MFA: a wrong code, then the authenticator app's first code (its registration).
    const wrong = await browser.fetch(`${origin}/api/mfa/verify`, {
      method: 'POST',
      body: { code: '000000', deliveryType: 'totp' },
    });
    expect(wrong.status).toBeGreaterThanOrEqual(400);
    await registerTotp(browser, origin, Date.now());

    // The spans arrive in batches; wait for the three steps' and their requests'.
    const stepNames = ['keycard.login', 'keycard.authenticate', 'keycard.authorize', 'keycard.mfa_verify'];
    const deadline = Date.now() + 15_000;
    const tokenOf = (span: OtlpSpan) => span.attributes['keycard.trace_token'];
    const serverSpans = () => received.filter((span) => typeof tokenOf(span) === 'string');
    while (
      !stepNames.every((name) => received.some((span) => span.name === name)) ||
      serverSpans().length < 3 ||
      received.filter((span) => span.name === 'keycard.mfa_verify').length < 2
    ) {
      if (Date.now() > deadline) throw new Error(`spans: ${received.map((span) => span.name).join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    const traceIds: string[] = [];
    for (const [step, token] of Object.entries(tokens)) {
      // The request's server span carries the portal's trace token ...
      const server = serverSpans().filter((span) => tokenOf(span) === token);
      expect(server, `the server span of ${step}`).toHaveLength(1);
      const traceId = server[0]?.traceId ?? '';
      traceIds.push(traceId);
      // ... and the step's span is in the same trace, below it.
      const stepSpan = received.find((span) => span.name === `keycard.${step}`);
      expect(stepSpan?.traceId, `keycard.${step} in the request's trace`).toBe(traceId);
      expect(stepSpan?.attributes['keycard.result']).toBe('success');
      const inTrace = received.filter((span) => span.traceId === traceId);
      const ids = new Set(inTrace.map((span) => span.spanId));
      expect(stepSpan?.parentSpanId && ids.has(stepSpan.parentSpanId), `keycard.${step} has its parent`).toBe(
        true,
      );
      // The Fastify instrumentation's spans are in it too.
      expect(
        inTrace.some((span) => span.name.includes('fastify') || span.name.startsWith('request handler')),
      ).toBe(true);
      // The log line of the request names the trace, and the token is its request id.
      const logged = lines
        .filter((line) => line.includes('"msg":"request completed"'))
        .map((line) => JSON.parse(line) as { reqId?: string; traceId?: string });
      expect(logged.find((line) => line.reqId === token)?.traceId, `the log line of ${step}`).toBe(traceId);
    }
    // No span carries the address, the password, a code or a query string's values (the
    // authorization request's state and PKCE challenge included).
    const secrets = [
      demo.grandHotel.email,
      demo.password,
      code,
      start.state,
      callback.searchParams.get('code') ?? '-',
    ];
    for (const span of received) {
      for (const [key, value] of Object.entries(span.attributes)) {
        for (const secret of secrets) expect(String(value), `${span.name} ${key}`).not.toContain(secret);
      }
    }
    // One trace per action: three actions, three traces.
    expect(new Set(traceIds).size).toBe(3);
    if (stores) {
      // The password step's queries and its attempt counters (Redis) are spans of its trace.
      const loginTrace = received.filter((span) => span.traceId === traceIds[0]);
      const system = (span: OtlpSpan) => span.attributes['db.system.name'] ?? span.attributes['db.system'];
      expect(loginTrace.some((span) => system(span) === 'postgresql')).toBe(true);
      expect(loginTrace.some((span) => system(span) === 'redis')).toBe(true);
    }
    // The token exchange of the app's back end is a trace of its own, with the provider's work in it.
    expect(received.some((span) => span.attributes['http.route'] === '/oidc/*')).toBe(true);

    // The metrics listener answers the exposition; the public listener does not.
    const scraped = parseExposition(await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text());
    expect(scraped.value('keycard_sign_ins_total', { step: 'login', result: 'success' })).toBe(1);
    expect(scraped.value('keycard_sign_ins_total', { step: 'authorize', result: 'success' })).toBe(1);
    expect(scraped.value('keycard_mfa_verifications_total', { method: 'totp', result: 'success' })).toBe(1);
    expect(scraped.value('keycard_mfa_verifications_total', { method: 'totp', result: 'failure' })).toBe(1);
    const mfaSpans = received.filter((span) => span.name === 'keycard.mfa_verify');
    expect(mfaSpans.map((span) => span.attributes['keycard.result']).sort()).toEqual(['failure', 'success']);
    const publicScrape = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(await publicScrape.text()).not.toContain('keycard_sign_ins_total');
    const wrongPort = await fetch(`http://127.0.0.1:${metricsPort}/api/login`, { method: 'POST' });
    expect(wrongPort.status).toBe(404);
  }, 60_000);
});
