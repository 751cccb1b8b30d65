import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Selectable } from 'kysely';
import type { Database, OutboxTable } from '../db/schema.ts';
import type { Clock } from '../shared/clock.ts';
import { DeliveryError, type OutboxMessage, type Transports } from './message.types.ts';

/** What one delivery attempt came to. */
export type DeliveryOutcome =
  | { status: 'sent' | 'pending' }
  | { status: 'failed'; retryable: boolean; error: string };

export interface WorkerOptions {
  /** How long a claimed message is reserved before another worker may take it over. */
  leaseMs?: number;
  pollMs?: number;
  batchSize?: number;
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
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<number> | undefined;
  #stopped = true;

  constructor(
    deps: { db: Kysely<Database>; transports: Transports; clock: Clock; log?: FastifyBaseLogger },
    options: WorkerOptions = {},
  ) {
    this.#db = deps.db;
    this.#transports = deps.transports;
    this.#clock = deps.clock;
    this.#log = deps.log;
    this.#leaseMs = options.leaseMs ?? 60_000;
    this.#pollMs = options.pollMs ?? 1_000;
    this.#batchSize = options.batchSize ?? 20;
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
    let delivered = 0;
    for (const row of due) {
      if ((await this.#attempt(row, now)).status === 'sent') delivered++;
    }
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
      return { status: 'failed', retryable, error: code };
    }
  }

  #schedule(delay: number): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      this.kick()
        .catch((error) => this.#log?.error({ err: error }, 'outbox pass failed'))
        .finally(() => this.#schedule(this.#pollMs));
    }, delay);
    this.#timer.unref();
  }
}
