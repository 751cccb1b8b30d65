import { availableParallelism } from 'node:os';
import { errorCodes } from '@keycard/contract';
import { AppError, retryAfter } from '../shared/errors.ts';

/**
 * How much password hashing one instance does at once, and how much may wait for it
 * (HASHING_CONCURRENCY, HASHING_QUEUE_LENGTH; docs/security.md "Password hashing").
 */
export interface HashingQueueSettings {
  /**
   * Hashes running at once: argon2id is CPU and memory bound, so about one per core. With more
   * than one, one of them is kept for the priority lane.
   */
  concurrency: number;
  /** Hashes waiting at most; one more is refused before any work (503, Retry-After). */
  queueLength: number;
  /**
   * How long a hash that does not fit waits for room before it is refused (default a second).
   * A client that sends again as soon as it is answered then gets at most one refusal a second
   * per request in flight, instead of keeping the event loop busy answering refusals.
   */
  refusalPauseMs?: number;
}

/**
 * The defaults: argon2id is CPU and memory bound, so about one hash per core at once, and a
 * queue that drains in about two seconds at RFC 9106's parameters (some 60 ms a hash). The
 * hashes run on libuv's thread pool (UV_THREADPOOL_SIZE, 4 unless set): a queue that let more
 * run than the pool has threads would count as running a hash that waits inside libuv, where
 * no priority holds, so the default is never above the pool's size.
 */
export function hashingQueueSettings(
  concurrency?: number,
  queueLength?: number,
  threadPoolSize = libuvThreadPoolSize(),
): HashingQueueSettings {
  const running = concurrency ?? Math.max(1, Math.min(availableParallelism(), threadPoolSize));
  return { concurrency: running, queueLength: queueLength ?? 32 * running };
}

/** libuv's thread pool size as Node starts it: UV_THREADPOOL_SIZE (1–1024), else 4. */
export function libuvThreadPoolSize(value = process.env.UV_THREADPOOL_SIZE): number {
  const size = Number(value);
  return Number.isInteger(size) && size >= 1 ? Math.min(size, 1024) : 4;
}

/**
 * Whose hash this is. Waiting hashes are taken round-robin across tenants, so one tenant's
 * flood cannot hold another's sign-ins behind it. `priority` is for a sign-in that proved
 * something an attacker guessing at addresses does not have: a browser that signed in to the
 * account before, or the account's trusted device. Those are hashed before any other.
 */
export interface HashingTicket {
  tenant: string;
  priority: boolean;
  /** The place promised at admission (`admit`), which this hash takes. */
  place?: HashingPlace | undefined;
}

/**
 * A place in the queue promised to a request before it does the work that leads to its hash
 * (look-ups, counts): held until the hash takes it, or given back when there will be none.
 */
export interface HashingPlace {
  release(): void;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Told what the queues do, for metrics (platform/observability): how long each hash waited
 * for its turn, and each refusal. Called synchronously; it must not throw or wait.
 */
export interface HashingObserver {
  started(waitedMs: number, priority: boolean): void;
  refused(priority: boolean): void;
}

let observer: HashingObserver | undefined;

/** Every queue of the process reports to `next` (undefined: to no one). */
export function observeHashing(next: HashingObserver | undefined): void {
  observer = next;
}

let latest: HashingQueue | undefined;

/** The queue made last: the process's own (a new one replaces it when the settings change). */
export function latestHashingQueue(): HashingQueue | undefined {
  return latest;
}

/** Hashes that are not part of a tenant's sign-in (a CLI, a seed) share one turn. */
export const untenanted: HashingTicket = { tenant: '', priority: false };

interface Waiting {
  ticket: HashingTicket;
  /** performance.now() when it was queued. */
  queuedAt: number;
  start(): void;
  refuse(error: AppError): void;
}

/** One lane (priority or not): a FIFO per tenant, tenants served in turn. */
class Lane {
  readonly #queues = new Map<string, Waiting[]>();
  size = 0;

  push(entry: Waiting): void {
    const queue = this.#queues.get(entry.ticket.tenant);
    if (queue) queue.push(entry);
    else this.#queues.set(entry.ticket.tenant, [entry]);
    this.size += 1;
  }

  /** The first waiting hash of the next tenant in turn; that tenant goes to the back. */
  shift(): Waiting | undefined {
    for (const [tenant, queue] of this.#queues) {
      const entry = queue.shift();
      this.#queues.delete(tenant);
      if (queue.length > 0) this.#queues.set(tenant, queue);
      if (entry) {
        this.size -= 1;
        return entry;
      }
    }
    return undefined;
  }

  /** The newest waiting hash of the tenant with the most waiting: the one to give up for a priority hash. */
  popNewestOfLongest(): Waiting | undefined {
    let longest: Waiting[] | undefined;
    for (const queue of this.#queues.values()) if (!longest || queue.length > longest.length) longest = queue;
    const entry = longest?.pop();
    if (entry) this.size -= 1;
    return entry;
  }
}

/**
 * The instance's password hashing, bounded (issue 16: 200 guesses at a time at unknown
 * accounts slowed a real sign-in from 36 ms to 7–8 s). At most `concurrency` hashes run, of
 * which ordinary ones take all but one (when there is more than one), less one for each
 * priority hash running, so a priority hash never waits for a flood's hash to finish and
 * shares the cores with as few as can be; up to `queueLength` wait, priority first, then
 * round-robin across tenants. A hash that does not fit is refused with `common.busy` (503 and
 * Retry-After) after a pause, before any work — and a priority hash takes the place of the newest
 * waiting hash of the busiest tenant rather than be refused, so a flood of guesses never
 * keeps a known browser out.
 */
export class HashingQueue {
  readonly settings: HashingQueueSettings;
  readonly #priority = new Lane();
  readonly #normal = new Lane();
  #running = 0;
  #runningOrdinary = 0;
  /** Places promised at admission whose hashes have not come yet. */
  #promised = 0;
  /** Recent hashing time (moving average), for the Retry-After of a refusal. */
  #averageMs = 100;

