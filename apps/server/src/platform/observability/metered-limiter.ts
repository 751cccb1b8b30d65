import { limitNameOf } from '../security/limit-keys.ts';
import type { Failure, LimitRule, RateLimiter, Reservation } from '../security/rate-limiter.ts';
import type { Metrics } from './metrics.ts';

/**
 * The attempt limiter, counted: each refusal by the limit's name (limitNameOf, never the key:
 * keys carry addresses and e-mails) and whether the key was locked, and each lockout a failure
 * set. The store's work is unchanged; counting happens as its answer passes.
 */
export class MeteredLimiter implements RateLimiter {
  readonly #inner: RateLimiter;
  readonly #metrics: Metrics;

  constructor(inner: RateLimiter, metrics: Metrics) {
    this.#inner = inner;
    this.#metrics = metrics;
  }

  reserve(key: string, rule: LimitRule, now: number): Promise<Reservation> {
    return this.#inner.reserve(key, rule, now).then((reservation) => {
      if (!reservation.allowed) {
        this.#metrics.limiterRefusals.inc({ limit: limitNameOf(key), locked: String(reservation.locked) });
      }
      return reservation;
    });
  }

  release(key: string, rule: LimitRule, now: number): Promise<void> {
    return this.#inner.release(key, rule, now);
  }

  fail(key: string, rule: LimitRule, now: number): Promise<Failure> {
    return this.#inner.fail(key, rule, now).then((failure) => {
      // A lock this failure set lasts the rule's full period; one set before has less left.
      if (failure.locked && failure.retryAfterMs >= rule.lockMs) {
        this.#metrics.lockouts.inc({ limit: limitNameOf(key) });
      }
      return failure;
    });
  }

  lockedUntil(key: string, now: number): Promise<number> {
    return this.#inner.lockedUntil(key, now);
  }

  clear(key: string): Promise<void> {
    return this.#inner.clear(key);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }
}
