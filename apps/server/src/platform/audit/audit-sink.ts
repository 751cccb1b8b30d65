import { randomUUID } from 'node:crypto';
import { open } from 'node:fs/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../config.ts';
import type { Database } from '../db/schema.ts';
import { outboundFetch, type Resolver } from '../security/outbound.ts';
import type { Clock } from '../shared/clock.ts';

/**
 * Audit sinks: a copy of every audit entry outside the database, as JSON lines, shipped as
 * entries commit (docs/operations.md#audit-sinks). Durable: each sink has a cursor in the
 * database (the last position shipped), moved only after the sink took the entries; a crash
 * or an outage of the sink delays the copy, never loses it, and a restart resumes after the
 * cursor. One instance at a time ships to a sink (a lease on its cursor row, taken by a
 * conditional UPDATE), so instances do not ship the same entries side by side. Delivery is
 * at least once: an instance that dies after the sink took a batch but before the cursor moved
 * ships that batch again; each line carries the entry's id, position (`seq`) and hash, so a
 * receiver drops what it already has.
 */

export interface AuditSink {
  /** The cursor's name: one cursor per sink. */
  name: 'file' | 'http';
  /** Takes the lines (each ends with a newline) or throws; returns once they are durable. */
  ship(lines: string[]): Promise<void>;
}

/** Appends to a file and waits for the disk (fsync) before the cursor moves. */
export function fileSink(file: string): AuditSink {
  return {
    name: 'file',
    async ship(lines) {
      const handle = await open(file, 'a', 0o600);
      try {
        await handle.appendFile(lines.join(''));
        await handle.sync();
      } finally {
        await handle.close();
      }
    },
  };
}

/**
 * POSTs the lines (application/x-ndjson) through the outbound guard (security/outbound.ts):
 * the address is checked like every other the server fetches. Only a 2xx answer counts.
 */
export function httpSink(
  url: string,
  options: { token?: string | undefined; allowPrivate: boolean; resolve?: Resolver; timeoutMs?: number },
): AuditSink {
  return {
    name: 'http',
    async ship(lines) {
      const response = await outboundFetch(
        url,
        {
          method: 'POST',
          headers: {
            'content-type': 'application/x-ndjson',
            ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          },
          body: lines.join(''),
          signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
        },
        { allowPrivate: options.allowPrivate, ...(options.resolve ? { resolve: options.resolve } : {}) },
      );
      if (response.status < 200 || response.status > 299) {
        throw new Error(`audit sink answered ${response.status}`);
      }
    },
  };
}

/** The sinks the configuration names (AUDIT_SINK_FILE, AUDIT_SINK_URL). */
export function configuredSinks(config: Config): AuditSink[] {
  const sinks: AuditSink[] = [];
  if (config.auditSink.file) sinks.push(fileSink(config.auditSink.file));
  if (config.auditSink.url) {
    sinks.push(
      httpSink(config.auditSink.url, {
        token: config.auditSink.token,
        allowPrivate: config.allowPrivateOutbound,
      }),
    );
  }
  return sinks;
}

/** One audit entry as the sink receives it: the admin API's shape plus its chain links. */
export function sinkLine(row: Database['audit_log']): string {
  return `${JSON.stringify({
    id: row.id,
    seq: Number(row.seq),
    at: Number(row.at),
    actor: { kind: row.actor_kind, id: row.actor_id },
    tenant: row.tenant_code,
    action: row.action,
    target: { kind: row.target_kind, id: row.target_id },
    before: row.before ? JSON.parse(row.before) : null,
    after: row.after ? JSON.parse(row.after) : null,
    prevHash: row.prev_hash,
    hash: row.hash,
  })}\n`;
}

export interface SinkWorkerOptions {
  pollMs?: number;
  batchSize?: number;
  /** How long a shipping instance holds the sink; longer than one batch can take. */
  leaseMs?: number;
}

