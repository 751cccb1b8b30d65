import { errorCodes } from '@keycard/contract';
import type { Kysely } from 'kysely';
import { isLeakedPassword, verifyDummyPassword, verifyPassword } from '../accounts/password.service.ts';
import { findUserByEmail } from '../accounts/user.repository.ts';
import type { Database } from '../db/schema.ts';
import type { RateLimiter } from '../security/rate-limiter.ts';
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
    };

/** A login code is redeemed by /api/authenticate within a minute, once. */
export const loginCodeTtlMs = 60_000;

/**
 * The hosted identity service's username-and-password login. Unknown e-mails, pending
 * accounts and wrong passwords look the same from outside: the same answer, one argon2
 * verification each, and the same lockout counter (keyed by e-mail, not by account), so
 * neither the answer nor the timing reveals whether an account exists.
 */
export async function passwordLogin(
  deps: { db: Kysely<Database>; limiter: RateLimiter; policy: LoginPolicy },
  tenant: TenantContext,
  input: { email: string; password: string; state: string; ip: string },
  now: number,
): Promise<LoginOutcome> {
  const { db, limiter, policy } = deps;
  const lockoutWindow = policy.lockoutMinutes * 60_000;
  const lockKey = `login:email:${tenant.code}:${input.email}`;

  const ip = await limiter.hit(`login:ip:${tenant.code}:${input.ip}`, policy.ipLimitPerMinute, 60_000, now);
  if (!ip.allowed) {
    await verifyDummyPassword(input.password);
    return { ok: false, code: errorCodes.tooManyAttempts };
  }
  if ((await limiter.peek(lockKey, lockoutWindow, now)) >= policy.maxFailures) {
    await verifyDummyPassword(input.password);
    return { ok: false, code: errorCodes.tooManyAttempts };
  }

  const user = await findUserByEmail(db, tenant.code, input.email);
  const passwordOk =
    user && user.status === 'active' && user.password_hash
      ? await verifyPassword(user.password_hash, input.password)
      : await verifyDummyPassword(input.password);

  if (!passwordOk || !user) {
    const failures = await limiter.hit(lockKey, Number.MAX_SAFE_INTEGER, lockoutWindow, now);
    return {
      ok: false,
      code: failures.count >= policy.maxFailures ? errorCodes.tooManyAttempts : errorCodes.invalidCredentials,
    };
  }
  await limiter.reset(lockKey);

  // The right password, but one on public leak lists: refuse it until it is changed.
  if (await isLeakedPassword(input.password)) return { ok: false, code: errorCodes.passwordLeaked };

  const code = await issueToken(
    db,
    {
      tenantCode: tenant.code,
      userId: user.id,
      purpose: 'LOGIN_CODE',
      ttlMs: loginCodeTtlMs,
      data: { state: input.state },
    },
    now,
  );
  return { ok: true, code };
}
