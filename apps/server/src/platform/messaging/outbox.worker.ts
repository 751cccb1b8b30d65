import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Selectable } from 'kysely';
import type { Database, OutboxTable } from '../db/schema.ts';
import type { Clock } from '../shared/clock.ts';
import { DeliveryError, type OutboxMessage, type Transports } from './message.types.ts';

/** What one delivery attempt came to. */
export type DeliveryOutcome =
  | { status: 'sent' | 'pending' }
  | { status: 'failed'; retryable: boolean; error: string };

/** Told each delivery attempt's result, for metrics; called synchronously, must not throw. */
export type DeliveryObserver = (channel: string, outcome: DeliveryOutcome) => void;

export interface WorkerOptions {
  /** How long a claimed message is reserved before another worker may take it over. */
  leaseMs?: number;
  pollMs?: number;
  batchSize?: number;
  /** Deliveries under way at once in a pass. */
  concurrency?: number;
  /** On stop, how long a delivery under way may take before its lease is handed back. */
  stopGraceMs?: number;
}

/** Capped exponential backoff: 5 s, 10 s, 20 s … up to 15 minutes; never given up. */
export function retryDelayMs(attempts: number): number {
  return Math.min(5_000 * 2 ** Math.max(0, attempts - 1), 15 * 60_000);
}

/** The longest wait a provider's Retry-After may impose on a message (a bad header is no reason to park it). */
export const maxRetryAfterMs = 6 * 60 * 60_000;

/** When a failed message is tried again: our backoff, or later if the provider asked for more. */
export function nextAttemptDelayMs(attempts: number, retryAfterMs: number | undefined): number {
  const asked = retryAfterMs === undefined ? 0 : Math.min(Math.max(0, retryAfterMs), maxRetryAfterMs);
  return Math.max(retryDelayMs(attempts), asked);
}

/**
 * Delivers the outbox. Any number of instances may run: a message is claimed with a
 * conditional UPDATE (only one claimant sees its row change) and leased; if the claimant
 * dies, the lease runs out and another instance retries. Retryable failures back off and
 * retry until delivered; a crash or an outage delays, never drops (invariant 7).
 */
export class OutboxWorker {
  readonly #db: Kysely<Database>;
  readonly #transports: Transports;
  readonly #clock: Clock;
  readonly #log: FastifyBaseLogger | undefined;
  readonly #leaseMs: number;
  readonly #pollMs: number;
  readonly #batchSize: number;
  readonly #concurrency: number;
  readonly #observe: DeliveryObserver | undefined;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<number> | undefined;
  #stopped = true;
  #stopping = false;
  /** Messages this worker leased and has not finished with: id → the attempt it claimed. */
  readonly #held = new Map<string, number>();
  readonly #stopGraceMs: number;

  constructor(
    deps: {
      db: Kysely<Database>;
      transports: Transports;
      clock: Clock;
      log?: FastifyBaseLogger;
      onDelivery?: DeliveryObserver;
    },
    options: WorkerOptions = {},
  ) {
    this.#observe = deps.onDelivery;
    this.#db = deps.db;
    this.#transports = deps.transports;
    this.#clock = deps.clock;
    this.#log = deps.log;
    this.#leaseMs = options.leaseMs ?? 60_000;
    this.#pollMs = options.pollMs ?? 1_000;
    this.#batchSize = options.batchSize ?? 20;
    this.#concurrency = options.concurrency ?? 4;
    this.#stopGraceMs = options.stopGraceMs ?? 5_000;
  }

  start(): void {
    this.#stopped = false;
    this.#schedule(0);
  }

