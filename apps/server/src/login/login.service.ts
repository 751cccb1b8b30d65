import { errorCodes } from '@keycard/contract';
import type { Kysely } from 'kysely';
import {
  hashPassword,
  isLeakedPassword,
  needsRehash,
  verifyDummyPassword,
  verifyPassword,
} from '../accounts/password.service.ts';
import { findUserByEmail, upgradePasswordHash } from '../accounts/user.repository.ts';
import type { Database } from '../db/schema.ts';
import { findTrustedDeviceId } from '../mfa/device.service.ts';
import type { LimitRule, RateLimiter } from '../security/rate-limiter.ts';
import { issueToken } from '../shared/one-time-token.ts';
import type { TenantContext } from '../tenants/tenant.types.ts';

export interface LoginPolicy {
  maxFailures: number;
  lockoutMinutes: number;
  ipLimitPerMinute: number;
}

export type LoginOutcome =
  | { ok: true; code: string }
  | {
      ok: false;
      code:
        | typeof errorCodes.invalidCredentials
        | typeof errorCodes.tooManyAttempts
        | typeof errorCodes.passwordLeaked;
      /** When a refused attempt may be made again (too many attempts). */
      retryAfterMs?: number;
    };

/** A login code is redeemed by /api/authenticate within a minute, once. */
export const loginCodeTtlMs = 60_000;

/** The lockout: maxFailures in a burst (draining over the period) lock for the period. */
export function lockoutRule(policy: LoginPolicy): LimitRule {
  const period = policy.lockoutMinutes * 60_000;
  return { limit: policy.maxFailures, windowMs: period, lockMs: period };
}

/** Login attempts per client address and tenant: a rate, no lock. */
export function addressRule(policy: LoginPolicy): LimitRule {
  return { limit: policy.ipLimitPerMinute, windowMs: 60_000, lockMs: 0 };
}

/**
 * The hosted identity service's username-and-password login.
 *
 * Invariant 7: each attempt is counted (reserved) atomically *before* the password is
 * verified, per client address and per account key, so a burst of concurrent guesses gets
 * exactly the allowance and no more; a failure that fills the bucket locks the key for the
 * whole period from that moment; a success gives back only its own count, never failures
 * still in flight.
 *
 * The account key is the e-mail address — the same for unknown, pending and active accounts,
 * so neither the answer nor the timing (one argon2 verification each; a dummy hash for
 * unknown users) reveals whether an account exists. A browser the owner trusted after MFA
 * presents its device token and is counted under a key of its own: whoever guesses at the
 * address elsewhere cannot lock the owner out of their own device (docs/security.md).
 */
export async function passwordLogin(
  deps: { db: Kysely<Database>; limiter: RateLimiter; policy: LoginPolicy },
  tenant: TenantContext,
  input: {
    email: string;
    password: string;
    state: string;
    ip: string;
    userDeviceToken?: string | undefined;
    iid?: string | undefined;
  },
  now: number,
): Promise<LoginOutcome> {
  const { db, limiter, policy } = deps;
  const address = addressRule(policy);
  const byAddress = await limiter.reserve(`login:ip:${tenant.code}:${input.ip}`, address, now);
  if (!byAddress.allowed) {
    return { ok: false, code: errorCodes.tooManyAttempts, retryAfterMs: byAddress.retryAfterMs };
  }

  const user = await findUserByEmail(db, tenant.code, input.email);
  const deviceId =
    user && input.userDeviceToken
      ? await findTrustedDeviceId(
          db,
          { tenantCode: tenant.code, userId: user.id, token: input.userDeviceToken },
          now,
        )
      : null;
  const key = deviceId
    ? `login:device:${tenant.code}:${deviceId}`
    : `login:email:${tenant.code}:${input.email}`;
  const rule = lockoutRule(policy);
  const reservation = await limiter.reserve(key, rule, now);
  // Refused attempts are answered at once: the lock is keyed by address, not by account, so
  // answering faster reveals nothing, and a burst costs no password hashing.
  if (!reservation.allowed) {
    return { ok: false, code: errorCodes.tooManyAttempts, retryAfterMs: reservation.retryAfterMs };
  }

  const passwordOk =
    user && user.status === 'active' && user.password_hash
      ? await verifyPassword(user.password_hash, input.password)
      : await verifyDummyPassword(input.password);
  if (!passwordOk || !user) {
    const { locked } = await limiter.fail(key, rule, now);
    return locked
      ? { ok: false, code: errorCodes.tooManyAttempts, retryAfterMs: rule.lockMs }
      : { ok: false, code: errorCodes.invalidCredentials };
  }
  await limiter.release(key, rule, now);

  // The right password, but one on public leak lists: refuse it until it is changed.
  if (await isLeakedPassword(input.password)) return { ok: false, code: errorCodes.passwordLeaked };

  // A hash made with less work than today's parameters is made again, now the password is here.
  if (needsRehash(user.password_hash!)) {
    await upgradePasswordHash(db, user, await hashPassword(input.password));
  }

  const code = await issueToken(
    db,
    {
      tenantCode: tenant.code,
      userId: user.id,
      purpose: 'LOGIN_CODE',
      ttlMs: loginCodeTtlMs,
      data: { state: input.state, iid: input.iid ?? null },
    },
    now,
  );
  return { ok: true, code };
}
