import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../surfaces/cli/cli.ts';
import { engines, freePort } from '../../test/helper.ts';
import { loadConfig } from '../config.ts';
import { entryHash } from '../db/audit-chain-format.ts';
import { type Db, openDatabase } from '../db/database.ts';
import { systemClock } from '../shared/clock.ts';
import { cliActor, recordAudit } from './audit.service.ts';
import { chainRows, scratchDatabase, tamper } from './audit.test-support.ts';
import { verifyChain } from './audit-chain.ts';
import { type AuditSink, AuditSinkWorker, fileSink, httpSink } from './audit-sink.ts';

interface SinkLine {
  id: string;
  seq: number;
  at: number;
  actor: { kind: string; id: string | null };
  tenant: string | null;
  action: string;
  target: { kind: string; id: string };
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  prevHash: string;
  hash: string;
}

let written = 0;
async function writeEntries(db: Db, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    written += 1;
    await recordAudit(
      db.kysely,
      cliActor,
      {
        tenant: 'grand-hotel',
        action: 'user.disable',
        target: { kind: 'user', id: `user-${written}` },
        after: { status: 'disabled' },
      },
      Date.now(),
    );
  }
}

const linesOf = (text: string) =>
  text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as SinkLine);

async function until(condition: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A real HTTP receiver that keeps every line it was sent, and can be made slow. */
function receiver(delayMs = 0): { server: Server; lines: SinkLine[]; requests: number } {
  const state = { lines: [] as SinkLine[], requests: 0, server: undefined as unknown as Server };
  state.server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on('end', () => {
      setTimeout(() => {
        state.requests += 1;
        expect(request.headers['content-type']).toBe('application/x-ndjson');
        expect(request.headers.authorization).toBe('Bearer sink-token-0123456789');
        state.lines.push(...linesOf(body));
        response.writeHead(204).end();
      }, delayMs);
    });
  });
  return state;
}

const listen = (server: Server, port: number) =>
  new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