  /**
   * Stops taking messages, lets a delivery under way finish (for stopGraceMs at most), and
   * hands back the leases it still holds, so another instance delivers those messages now
   * rather than when the lease runs out (docs/operations.md#restarts-and-shutdown).
   */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#stopping = true;
    clearTimeout(this.#timer);
    let grace: NodeJS.Timeout | undefined;
    await Promise.race([
      this.#running?.catch(() => undefined),
      new Promise((resolve) => {
        grace = setTimeout(resolve, this.#stopGraceMs);
      }),
    ]);
    clearTimeout(grace);
    await this.#releaseLeases();
  }

  /** Leases still held go back: pending and due now, unless the message moved on meanwhile. */
  async #releaseLeases(): Promise<void> {
    for (const [id, attempts] of [...this.#held]) {
      await this.#db
        .updateTable('outbox')
        .set({ status: 'pending', next_attempt_at: this.#clock.now() })
        .where('id', '=', id)
        .where('status', '=', 'sending')
        .where('attempts', '=', attempts)
        .execute()
        .catch((error) => this.#log?.warn({ err: error, messageId: id }, 'outbox lease not released'));
      this.#held.delete(id);
    }
  }

  /** Runs a delivery pass now (after an enqueue, so messages do not wait for the next poll). */
  kick(): Promise<number> {
    if (!this.#running) {
      this.#running = this.runOnce().finally(() => {
        this.#running = undefined;
      });
    }
    return this.#running;
  }

  /** One pass over due messages; answers how many were delivered. */
  async runOnce(): Promise<number> {
    const now = this.#clock.now();
    const due = await this.#db
      .selectFrom('outbox')
      .selectAll()
      .where('status', 'in', ['pending', 'sending'])
      .where('next_attempt_at', '<=', now)
      .orderBy('created_at')
      .limit(this.#batchSize)
      .execute();
    // A few deliveries at a time (a relay answers each in tens of milliseconds; one after
    // another, a busy tenant's mail would fall behind its sign-ins).
    let delivered = 0;
    let next = 0;
    const lane = async () => {
      while (next < due.length) {
        const row = due[next++] as Selectable<OutboxTable>;
        // A stopping worker claims nothing more: what is left stays for the other instances.
        if (this.#stopping) return;
        if ((await this.#attempt(row, now)).status === 'sent') delivered++;
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.#concurrency, due.length) }, lane));
    return delivered;
  }

  /**
   * Makes the first delivery attempt of a message just committed, in the caller's request, so
   * a refused phone number is reported at once. The message stays in the outbox: a retryable
   * failure is retried by the worker as any other. 'pending' when another worker holds it.
   */
  async deliverNow(id: string): Promise<DeliveryOutcome> {
    const row = await this.#db
      .selectFrom('outbox')
      .selectAll()
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (!row) return { status: 'pending' };
    return this.#attempt(row, this.#clock.now());
  }

  /** Claims one message (a conditional UPDATE: one claimant wins) and tries it once. */
  async #attempt(row: Selectable<OutboxTable>, now: number): Promise<DeliveryOutcome> {
    const claimed = await this.#db
      .updateTable('outbox')
      .set({ status: 'sending', attempts: row.attempts + 1, next_attempt_at: now + this.#leaseMs })
      .where('id', '=', row.id)
      .where('attempts', '=', row.attempts)
      .where('status', 'in', ['pending', 'sending'])
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return { status: 'pending' };
    this.#held.set(row.id, row.attempts + 1);
    const message: OutboxMessage = {
      id: row.id,
      tenantCode: row.tenant_code,
      channel: row.channel as OutboxMessage['channel'],
      recipient: row.recipient,
      template: row.template,
      content: JSON.parse(row.payload),
      attempts: row.attempts + 1,
    };
    try {
      await this.#transports[message.channel].send(message);
      await this.#db
        .updateTable('outbox')
        .set({ status: 'sent', sent_at: this.#clock.now(), last_error: null })
        .where('id', '=', row.id)
        .execute();
      this.#held.delete(row.id);
      this.#observe?.(row.channel, { status: 'sent' });
      return { status: 'sent' };
    } catch (error) {
      const retryable = !(error instanceof DeliveryError) || error.retryable;
      const code = error instanceof DeliveryError ? error.code : 'delivery.failed';
      this.#log?.warn(
        { messageId: row.id, channel: row.channel, code, attempts: message.attempts },
        'delivery failed',
      );
      await this.#db
        .updateTable('outbox')
        .set({
          status: retryable ? 'pending' : 'failed',
          next_attempt_at:
            this.#clock.now() +
            nextAttemptDelayMs(
              message.attempts,
              error instanceof DeliveryError ? error.retryAfterMs : undefined,
            ),
          last_error: code,
        })
        .where('id', '=', row.id)
        .execute();
      this.#held.delete(row.id);
      const outcome: DeliveryOutcome = { status: 'failed', retryable, error: code };
      this.#observe?.(row.channel, outcome);
      return outcome;
    }
  }

  #schedule(delay: number): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      // A full batch delivered means more may be waiting: the next pass starts at once.
      this.kick()
        .then(
          (delivered) => (delivered >= this.#batchSize ? 0 : this.#pollMs),
          (error) => {
            this.#log?.error({ err: error }, 'outbox pass failed');
            return this.#pollMs;
          },
        )
        .then((next) => this.#schedule(next));
    }, delay);
    this.#timer.unref();
  }
}
