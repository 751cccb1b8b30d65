import { adminErrors } from '@keycard/contract';
import type { Config } from '../../platform/config.ts';
import { limitKeys } from '../../platform/security/limit-keys.ts';
import type { LimitRule, RateLimiter } from '../../platform/security/rate-limiter.ts';
import { AppError, retryAfter } from '../../platform/shared/errors.ts';

/**
 * The admin API's request limits (docs/admin-api.md#limits), in the rate-limit store login
 * uses (the database or Redis), so they hold across every instance. Three leaky buckets, a
 * minute each:
 * - per client address, every request, counted first;
 * - per client address, requests whose token fails: charged before the token is looked up
 *   and given back when it is valid (invariant 7), so a burst of guesses cannot slip past
 *   the count while their lookups run. When it is full the token is still looked up and only
 *   a failing one is refused: others' failures at a shared address never shut out a valid token;
 * - per operator, every authenticated request.
 */
const minute = 60_000;

/** The failed-token allowance taken before the lookup, or the refusal for a failing token when it is full. */
export type FailedTokenCharge = { charged: true } | { charged: false; refusal: AppError };

export interface AdminLimits {
  /** Before the token is checked: the address's allowance, then a charge on its failed-token allowance. */
  beforeAuthentication(address: string, now: number): Promise<FailedTokenCharge>;
  /** The token was valid: its failed-token charge is given back. */
  authenticated(address: string, now: number): Promise<void>;
  /** After the token is checked: the operator's allowance. */
  forOperator(operatorId: string, now: number): Promise<void>;
}

export function adminLimits(limiter: RateLimiter, config: Config): AdminLimits {
  const rule = (limit: number): LimitRule => ({ limit, windowMs: minute, lockMs: 0 });
  const perAddress = rule(config.adminLimits.perAddress);
  const failures = rule(config.adminLimits.authFailuresPerAddress);
  const perOperator = rule(config.adminLimits.perOperator);
  const rateLimited = (retryAfterMs: number) =>
    new AppError(adminErrors.rateLimited, { fields: retryAfter(retryAfterMs) });
  const take = async (key: string, limit: LimitRule, now: number) => {
    const reservation = await limiter.reserve(key, limit, now);
    if (!reservation.allowed) throw rateLimited(reservation.retryAfterMs);
  };
  return {
    async beforeAuthentication(address, now) {
      await take(limitKeys.adminAddress(address), perAddress, now);
      const reservation = await limiter.reserve(limitKeys.adminTokenFailures(address), failures, now);
      return reservation.allowed
        ? { charged: true }
        : { charged: false, refusal: rateLimited(reservation.retryAfterMs) };
    },
    async authenticated(address, now) {
      await limiter.release(limitKeys.adminTokenFailures(address), failures, now);
    },
    async forOperator(operatorId, now) {
      await take(limitKeys.adminOperator(operatorId), perOperator, now);
    },
  };
}
