import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { mobileGraphqlPath } from '@keycard/contract';
import { loopbackFetch } from '@keycard/demo-app/loopback-fetch';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { demo } from '../../test/helper.ts';
import { Browser } from '../../test/http-client.ts';
import { type ServerProcess, startServerProcess } from '../../test/server-process.ts';
import { passwordStep } from '../../test/sign-in-flow.ts';
import { serviceRestartCloseCode } from './shutdown.ts';

/**
 * SIGTERM to a real `node main.ts` (docs/operations.md#restarts-and-shutdown): /readyz turns
 * 503 at once while everything else is still served; after the drain the port refuses new
 * connections; every request in flight is answered; the mobile sockets close with 1012; and
 * the outbox lease of a message stuck in delivery is handed back before the process exits.
 */
describe('graceful shutdown of a server process', () => {
  let dir: string;
  let server: ServerProcess | undefined;
  let smtp: Server | undefined;
  const smtpSockets: Socket[] = [];

  afterEach(async () => {
    await server?.stop('SIGKILL');
    server = undefined;
    for (const socket of smtpSockets.splice(0)) socket.destroy();
    await new Promise((resolve) => (smtp ? smtp.close(resolve) : resolve(undefined)));
    smtp = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  /** An SMTP server that accepts connections and never says a word: a delivery that hangs. */
  async function silentSmtp(): Promise<{ port: number; connected: Promise<void> }> {
    let connectedNow: () => void = () => {};
    const connected = new Promise<void>((resolve) => {
      connectedNow = resolve;
    });
    smtp = createServer((socket) => {
      smtpSockets.push(socket);
      connectedNow();
    });
    await new Promise<void>((resolve) => smtp?.listen(0, '127.0.0.1', resolve));
    const address = smtp.address();
    if (typeof address !== 'object' || !address) throw new Error('no port');
    return { port: address.port, connected };
  }

  it('drains, finishes what is in flight, closes sockets with 1012 and hands back outbox leases', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'keycard-shutdown-'));
    const mail = await silentSmtp();
    server = await startServerProcess({
      DATA_DIR: dir,
      // The relay never greets; with Keycard's 10 s greeting timeout the delivery would give up
      // during the drain, so it is told to wait longer: the shutdown must hand its lease back.
      SMTP_URL: `smtp://127.0.0.1:${mail.port}/?greetingTimeout=120000`,
      SHUTDOWN_DRAIN_SECONDS: '1.5',
      SHUTDOWN_TIMEOUT_SECONDS: '30',
      // Real hashing cost, one hash at a time: a burst of sign-ins outlasts the drain.
      PASSWORD_HASH_MEMORY_KIB: '65536',
      PASSWORD_HASH_ITERATIONS: '6',
      PASSWORD_HASH_PARALLELISM: '4',
      HASHING_CONCURRENCY: '1',
      HASHING_QUEUE_LENGTH: '1000',
      // One account signs in many times at once: its lockout bucket must hold them all.
      LOGIN_MAX_FAILURES: '100',
    });
    const origin = server.origin('grand-hotel');
    const host = new URL(origin).host;

    // A mail whose delivery hangs: the worker holds its lease.
    const reset = await loopbackFetch(
      `${origin}/api/user/${encodeURIComponent(demo.grandHotel.email)}/reset-password`,
      { method: 'POST', headers: { 'content-type': 'application/json', origin }, body: '{}' },
    );
    expect(reset.status).toBe(200);
    await mail.connected;

    // A subscription socket, past connection_init (a portal session: the device app's is
    // the same protocol with a device token), so only the shutdown closes it.
    const browser = new Browser();
    await passwordStep(browser, origin, 'grand-hotel', demo.grandHotel.email);
    const socket = new WebSocket(
      `ws://127.0.0.1:${server.port}${mobileGraphqlPath}`,
      'graphql-transport-ws',
      {
        headers: {
          host,
          origin,
          cookie: [...browser.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        },
      },
    );
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    socket.send(JSON.stringify({ type: 'connection_init' }));
    const ack = await new Promise<string>((resolve) =>
      socket.once('message', (data) => resolve(String(data))),
    );
    expect(JSON.parse(ack)).toMatchObject({ type: 'connection_ack' });

    // Sign-ins alone, warm, to size the burst: enough to last four times the drain.
    let single = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 3; i++) {
      const started = Date.now();
      expect((await login(origin)).status).toBe(200);
      single = Math.min(single, Date.now() - started);
    }
    const burst = Math.min(90, Math.max(12, Math.ceil(6000 / Math.max(1, single))));
    const doneAt: number[] = [];
    const inFlight = Array.from({ length: burst }, () =>
      login(origin).then(async (response) => {
        doneAt.push(Date.now());
        return response.status === 200 ? 200 : `${response.status} ${await response.text()}`;
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));

    const signalledAt = Date.now();
    const exited = server.stop('SIGTERM');
    await server.waitForLog(/^shutting down: draining/);
    // Draining: not ready, but alive and serving.
    const ready = await loopbackFetch(`http://127.0.0.1:${server.port}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: 'draining' });
    expect((await loopbackFetch(`http://127.0.0.1:${server.port}/healthz`)).status).toBe(200);
    const servedInDrain = await loopbackFetch(`${origin}/api/session`);
    expect(servedInDrain.status).toBe(200);
    expect(servedInDrain.headers.get('connection')).toBe('close');

    // After the drain: new connections are refused while the burst is still being answered.
    await server.waitForLog(/^shutting down: no longer accepting/);
    let refusedAt: number | undefined;
    while (refusedAt === undefined && Date.now() - signalledAt < 20_000) {
      try {
        await loopbackFetch(`http://127.0.0.1:${server.port}/healthz`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      } catch {
        refusedAt = Date.now();
      }
    }
    expect(refusedAt).toBeDefined();
    expect(refusedAt ?? 0).toBeGreaterThanOrEqual(signalledAt + 1500);

    const statuses = await Promise.all(inFlight);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    expect(Math.max(...doneAt)).toBeGreaterThan(refusedAt ?? Number.POSITIVE_INFINITY);
    expect(await closed).toBe(serviceRestartCloseCode);

    const exit = await exited;
    const exitedAt = Date.now();
    server = undefined;
    expect(exit).toEqual({ code: 0, signal: null });

    // The stuck message is pending and due now, not leased to a process that is gone.
    const db = new DatabaseSync(path.join(dir, 'keycard.sqlite'), { readOnly: true });
    const message = db
      .prepare("SELECT status, next_attempt_at FROM outbox WHERE template = 'account.reset'")
      .get() as { status: string; next_attempt_at: number };
    db.close();
    expect(message.status).toBe('pending');
    expect(message.next_attempt_at).toBeLessThanOrEqual(exitedAt);
  }, 90_000);

  function login(origin: string) {
    return loopbackFetch(`${origin}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify({
        email: demo.grandHotel.email,
        password: demo.password,
        state: 'state-0123456789abcdef',
      }),
    });
  }
});