describe.each(engines)('audit sinks on %s', (engine) => {
  const cleanup: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  it('copies every entry to a file once, in chain order, with its links, as entries commit', async () => {
    const scratch = await scratchDatabase(engine);
    cleanup.push(() => scratch.drop());
    const dir = mkdtempSync(path.join(tmpdir(), 'keycard-sink-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'audit.jsonl');
    const worker = new AuditSinkWorker(
      { db: scratch.db.kysely, sink: fileSink(file), clock: systemClock },
      { pollMs: 20, batchSize: 3 },
    );
    await writeEntries(scratch.db, 7);
    expect(await worker.runOnce()).toBe(7);
    expect(await worker.runOnce()).toBe(0);
    worker.start();
    cleanup.push(() => worker.stop());
    await writeEntries(scratch.db, 4);
    await until(() => existsSync(file) && linesOf(readFileSync(file, 'utf8')).length >= 11);
    await worker.stop();
    const lines = linesOf(readFileSync(file, 'utf8'));
    const rows = await chainRows(scratch.db.kysely);
    expect(lines.map((line) => line.seq)).toEqual(rows.map((row) => Number(row.seq)));
    expect(lines.map((line) => line.id)).toEqual(rows.map((row) => row.id));
    for (const [index, line] of lines.entries()) {
      const row = rows[index]!;
      expect(line.hash).toBe(row.hash);
      expect(line.prevHash).toBe(row.prev_hash);
      // A receiver can check each line itself: its content gives its hash.
      expect(
        entryHash(line.prevHash, {
          id: line.id,
          at: line.at,
          actor_kind: line.actor.kind,
          actor_id: line.actor.id,
          tenant_code: line.tenant,
          action: line.action,
          target_kind: line.target.kind,
          target_id: line.target.id,
          before: line.before ? JSON.stringify(line.before) : null,
          after: line.after ? JSON.stringify(line.after) : null,
        }),
      ).toBe(line.hash);
    }
  });

  it('resumes after a restart from the cursor kept in the database', async () => {
    const scratch = await scratchDatabase(engine);
    cleanup.push(() => scratch.drop());
    const shipped: string[] = [];
    let refuse = false;
    const sink: AuditSink = {
      name: 'file',
      async ship(lines) {
        if (refuse) throw new Error('disk full');
        shipped.push(...lines.map((line) => (JSON.parse(line) as SinkLine).id));
      },
    };
    await writeEntries(scratch.db, 3);
    await new AuditSinkWorker({ db: scratch.db.kysely, sink, clock: systemClock }).runOnce();
    refuse = true;
    await writeEntries(scratch.db, 2);
    await expect(
      new AuditSinkWorker({ db: scratch.db.kysely, sink, clock: systemClock }).runOnce(),
    ).rejects.toThrow('disk full');
    refuse = false;
    // A new worker (a restarted server) ships exactly what the sink has not taken.
    expect(await new AuditSinkWorker({ db: scratch.db.kysely, sink, clock: systemClock }).runOnce()).toBe(2);
    expect(shipped).toEqual((await chainRows(scratch.db.kysely)).map((row) => row.id));
  });

  it('holds entries while an HTTP sink is down and delivers every one once it is back', async () => {
    const scratch = await scratchDatabase(engine);
    cleanup.push(() => scratch.drop());
    const port = await freePort();
    const sink = httpSink(`http://127.0.0.1:${port}/audit`, {
      token: 'sink-token-0123456789',
      allowPrivate: true,
      timeoutMs: 2_000,
    });
    const worker = new AuditSinkWorker({ db: scratch.db.kysely, sink, clock: systemClock }, { pollMs: 20 });
    await writeEntries(scratch.db, 6);
    // Nothing listens: each pass fails and the cursor stays.
    await expect(worker.runOnce()).rejects.toThrow();
    await expect(worker.runOnce()).rejects.toThrow();
    const down = receiver();
    // Up, but refusing (503 from a proxy in front of it, say): still nothing counts as shipped.
    down.server = createServer((_request, response) => response.writeHead(503).end());
    await listen(down.server, port);
    await expect(worker.runOnce()).rejects.toThrow('audit sink answered 503');
    await close(down.server);
    const cursor = await scratch.db.kysely.selectFrom('audit_sink_cursors').selectAll().executeTakeFirst();
    expect(Number(cursor?.seq)).toBe(0);
    await writeEntries(scratch.db, 4);
    const up = receiver();
    await listen(up.server, port);
    cleanup.push(() => close(up.server));
    worker.start();
    cleanup.push(() => worker.stop());
    await until(() => up.lines.length >= 10);
    await writeEntries(scratch.db, 2);
    await until(() => up.lines.length >= 12);
    await worker.stop();
    const rows = await chainRows(scratch.db.kysely);
    expect(up.lines.map((line) => line.id)).toEqual(rows.map((row) => row.id));
  });

  async function shippedCopy(n: number) {
    const scratch = await scratchDatabase(engine);
    cleanup.push(() => scratch.drop());
    const dir = mkdtempSync(path.join(tmpdir(), 'keycard-sink-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'audit.jsonl');
    await writeEntries(scratch.db, n);
    await new AuditSinkWorker({ db: scratch.db.kysely, sink: fileSink(file), clock: systemClock }).runOnce();
    // A batch shipped twice (at least once): the copy repeats lines.
    appendFileSync(file, readFileSync(file, 'utf8'));
    return { scratch, file };
  }

  async function verifyWithCopy(db: Db, file: string) {
    const out: string[] = [];
    const code = await runCli(['audit', 'verify', '--copy', file], {
      out: (line) => out.push(line),
      err: (line) => out.push(line),
      database: db,
      config: loadConfig({ NODE_ENV: 'test' }),
    });
    return { code, text: out.join('\n') };
  }

  it('catches a chain rewritten from an entry on (whole again) by comparing it with the copy', async () => {
    const { scratch, file } = await shippedCopy(5);
    expect(await verifyWithCopy(scratch.db, file)).toEqual({
      code: 0,
      text: expect.stringContaining("the copy's 5 entries match") as unknown as string,
    });
    // The forger changes entry 2 and recomputes every hash after it, and the head.
    const rows = await chainRows(scratch.db.kysely);
    let previous = rows[0]!.hash;
    for (const row of rows.slice(1)) {
      const changed = row.seq === rows[1]!.seq ? { ...row, after: '{"status":"active"}' } : row;
      const hash = entryHash(previous, changed);
      await tamper(
        scratch.db,
        `update audit_log set after = '${changed.after}', prev_hash = '${previous}', hash = '${hash}' where id = '${row.id}'`,
      );
      previous = hash;
    }
    await tamper(scratch.db, `update audit_chain_head set hash = '${previous}'`);
    expect(await verifyChain(scratch.db.kysely)).toMatchObject({ ok: true, entries: 5 });
    const { code, text } = await verifyWithCopy(scratch.db, file);
    expect(code).toBe(1);
    expect(text).toBe(
      `The audit log differs from the copy in ${file} at position 2: entry ${rows[1]!.id} no longer has the hash the copy holds.`,
    );
  });

  it('catches entries removed from the end with the head moved back, by comparing with the copy', async () => {
    const { scratch, file } = await shippedCopy(5);
    const rows = await chainRows(scratch.db.kysely);
    await tamper(scratch.db, `delete from audit_log where seq = 5`);
    await tamper(scratch.db, `update audit_chain_head set seq = 4, hash = '${rows[3]!.hash}'`);
    expect(await verifyChain(scratch.db.kysely)).toMatchObject({ ok: true, entries: 4 });
    const { code, text } = await verifyWithCopy(scratch.db, file);
    expect(code).toBe(1);
    expect(text).toBe(
      `The audit log differs from the copy in ${file} at position 5: entry ${rows[4]!.id} is in the copy but no longer in the database.`,
    );
  });

  it('refuses an HTTP sink on a private address when private outbound addresses are not allowed', async () => {
    const scratch = await scratchDatabase(engine);
    cleanup.push(() => scratch.drop());
    await writeEntries(scratch.db, 1);
    const sink = httpSink('http://127.0.0.1:9/audit', { allowPrivate: false });
    await expect(
      new AuditSinkWorker({ db: scratch.db.kysely, sink, clock: systemClock }).runOnce(),
    ).rejects.toThrow(/private address/);
  });
});

/**
 * Two instances on one PostgreSQL database, each with its own pool and worker, ship to one
 * HTTP sink while 60 entries are written on both: each entry arrives once, in chain order
 * (the sink's lease lets one instance ship at a time).
 */
describe('audit sinks on two PostgreSQL instances', () => {
  const cleanup: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  it('ships no entry twice', async () => {
    const scratch = await scratchDatabase('postgres');
    cleanup.push(() => scratch.drop());
    const second = await openDatabase({ databaseUrl: scratch.url });
    cleanup.push(() => second.close());
    const port = await freePort();
    const up = receiver(15);
    await listen(up.server, port);
    cleanup.push(() => close(up.server));
    const sinkFor = () =>
      httpSink(`http://127.0.0.1:${port}/audit`, { token: 'sink-token-0123456789', allowPrivate: true });
    const workers = [scratch.db, second, scratch.db, second].map(
      (db) =>
        new AuditSinkWorker(
          { db: db.kysely, sink: sinkFor(), clock: systemClock },
          { pollMs: 5, batchSize: 4 },
        ),
    );
    for (const worker of workers) {
      worker.start();
      cleanup.push(() => worker.stop());
    }
    await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        recordAudit(
          (i % 2 === 0 ? scratch.db : second).kysely,
          cliActor,
          { tenant: 'grand-hotel', action: 'user.enable', target: { kind: 'user', id: `both-${i}` } },
          Date.now(),
        ),
      ),
    );
    await until(() => up.lines.length >= 60);
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (const worker of workers) await worker.stop();
    const rows = await chainRows(scratch.db.kysely);
    expect(rows).toHaveLength(60);
    expect(up.lines.map((line) => line.seq)).toEqual(rows.map((row) => Number(row.seq)));
    expect(up.requests).toBeGreaterThan(1);
  });
});
