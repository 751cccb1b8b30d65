import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { type AddressInfo, connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as client from 'openid-client';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { demo, freePort, postgresAdminUrl } from '../../test/helper.ts';
import { Browser } from '../../test/http-client.ts';
import { discoverIssuer } from '../../test/oidc.ts';
import { runKeycard, type ServerProcess, startServerProcess } from '../../test/server-process.ts';
import { appSignIn } from '../../test/sign-in-flow.ts';

/**
 * Three production instances on one PostgreSQL database and Redis, behind Debian's HAProxy
 * with deploy/haproxy.cfg as it ships, under a steady load of full OpenID Connect sign-ins
 * (password, code, tokens through openid-client): a rolling restart of all three fails none;
 * `kill -9` of one fails at most what it held, a retry succeeds, and the audit chain is whole.
 * Each sign-in sends one mail (the tenant tells the account's owner of a browser it never saw):
 * the outbox holds exactly one per password step that took effect, and a real SMTP server
 * receives each once — twice at most for one whose delivery the kill cut, never none.
 */
const haproxyConfig = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../../deploy/haproxy.cfg',
);

describe('behind HAProxy: restarts and crashes cost no sign-in', () => {
  let dir: string;
  let databaseUrl: string;
  let databaseName: string;
  let lbPort: number;
  const ports: number[] = [];
  const servers: Array<ServerProcess | undefined> = [];
  let haproxy: ChildProcess | undefined;
  const haproxyLog: string[] = [];
  let env: Record<string, string>;
  /** Sign-ins of the whole suite: each whole one made exactly one session; a failed one, one or none. */
  const tally = { whole: 0, failed: 0 };
  /** Password steps: each answered one (200) enqueued exactly one mail; an unanswered one, one or none. */
  const mail = { answered: 0, unanswered: 0 };
  /** Outbox messages the SMTP server received, by Message-ID (the outbox id), with how often. */
  const delivered = new Map<string, number>();
  let smtp: SMTPServer | undefined;
  /** The new-browser mails in the outbox once the account had its first browser (none of them). */
  let primedMails = 0;

  beforeAll(async () => {
    try {
      execFileSync('haproxy', ['-v']);
    } catch {
      throw new Error("This test runs Debian's haproxy: apt-get install haproxy (.ci/run installs it).");
    }
    dir = mkdtempSync(path.join(tmpdir(), 'keycard-haproxy-'));
    databaseName = `keycard_lb_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: postgresAdminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${databaseName}`);
    await admin.end();
    const url = new URL(postgresAdminUrl);
    url.pathname = `/${databaseName}`;
    databaseUrl = url.href;
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      disableReverseLookup: true,
      logger: false,
      onData: (stream, _session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          const id = /^message-id:\s*<([^@>]+)@keycard\.outbox>/im.exec(raw)?.[1] ?? 'unknown';
          delivered.set(id, (delivered.get(id) ?? 0) + 1);
          callback();
        });
      },
    });
    smtp.listen(0, '127.0.0.1');
    await once(smtp.server, 'listening');
    lbPort = await freePort();
    for (let i = 0; i < 3; i++) ports.push(await freePort());
    env = {
      NODE_ENV: 'production',
      DATA_DIR: dir,
      DATABASE_URL: databaseUrl,
      REDIS_URL: 'redis://127.0.0.1:6379',
      COOKIE_SECRET: randomBytes(32).toString('hex'),
      ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      // The tests' superuser, and the demo tenants: a demo set-up otherwise run as production.
      AUDIT_LOG_PROTECTION: 'demo',
      SEED_DEMO: 'true',
      PUBLIC_SCHEME: 'http',
      PUBLIC_PORT: String(lbPort),
      TRUST_PROXY: '127.0.0.1',
      LOGIN_MAX_FAILURES: '100',
      SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
    };
    // One after another: the first migrates and seeds. Then the tenant mails its accounts' owners
    // on a sign-in from a new browser: set while the others start; every instance has it within
    // a second of the change (the tenants' poll), long before the load begins.
    servers[0] = await startServerProcess(env, { port: ports[0] });
    const settings = runKeycard(
      ['tenant-settings', '--tenant', 'grand-hotel', '--set', 'securityMail.newBrowserSignIn=true'],
      env,
    );
    for (let i = 1; i < 3; i++) servers[i] = await startServerProcess(env, { port: ports[i] });
    const changed = await settings;
    expect(changed.code, changed.stderr).toBe(0);
    const changedAt = Date.now();
    haproxy = spawn('haproxy', ['-db', '-f', haproxyConfig], {
      env: {
        PATH: process.env.PATH ?? '',
        KEYCARD_BIND: `127.0.0.1:${lbPort}`,
        KEYCARD_1: `127.0.0.1:${ports[0]}`,
        KEYCARD_2: `127.0.0.1:${ports[1]}`,
        KEYCARD_3: `127.0.0.1:${ports[2]}`,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [haproxy.stdout, haproxy.stderr]) {
      stream?.setEncoding('utf8').on('data', (chunk: string) => haproxyLog.push(...chunk.split('\n')));
    }
    await until(() => listening(lbPort), 10_000);
    // Two polls of the tenants later, every instance mails. The account's very first browser is
    // not news: sign in once, so each later one sends a mail.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, changedAt + 2_000 - Date.now())));
    await fullSignIn(await discoverIssuer(origin()));
    tally.whole++;
    primedMails = await newBrowserMails().then((ids) => ids.length);
    mail.answered = 0;
  }, 120_000);

  afterAll(async () => {
    haproxy?.kill('SIGKILL');
    for (const server of servers) await server?.stop('SIGKILL');
    const admin = new pg.Client({ connectionString: postgresAdminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
    await admin.end();
    rmSync(dir, { recursive: true, force: true });
    await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
  });

  const origin = () => `http://grand-hotel.localhost:${lbPort}`;

  async function fullSignIn(issuer: client.Configuration): Promise<void> {
    const browser = new Browser();
    // The password step as the portal makes it, counted: whether it took effect is known only
    // when it was answered.
    const login = await browser
      .fetch(`${origin()}/api/login`, {
        method: 'POST',
        body: { email: demo.grandHotel.email, password: demo.password, state: 'state-0123456789abcdef' },
      })
      .catch((error: unknown) => {
        mail.unanswered++;
        throw error;
      });
    if (login.status !== 200) {
      mail.unanswered++;
      throw new Error(`the password step answered ${login.status}`);
    }
    mail.answered++;
    const { code } = (await login.json()) as { code: string };
    const exchange = await browser.fetch(`${origin()}/api/authenticate`, {
      method: 'POST',
      body: { code, tenantCode: 'grand-hotel' },
    });
    if (exchange.status !== 200) throw new Error(`the code exchange answered ${exchange.status}`);
    const tokens = await appSignIn(issuer, browser, origin());
    if (tokens.claims()?.email !== demo.grandHotel.email) throw new Error('the ID token names someone else');
  }

  /** Loads still running: a test that failed half-way must not leave its load on the next. */
  const loads = new Set<{ stop(): Promise<void> }>();
  afterEach(async () => {
    for (const load of loads) await load.stop();
    loads.clear();
  });

  /** Four sign-ins at a time, each worker starting its next as its last ends, until stopped. */
  function steadyLoad(issuer: client.Configuration, options: { retry: boolean }) {
    let running = true;
    const succeeded: number[] = [];
    const failed: string[] = [];
    const retriedOk: string[] = [];
    const workers = Array.from({ length: 4 }, async () => {
      while (running) {
        try {
          await fullSignIn(issuer);
          succeeded.push(Date.now());
          tally.whole++;
        } catch (error) {
          failed.push(String((error as Error).message).slice(0, 300));
          tally.failed++;
          if (options.retry) {
            await fullSignIn(issuer);
            retriedOk.push(failed.at(-1) ?? '');
            tally.whole++;
          }
        }
      }
    });
    const load = {
      succeeded,
      failed,
      retriedOk,
      stop: async () => {
        running = false;
        await Promise.all(workers);
      },
    };
    loads.add(load);
    return load;
  }

  async function query<Row>(text: string, values: unknown[] = []): Promise<Row[]> {
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      return (await db.query(text, values)).rows as Row[];
    } finally {
      await db.end();
    }
  }

  /** The outbox's new-browser mails of the demo tenant, by id. */
  async function newBrowserMails(): Promise<string[]> {
    const rows = await query<{ id: string }>(
      "SELECT id FROM outbox WHERE tenant_code = 'grand-hotel' AND template = 'security.new-browser-sign-in'",
    );
    return rows.map((row) => row.id);
  }

  /** Messages not delivered yet, by id and status. */
  function undelivered(): Promise<Array<{ id: string; status: string }>> {
    return query("SELECT id, status FROM outbox WHERE status <> 'sent'");
  }

  /**
   * Waits until the outbox has delivered everything (a delivery that failed under load backs
   * off 5 s, then 10 s, then 20 s: three tries fit); on a timeout it says what was left and why.
   */
  async function allDelivered(): Promise<void> {
    await until(async () => (await undelivered()).length === 0, 60_000).catch(async (error) => {
      const byStatus = await query('SELECT status, count(*) AS n FROM outbox GROUP BY status');
      const left = await query<{ id: string; status: string; attempts: number; last_error: string | null }>(
        "SELECT id, status, attempts, last_error FROM outbox WHERE status <> 'sent' LIMIT 5",
      );
      const warnings = servers
        .flatMap((server) => server?.logs ?? [])
        .filter((line) => Number(line.level) >= 40 && /outbox|deliver/i.test(String(line.msg)))
        .slice(-5);
      throw new Error(
        `${error.message}; received ${delivered.size}; outbox ${JSON.stringify(byStatus)}; ` +
          `left ${JSON.stringify(left)}; warnings ${JSON.stringify(warnings)}`,
      );
    });
  }

  /** HAProxy's log says the server changed state (health checks), after `from` lines. */
  function waitForServerState(name: string, state: 'UP' | 'DOWN', from: number, timeoutMs = 30_000) {
    const pattern = new RegExp(`Server keycard/${name} is ${state}`);
    return until(() => haproxyLog.slice(from).some((line) => pattern.test(line)), timeoutMs);
  }

  it('a rolling restart of all three instances under steady sign-ins fails none', async () => {
    const issuer = await discoverIssuer(origin());
    const load = steadyLoad(issuer, { retry: false });
    await until(() => load.succeeded.length >= 8, 30_000).catch((error) => {
      throw new Error(
        `${error.message}; failures: ${load.failed.slice(0, 3).join(' | ')}; haproxy: ${haproxyLog
          .filter((line) => /is (DOWN|UP)/.test(line))
          .slice(-6)
          .join(' | ')}`,
      );
    });
    for (let i = 0; i < 3; i++) {
      const name = `keycard${i + 1}`;
      const from = haproxyLog.length;
      const server = servers[i];
      const stopped = server?.stop('SIGTERM');
      // HAProxy sees /readyz turn 503 and takes the instance out before it stops accepting.
      await waitForServerState(name, 'DOWN', from);
      expect((await stopped)?.code).toBe(0);
      servers[i] = await startServerProcess(env, { port: ports[i] });
      await waitForServerState(name, 'UP', from);
    }
    const before = load.succeeded.length;
    await until(() => load.succeeded.length >= before + 8, 30_000);
    await load.stop();
    expect(load.failed).toEqual([]);
    expect(load.succeeded.length).toBeGreaterThan(30);
    // Exactly one mail per sign-in, across three restarts; each delivered once.
    expect(mail.unanswered).toBe(0);
    const mails = await newBrowserMails();
    expect(mails.length).toBe(primedMails + mail.answered);
    await allDelivered();
    for (const id of mails) expect(delivered.get(id), id).toBe(1);
    expect(delivered.size).toBe(mails.length);
  }, 300_000);

  it('kill -9 of one instance fails at most what it held; a retry succeeds; nothing is lost', async () => {
    const issuer = await discoverIssuer(origin());
    // Before the kill: one mail per answered password step so far, no more, no less.
    const mailsBefore = await newBrowserMails();
    expect(mailsBefore.length).toBe(primedMails + mail.answered);
    const steps = { ...mail };
    const load = steadyLoad(issuer, { retry: true });
    await until(() => load.succeeded.length >= 8, 30_000);
    const from = haproxyLog.length;
    const killedAt = load.succeeded.length;
    await servers[1]?.stop('SIGKILL');
    servers[1] = undefined;
    await waitForServerState('keycard2', 'DOWN', from);
    await until(() => load.succeeded.length >= killedAt + 12, 30_000);
    servers[1] = await startServerProcess(env, { port: ports[1] });
    await waitForServerState('keycard2', 'UP', from);
    await load.stop();
    // After it: one mail per answered password step, and at most one per unanswered one (the
    // connection dropped before or after it took effect). None doubled, none lost.
    const answered = mail.answered - steps.answered;
    const unanswered = mail.unanswered - steps.unanswered;
    expect(unanswered).toBeLessThanOrEqual(4);
    const mails = await newBrowserMails();
    expect(mails.length - mailsBefore.length).toBeGreaterThanOrEqual(answered);
    expect(mails.length - mailsBefore.length).toBeLessThanOrEqual(answered + unanswered);
    // The live instances deliver what is due; what the killed one had claimed stays leased for
    // a minute: let its lease run out now rather than wait, and another instance delivers it.
    await until(async () => (await undelivered()).every((row) => row.status === 'sending'), 30_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const leased = (await undelivered()).map((row) => row.id);
    await query("UPDATE outbox SET next_attempt_at = $1 WHERE status = 'sending'", [Date.now()]);
    await allDelivered();
    for (const id of mails) {
      // At least once; twice only for a message the killed instance was delivering when it died.
      expect(delivered.get(id) ?? 0, id).toBeGreaterThanOrEqual(1);
      if (!leased.includes(id)) expect(delivered.get(id), id).toBe(1);
      else expect(delivered.get(id), id).toBeLessThanOrEqual(2);
    }
    expect([...delivered.keys()].filter((id) => !mails.includes(id))).toEqual([]);
    // At most one sign-in per worker was on the killed instance at the moment it died.
    expect(load.failed.length).toBeLessThanOrEqual(4);
    expect(load.retriedOk.length).toBe(load.failed.length);
    // The audit log's hash chain is whole: no entry lost, doubled or half-written.
    const verify = await runKeycard(['audit', 'verify'], { ...env, NODE_ENV: 'production' });
    expect(verify.stderr).toBe('');
    expect(verify.code).toBe(0);
    // No session lost or made twice: one per whole sign-in, at most one per failed one.
    const rows = await query<{ n: string }>(
      "SELECT count(*) AS n FROM sessions WHERE tenant_code = 'grand-hotel'",
    );
    const sessions = Number(rows[0]?.n);
    expect(sessions).toBeGreaterThanOrEqual(tally.whole);
    expect(sessions).toBeLessThanOrEqual(tally.whole + tally.failed);
  }, 300_000);
});

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
