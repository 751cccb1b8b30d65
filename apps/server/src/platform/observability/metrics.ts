import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { DeliveryOutcome } from '../messaging/outbox.worker.ts';
import type { HashingObserver, HashingQueue } from '../security/hashing-queue.ts';

/**
 * The instance's Prometheus metrics (docs/operations.md "Metrics"), one registry per app.
 * Every label value is bounded: a route template (never the path), a method, a status class,
 * an error code of the contract, a limit's name, a channel, a step; a tenant's code only when
 * the operator asks for it (METRICS_TENANT_LABEL). Recording is synchronous counter work: no
 * awaits on a request's path. What is costly to know (the outbox's backlog) is read on scrape.
 */
export interface MetricsOptions {
  tenantLabel: boolean;
  /** The Node runtime's metrics (event-loop lag, heap, GC, CPU); default on. */
  runtime?: boolean;
}

/** What a scrape reads from the stores; each answers null when it cannot tell now. */
export interface ScrapeSources {
  outbox?: () => Promise<{ pending: number; oldestCreatedAt: number | null; failed: number } | null>;
  pool?: () => { total: number; idle: number; waiting: number; max: number } | null;
  hashingQueue?: () => HashingQueue | undefined;
  now?: () => number;
}

const knownChannels = new Set(['email', 'sms', 'voice', 'push']);

/**
 * A delivery error's code as a label: its kind before any provider detail
 * (`push.unregistered:UNREGISTERED` is `push.unregistered`), `other` when it is not one of ours.
 */
export function boundedCode(code: string): string {
  const kind = code.split(':', 1)[0] ?? '';
  return /^[a-z_]{1,32}\.[a-z_]{1,48}$/.test(kind) ? kind : 'other';
}

const durationBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const waitBuckets = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

export class Metrics {
  readonly registry = new Registry();
  readonly tenantLabel: boolean;
  readonly requests: Counter<string>;
  readonly requestDuration: Histogram<string>;
  readonly apiErrors: Counter<string>;
  readonly signIns: Counter<string>;
  readonly mfa: Counter<string>;
  readonly limiterRefusals: Counter<string>;
  readonly lockouts: Counter<string>;
  readonly hashingWait: Histogram<string>;
  readonly hashingRefusals: Counter<string>;
  readonly deliveries: Counter<string>;
  readonly cacheLookups: Counter<string>;
  readonly cacheEvictions: Counter<string>;
  readonly #sources: ScrapeSources = {};