  constructor(settings: HashingQueueSettings) {
    this.settings = settings;
    latest = this;
  }

  get running(): number {
    return this.#running;
  }

  get waiting(): number {
    return this.#priority.size + this.#normal.size;
  }

  /**
   * Ordinary hashes running at most: all but one slot, which stays for the priority lane, and
   * fewer while priority hashes run, so those get the cores they need to finish soon.
   */
  get #ordinaryLimit(): number {
    return Math.max(1, this.settings.concurrency - 1) - (this.#running - this.#runningOrdinary);
  }

  /**
   * Whether one more ordinary hash would be taken (run or queued), counting the places
   * promised to requests whose hashes have not come yet.
   */
  get hasRoom(): boolean {
    const taken = this.#runningOrdinary + this.waiting + this.#promised;
    return taken < Math.max(1, this.settings.concurrency - 1) + this.settings.queueLength;
  }

  /**
   * Promises a place for an ordinary hash, waiting at most the refusal pause for one; else
   * refused with `common.busy`. A request takes its place before it does the work that leads
   * to its hash, so a flood is refused before any look-up, and what was admitted is not
   * refused later: its hash is queued whatever came meanwhile.
   */
  async admit(): Promise<HashingPlace> {
    if (!this.hasRoom) {
      await pause(this.#refusalPauseMs);
      if (!this.hasRoom) throw this.#busy(false);
    }
    this.#promised += 1;
    let held = true;
    return {
      release: () => {
        if (!held) return;
        held = false;
        this.#promised -= 1;
      },
    };
  }

  get #refusalPauseMs(): number {
    return this.settings.refusalPauseMs ?? 1000;
  }

  #canStart(priority: boolean): boolean {
    if (this.#running >= this.settings.concurrency || this.#priority.size > 0) return false;
    return priority || (this.#normal.size === 0 && this.#runningOrdinary < this.#ordinaryLimit);
  }

  /** Runs `work` when its turn comes; refused with `common.busy` when nothing is free. */
  run<T>(ticket: HashingTicket, work: () => Promise<T>): Promise<T> {
    // A place promised at admission is taken now (once: a second hash of the request has none).
    const promised = ticket.place !== undefined && this.#take(ticket.place);
    // An ordinary hash without a promised place needs one not promised to anyone else.
    if (!ticket.priority && !promised && !this.hasRoom) {
      const refusal = this.#busy(false);
      return new Promise<T>((_resolve, reject) => setTimeout(() => reject(refusal), this.#refusalPauseMs));
    }
    if (this.#canStart(ticket.priority)) return this.#start(work, ticket.priority, performance.now());
    return new Promise<T>((resolve, reject) => {
      const entry: Waiting = {
        ticket,
        queuedAt: performance.now(),
        start: () => this.#start(work, ticket.priority, entry.queuedAt).then(resolve, reject),
        refuse: reject,
      };
      if (!ticket.priority || this.waiting < this.settings.queueLength) return this.#enqueue(entry);
      const displaced = this.#normal.popNewestOfLongest();
      if (!displaced) {
        const refusal = this.#busy(true);
        setTimeout(() => reject(refusal), this.#refusalPauseMs);
        return;
      }
      displaced.refuse(this.#busy(false));
      this.#enqueue(entry);
    });
  }

  /** Takes a promised place: true when it was still held. */
  #take(place: HashingPlace): boolean {
    const before = this.#promised;
    place.release();
    return this.#promised < before;
  }

  #enqueue(entry: Waiting): void {
    (entry.ticket.priority ? this.#priority : this.#normal).push(entry);
  }

  async #start<T>(work: () => Promise<T>, priority: boolean, queuedAt: number): Promise<T> {
    this.#running += 1;
    if (!priority) this.#runningOrdinary += 1;
    const started = performance.now();
    observer?.started(started - queuedAt, priority);
    try {
      return await work();
    } finally {
      this.#averageMs = this.#averageMs * 0.8 + (performance.now() - started) * 0.2;
      this.#running -= 1;
      if (!priority) this.#runningOrdinary -= 1;
      this.#next();
    }
  }

  #next(): void {
    while (this.#running < this.settings.concurrency) {
      const entry =
        this.#priority.shift() ??
        (this.#runningOrdinary < this.#ordinaryLimit ? this.#normal.shift() : undefined);
      if (!entry) return;
      entry.start();
    }
  }

  /** Refused: come back once what waits now has run (at least a second). */
  #busy(priority: boolean): AppError {
    observer?.refused(priority);
    const waitMs = ((this.waiting + this.#running) / this.settings.concurrency) * this.#averageMs;
    return new AppError(errorCodes.busy, { fields: retryAfter(waitMs) });
  }
}