/** Ships the audit log to one sink, from its cursor on; any number of instances may run one. */
export class AuditSinkWorker {
  readonly #db: Kysely<Database>;
  readonly #sink: AuditSink;
  readonly #clock: Clock;
  readonly #log: FastifyBaseLogger | undefined;
  readonly #pollMs: number;
  readonly #batchSize: number;
  readonly #leaseMs: number;
  readonly #holder = randomUUID();
  #failures = 0;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<number> | undefined;
  #stopped = true;

  constructor(
    deps: { db: Kysely<Database>; sink: AuditSink; clock: Clock; log?: FastifyBaseLogger },
    options: SinkWorkerOptions = {},
  ) {
    this.#db = deps.db;
    this.#sink = deps.sink;
    this.#clock = deps.clock;
    this.#log = deps.log;
    this.#pollMs = options.pollMs ?? 1_000;
    this.#batchSize = options.batchSize ?? 200;
    this.#leaseMs = options.leaseMs ?? 60_000;
  }

  start(): void {
    this.#stopped = false;
    this.#schedule(0);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running?.catch(() => undefined);
  }

  #schedule(delayMs: number): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      this.#running = this.runOnce()
        .then(
          (shipped) => {
            this.#failures = 0;
            return shipped;
          },
          (error: unknown) => {
            this.#failures += 1;
            this.#log?.warn({ err: error, sink: this.#sink.name }, 'audit sink: shipping failed; retrying');
            return 0;
          },
        )
        .finally(() => {
          this.#running = undefined;
          // A sink that is down is retried with capped backoff: 1 s, 2 s, 4 s … 60 s.
          const backoff = Math.min(this.#pollMs * 2 ** this.#failures, 60_000);
          this.#schedule(this.#failures > 0 ? backoff : this.#pollMs);
        });
    }, delayMs);
    this.#timer.unref?.();
  }

  /**
   * Ships what is after the cursor, a batch at a time, while this instance holds the sink's
   * lease; answers how many entries were shipped. Throws when the sink refused (the cursor
   * stays where the sink's copy ends).
   */
  async runOnce(): Promise<number> {
    const name = this.#sink.name;
    await this.#db
      .insertInto('audit_sink_cursors')
      .values({ sink: name, seq: 0, holder: null, lease_until: 0 })
      .onConflict((oc) => oc.column('sink').doNothing())
      .execute();
    let shipped = 0;
    try {
      for (;;) {
        const now = this.#clock.now();
        const claimed = await this.#db
          .updateTable('audit_sink_cursors')
          .set({ holder: this.#holder, lease_until: now + this.#leaseMs })
          .where('sink', '=', name)
          .where((eb) => eb.or([eb('lease_until', '<=', now), eb('holder', '=', this.#holder)]))
          .executeTakeFirst();
        if (Number(claimed.numUpdatedRows) !== 1) return shipped;
        const cursor = await this.#db
          .selectFrom('audit_sink_cursors')
          .select('seq')
          .where('sink', '=', name)
          .executeTakeFirstOrThrow();
        const rows = await this.#db
          .selectFrom('audit_log')
          .selectAll()
          .where('seq', '>', Number(cursor.seq))
          .orderBy('seq')
          .limit(this.#batchSize)
          .execute();
        if (rows.length === 0) return shipped;
        await this.#sink.ship(rows.map(sinkLine));
        const moved = await this.#db
          .updateTable('audit_sink_cursors')
          .set({ seq: Number(rows.at(-1)!.seq) })
          .where('sink', '=', name)
          .where('holder', '=', this.#holder)
          .where('seq', '=', Number(cursor.seq))
          .executeTakeFirst();
        if (Number(moved.numUpdatedRows) !== 1) return shipped;
        shipped += rows.length;
        if (rows.length < this.#batchSize) return shipped;
      }
    } finally {
      await this.#db
        .updateTable('audit_sink_cursors')
        .set({ holder: null, lease_until: 0 })
        .where('sink', '=', name)
        .where('holder', '=', this.#holder)
        .execute();
    }
  }
}