  constructor(options: MetricsOptions) {
    this.tenantLabel = options.tenantLabel;
    const registers = [this.registry];
    const tenant = options.tenantLabel ? ['tenant'] : [];
    if (options.runtime !== false)
      collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 20 });
    this.requests = new Counter({
      name: 'keycard_http_requests_total',
      help: 'Requests answered, by route template, method and status class',
      labelNames: ['route', 'method', 'status_class', ...tenant],
      registers,
    });
    this.requestDuration = new Histogram({
      name: 'keycard_http_request_duration_seconds',
      help: 'Time from a request arriving to its answer, by route template, method and status class',
      labelNames: ['route', 'method', 'status_class'],
      buckets: durationBuckets,
      registers,
    });
    this.apiErrors = new Counter({
      name: 'keycard_api_errors_total',
      help: 'Failures the API and admin API answered, by route template, method and error code',
      labelNames: ['route', 'method', 'code', ...tenant],
      registers,
    });
    this.signIns = new Counter({
      name: 'keycard_sign_ins_total',
      help: 'Sign-in steps answered (login, authenticate, passkey, partner_sso, authorize), by result and error code',
      labelNames: ['step', 'result', 'reason', ...tenant],
      registers,
    });
    this.mfa = new Counter({
      name: 'keycard_mfa_verifications_total',
      help: 'MFA proofs checked, by method (totp, sms, voice, recovery_code, smmobile, passkey) and result',
      labelNames: ['method', 'result', 'reason', ...tenant],
      registers,
    });
    this.limiterRefusals = new Counter({
      name: 'keycard_limiter_refusals_total',
      help: 'Attempts an attempt limit refused, by limit name and whether the key was locked',
      labelNames: ['limit', 'locked'],
      registers,
    });
    this.lockouts = new Counter({
      name: 'keycard_lockouts_total',
      help: 'Keys locked by a failure that filled their bucket, by limit name',
      labelNames: ['limit'],
      registers,
    });
    this.hashingWait = new Histogram({
      name: 'keycard_hashing_queue_wait_seconds',
      help: 'How long a password hash waited for its turn, by lane (priority or ordinary)',
      labelNames: ['lane'],
      buckets: waitBuckets,
      registers,
    });
    this.hashingRefusals = new Counter({
      name: 'keycard_hashing_refusals_total',
      help: 'Password hashes refused because the queue was full (503 common.busy), by lane',
      labelNames: ['lane'],
      registers,
    });
    this.deliveries = new Counter({
      name: 'keycard_message_deliveries_total',
      help: 'Outbox delivery attempts, by channel (email, sms, voice, push), result and error code',
      labelNames: ['channel', 'result', 'reason'],
      registers,
    });
    this.cacheLookups = new Counter({
      name: 'keycard_cache_lookups_total',
      help: "Look-ups in the instance's caches (provider: each tenant's oidc-provider; tenant: tenants by code; tenant_domain: host names), by result: hit, miss (built or loaded), rebuild (a provider built again after it was dropped)",
      labelNames: ['cache', 'result', ...tenant],
      registers,
    });
    this.cacheEvictions = new Counter({
      name: 'keycard_cache_evictions_total',
      help: "Entries dropped from the instance's caches because a tenant changed (here or on another instance), by cache",
      labelNames: ['cache', ...tenant],
      registers,
    });
    const sources = this.#sources;
    new Gauge({
      name: 'keycard_hashing_queue_running',
      help: 'Password hashes running now',
      registers,
      collect() {
        this.set(sources.hashingQueue?.()?.running ?? 0);
      },
    });
    new Gauge({
      name: 'keycard_hashing_queue_waiting',
      help: 'Password hashes waiting for their turn now',
      registers,
      collect() {
        this.set(sources.hashingQueue?.()?.waiting ?? 0);
      },
    });
    new Gauge({
      name: 'keycard_hashing_queue_capacity',
      help: 'Hashes that may run at once plus hashes that may wait (HASHING_CONCURRENCY + HASHING_QUEUE_LENGTH)',
      registers,
      collect() {
        const settings = sources.hashingQueue?.()?.settings;
        this.set(settings ? settings.concurrency + settings.queueLength : 0);
      },
    });
    // The outbox's backlog: one cheap query per scrape, shared by its three gauges (a scrape
    // asks them all at once, while the query is in flight).
    let backlog: ReturnType<NonNullable<ScrapeSources['outbox']>> | undefined;
    const readBacklog = () => {
      backlog ??= (sources.outbox?.() ?? Promise.resolve(null))
        .catch(() => null)
        .finally(() => {
          backlog = undefined;
        });
      return backlog;
    };
    new Gauge({
      name: 'keycard_outbox_pending_messages',
      help: 'Messages (mail, SMS, voice, push) waiting for delivery or being delivered',
      registers,
      async collect() {
        const state = await readBacklog();
        if (state) this.set(state.pending);
      },
    });
    new Gauge({
      name: 'keycard_outbox_failed_messages',
      help: 'Messages given up on (a permanent failure), kept until swept',
      registers,
      async collect() {
        const state = await readBacklog();
        if (state) this.set(state.failed);
      },
    });
    new Gauge({
      name: 'keycard_outbox_oldest_pending_age_seconds',
      help: 'Age of the oldest message still waiting for delivery (0 when none waits)',
      registers,
      async collect() {
        const state = await readBacklog();
        if (!state) return;
        const now = sources.now?.() ?? Date.now();
        this.set(state.oldestCreatedAt === null ? 0 : Math.max(0, (now - state.oldestCreatedAt) / 1000));
      },
    });
    new Gauge({
      name: 'keycard_db_pool_connections',
      help: 'PostgreSQL pool connections by state: open (total), idle, and requests waiting for one',
      labelNames: ['state'],
      registers,
      collect() {
        const pool = sources.pool?.();
        if (!pool) return;
        this.set({ state: 'total' }, pool.total);
        this.set({ state: 'idle' }, pool.idle);
        this.set({ state: 'waiting' }, pool.waiting);
        this.set({ state: 'max' }, pool.max);
      },
    });
  }

  /** Where scrapes read the stores' state from (set once the app has them). */
  useSources(sources: ScrapeSources): void {
    Object.assign(this.#sources, sources);
  }

  /** The hashing queue's observer: waits and refusals by lane. */
  hashingObserver(): HashingObserver {
    return {
      started: (waitedMs, priority) =>
        this.hashingWait.observe({ lane: priority ? 'priority' : 'ordinary' }, waitedMs / 1000),
      refused: (priority) => this.hashingRefusals.inc({ lane: priority ? 'priority' : 'ordinary' }),
    };
  }

  /** The outbox worker's observer: each attempt's result by channel, with its error code's kind. */
  deliveryObserver(): (channel: string, outcome: DeliveryOutcome) => void {
    return (channel, outcome) => {
      const known = knownChannels.has(channel) ? channel : 'other';
      if (outcome.status === 'failed') {
        const result = outcome.retryable ? 'retry' : 'failed';
        this.deliveries.inc({ channel: known, result, reason: boundedCode(outcome.error) });
      } else if (outcome.status === 'sent') {
        this.deliveries.inc({ channel: known, result: 'sent', reason: 'none' });
      }
    };
  }

  /**
   * Counts a cache's look-up or drop (the provider registry's and the tenant directory's
   * observers). The tenant label, when on, names the provider cache's tenant; the tenant
   * caches are keyed by what requests bring (host names, codes), so they carry `none`.
   */
  cacheEvent(
    cache: 'provider' | 'tenant' | 'tenant_domain',
    event: 'hit' | 'miss' | 'rebuild' | 'evict',
    tenantCode?: string,
    count = 1,
  ): void {
    const tenant = this.tenantLabel ? { tenant: tenantCode ?? 'none' } : {};
    if (event === 'evict') this.cacheEvictions.inc({ cache, ...tenant }, count);
    else this.cacheLookups.inc({ cache, result: event, ...tenant }, count);
  }

  /** The exposition text of every metric. */
  exposition(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
