import { errorCodes, type LoginLimit } from '@keycard/contract';
import type { Kysely } from 'kysely';
import type { Config } from '../../platform/config.ts';
import type { Database } from '../../platform/db/schema.ts';
import type { HashingPlace, HashingTicket } from '../../platform/security/hashing-queue.ts';
import { limitKeys } from '../../platform/security/limit-keys.ts';
import {
  type LimitRule,
  levelTolerance,
  type RateLimiter,
  reserveSettled,
} from '../../platform/security/rate-limiter.ts';
import type { Clock } from '../../platform/shared/clock.ts';
import { AppError } from '../../platform/shared/errors.ts';
import { issueToken } from '../../platform/shared/one-time-token.ts';
import {
  admitHashing,
  findUserByEmail,
  hashPassword,
  isLeakedPassword,
  needsRehash,
  recordActivity,
  sendSecurityMail,
  type UserRow,
  upgradePasswordHash,
  verifyDummyPassword,
  verifyPassword,
} from '../accounts/index.ts';
import { findTrustedDeviceId } from '../factors/index.ts';
import { countKnownBrowsers, findKnownBrowserId } from '../sessions/index.ts';
import type { TenantContext } from '../tenants/index.ts';

export interface LoginPolicy {
  maxFailures: number;
  lockoutMinutes: number;
  ipLimitPerMinute: number;
}

export type LoginOutcome =
  | { ok: true; code: string }
  | {
      ok: false;
      code: typeof errorCodes.invalidCredentials;
      /** Failures left before the lockout, once it is near (`lockoutWarning`); else absent. */
      attemptsLeft?: number;
    }
  | { ok: false; code: typeof errorCodes.passwordLeaked }
  | {
      ok: false;
      code: typeof errorCodes.tooManyAttempts;
      /** Which limit refused: the client address's rate, or the account's lockout. */
      limit: LoginLimit;
      /** When a refused attempt may be made again. */
      retryAfterMs: number;
    };

/** A login code is redeemed by /api/authenticate within a minute, once. */
export const loginCodeTtlMs = 60_000;

/** The lockout: maxFailures in a burst (draining over the period) lock for the period. */
export function lockoutRule(policy: LoginPolicy): LimitRule {
  const period = policy.lockoutMinutes * 60_000;
  return { limit: policy.maxFailures, windowMs: period, lockMs: period };
}

/** The failures in a row after which a wrong password is told how many attempts are left. */
export const lockoutWarningAfter = 3;

/**
 * Attempts left before the lock, when it is near: after `lockoutWarningAfter` failures (a
 * lockout of three failures or fewer locks first, and warns of nothing). Read from the bucket
 * the failure filled, the same for an address with an account and one without, so it says
 * nothing about either.
 */
export function lockoutWarning(policy: LoginPolicy, level: number | undefined): number | undefined {
  if (level === undefined) return undefined;
  // The failure that fills the bucket locks: k more fail to fit once level + k > limit - 1.
  // The level drains continuously, so 2.999 (three failures a moment ago) leaves two, not three.
  const left = Math.floor(policy.maxFailures - 1 - level + levelTolerance) + 1;
  const failures = policy.maxFailures - left;
  if (left < 1 || failures < lockoutWarningAfter) return undefined;
  return left;
}

/** Login attempts per client address and tenant: a rate, no lock. */
export function addressRule(policy: LoginPolicy): LimitRule {
  return { limit: policy.ipLimitPerMinute, windowMs: 60_000, lockMs: 0 };
}

/** What a login code carries to /api/authenticate. */
export interface LoginCodeData {
  state: string;
  /** The app request the password was entered for (the portal's AUTH_X_IID), if any. */
  iid: string | null;
  /** When the password was checked: the session's auth_time. */
  passwordAt: number;
  /** The password's date when it was checked: a code is void once the password changed. */
  passwordChangedAt: number | null;
  /** This browser was already known for the account (no new known-browser token needed). */
  knownBrowser: boolean;
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
 * unknown users) reveals whether an account exists. A browser the owner uses is counted under
 * a key of its own — a device trusted after MFA, or a browser that signed in to the account
 * before — so whoever guesses at the address elsewhere cannot lock the owner out of it
 * (docs/security.md).
 */
export async function passwordLogin(
  deps: LoginDeps,
  tenant: TenantContext,
  input: LoginInput,
  now: number,
): Promise<LoginOutcome> {
  // Without a device or known-browser token this attempt cannot be in the hashing queue's
  // priority lane: it takes a place there first, and when there is none it is refused before
  // any lookup or count.
  const place = input.userDeviceToken || input.knownBrowserToken ? undefined : await admitHashing();
  try {
    return await checkLogin(deps, tenant, input, now, place);
  } finally {
    place?.release();
  }
}

type LoginDeps = {
  db: Kysely<Database>;
  limiter: RateLimiter;
  policy: LoginPolicy;
  clock: Clock;
  /** For the new-browser mail's links (the tenant's public origin); without it, no mail. */
  config?: Config | undefined;
};

interface LoginInput {
  email: string;
  password: string;
  state: string;
  ip: string;
  /** The browser's User-Agent header, for the account's recent activity and the new-browser mail. */
  userAgent?: string | undefined;
  userDeviceToken?: string | undefined;
  knownBrowserToken?: string | undefined;
  iid?: string | undefined;
}

async function checkLogin(
  deps: LoginDeps,
  tenant: TenantContext,
  input: LoginInput,
  now: number,
  place: HashingPlace | undefined,
): Promise<LoginOutcome> {
  const { db, limiter, policy, clock } = deps;
  const address = addressRule(policy);
  const byAddress = await limiter.reserve(limitKeys.loginAddress(tenant.code, input.ip), address, now);
  if (!byAddress.allowed) {
    // Decided before the account is looked up: it says nothing about whether one exists.
    return {
      ok: false,
      code: errorCodes.tooManyAttempts,
      limit: 'address',
      retryAfterMs: byAddress.retryAfterMs,
    };
  }

  const user = await findUserByEmail(db, tenant.code, input.email);
  const key = await lockoutKey(db, tenant, input, user, now);
  const rule = lockoutRule(policy);
  // A bucket full of attempts still being checked waits for them to settle, so the wait told
  // is the one that applies (the lock's, or none). Refused attempts cost no password hashing,
  // and the lock is keyed by address, not by account: answering sooner reveals nothing.
  // While it waits it holds no hashing place: a burst at one address must not crowd others out.
  const reservation = await reserveSettled(limiter, key.name, rule, () => clock.now(), {
    beforeWaiting: () => place?.release(),
  });
  if (!reservation.allowed) {
    return {
      ok: false,
      code: errorCodes.tooManyAttempts,
      limit: 'account',
      retryAfterMs: reservation.retryAfterMs,
    };
  }

  // Hashed in the instance's queue: a browser or device the account knows goes first, every
  // other attempt waits its tenant's turn (security/hashing-queue.ts).
  const ticket: HashingTicket = { tenant: tenant.code, priority: key.priority, place };
  let passwordOk: boolean;
  try {
    passwordOk = await checkPassword(user, input.password, ticket);
  } catch (error) {
    // Refused before any hash (common.busy): the password was not checked, so not counted.
    await limiter.release(key.name, rule, now);
    throw error;
  }
  if (!passwordOk || !user) {
    // The lock runs from this failure, not from when the request came in.
    const failure = await limiter.fail(key.name, rule, clock.now());
    if (user?.status === 'active') noteFailedSignIn(db, tenant, user, input, now);
    if (failure.locked) {
      return {
        ok: false,
        code: errorCodes.tooManyAttempts,
        limit: 'account',
        retryAfterMs: failure.retryAfterMs,
      };
    }
    const attemptsLeft = lockoutWarning(policy, failure.level);
    return attemptsLeft === undefined
      ? { ok: false, code: errorCodes.invalidCredentials }
      : { ok: false, code: errorCodes.invalidCredentials, attemptsLeft };
  }
  await limiter.release(key.name, rule, now);

  // The right password, but one on public leak lists: refuse it until it is changed.
  if (await isLeakedPassword(input.password)) return { ok: false, code: errorCodes.passwordLeaked };

  // A hash made with less work than today's parameters is made again, now the password is here;
  // when the instance's hashing is full it waits for a later sign-in.
  if (needsRehash(user.password_hash!)) {
    const rehashed = await hashPassword(input.password, ticket).catch((error: unknown) => {
      if (error instanceof AppError && error.code === errorCodes.busy) return undefined;
      throw error;
    });
    if (rehashed) await upgradePasswordHash(db, user, rehashed);
  }

  const data: LoginCodeData = {
    state: input.state,
    iid: input.iid ?? null,
    passwordAt: now,
    passwordChangedAt: user.password_changed_at,
    knownBrowser: key.knownBrowser,
  };
  // The code, the activity entry and the new-browser mail commit together: a crash cannot
  // leave a sign-in whose owner was not told, nor a mail about one that never happened.
  const code = await db.transaction().execute(async (trx) => {
    const issued = await issueToken(
      trx,
      { tenantCode: tenant.code, userId: user.id, purpose: 'LOGIN_CODE', ttlMs: loginCodeTtlMs, data },
      now,
    );
    await noteSignIn({ ...deps, db: trx }, tenant, user, input, key, now);
    return issued;
  });
  return { ok: true, code };
}

/**
 * A wrong password for an existing account, in its recent activity (only its owner reads it).
 * Not awaited: the answer, and its timing, must be the same whether the address has an account
 * or not (the insert would take a few milliseconds only for existing ones).
 */
function noteFailedSignIn(
  db: Kysely<Database>,
  tenant: TenantContext,
  user: UserRow,
  input: LoginInput,
  now: number,
): void {
  recordActivity(
    db,
    {
      tenantCode: tenant.code,
      userId: user.id,
      kind: 'sign-in-failed',
      userAgent: input.userAgent,
      ip: input.ip,
    },
    now,
  ).catch(() => {
    // Best effort: a lost entry must not fail or slow the sign-in's answer.
  });
}

/**
 * The password step passed: the account's recent activity says so, and where the tenant turned
 * it on, a browser the account has never signed in from gets its owner a mail (issue 18). A
 * browser is known when it signed in to the account before or is trusted after MFA; the very
 * first browser of an account (or the first after a reset forgot them all) is not news.
 */
async function noteSignIn(
  deps: LoginDeps,
  tenant: TenantContext,
  user: UserRow,
  input: LoginInput,
  key: { knownBrowser: boolean; priority: boolean },
  now: number,
): Promise<void> {
  const { db, config } = deps;
  await recordActivity(
    db,
    {
      tenantCode: tenant.code,
      userId: user.id,
      kind: 'sign-in',
      userAgent: input.userAgent,
      ip: input.ip,
      detail: { method: 'password' },
    },
    now,
  );
  // A trusted device or a known browser signed in (priority lane): nothing new.
  if (key.priority || !config || !tenant.settings.securityMail.newBrowserSignIn) return;
  if ((await countKnownBrowsers(db, tenant.code, user.id, now)) === 0) return;
  await sendSecurityMail(
    db,
    config,
    { tenant, user, event: 'new-browser-sign-in', userAgent: input.userAgent, ip: input.ip },
    now,
  );
}

/** What proving the password again on the account page came to. */
export type PasswordProof =
  | { ok: true }
  | { ok: false; code: typeof errorCodes.invalidCredentials }
  | { ok: false; code: typeof errorCodes.tooManyAttempts; retryAfterMs: number };

/**
 * The signed-in account's password proven again (the account page: changing the password, or
 * confirming it is you). Counted against the account's lockout like a sign-in, under the same
 * key as a password typed on the sign-in page of an unknown browser, and before the check
 * (invariant 7): a stolen session cannot guess the password faster than the sign-in page can.
 */
export async function checkAccountPassword(
  deps: Pick<LoginDeps, 'limiter' | 'policy' | 'clock'>,
  tenant: TenantContext,
  user: UserRow,
  password: string,
  now: number,
): Promise<PasswordProof> {
  const { limiter, policy, clock } = deps;
  const key = limitKeys.loginEmail(tenant.code, user.email);
  const rule = lockoutRule(policy);
  const reservation = await reserveSettled(limiter, key, rule, () => clock.now());
  if (!reservation.allowed) {
    return { ok: false, code: errorCodes.tooManyAttempts, retryAfterMs: reservation.retryAfterMs };
  }
  let ok: boolean;
  try {
    // A signed-in owner: the hashing queue's priority lane, like a browser the account knows.
    const ticket: HashingTicket = { tenant: tenant.code, priority: true };
    ok = user.password_hash ? await verifyPassword(user.password_hash, password, ticket) : false;
  } catch (error) {
    await limiter.release(key, rule, now);
    throw error;
  }
  if (!ok) {
    const failure = await limiter.fail(key, rule, clock.now());
    return failure.locked
      ? { ok: false, code: errorCodes.tooManyAttempts, retryAfterMs: failure.retryAfterMs }
      : { ok: false, code: errorCodes.invalidCredentials };
  }
  await limiter.release(key, rule, now);
  return { ok: true };
}

/**
 * Which bucket counts this attempt: the owner's trusted device, a browser that signed in to
 * the account before, or else the address (the same for every address, account or not).
 */
async function lockoutKey(
  db: Kysely<Database>,
  tenant: TenantContext,
  input: { email: string; userDeviceToken?: string | undefined; knownBrowserToken?: string | undefined },
  user: UserRow | undefined,
  now: number,
): Promise<{ name: string; knownBrowser: boolean; priority: boolean }> {
  if (user && input.userDeviceToken) {
    const deviceId = await findTrustedDeviceId(
      db,
      { tenantCode: tenant.code, userId: user.id, token: input.userDeviceToken },
      now,
    );
    if (deviceId)
      return { name: limitKeys.loginDevice(tenant.code, deviceId), knownBrowser: false, priority: true };
  }
  if (user && input.knownBrowserToken) {
    const browserId = await findKnownBrowserId(
      db,
      { tenantCode: tenant.code, userId: user.id, token: input.knownBrowserToken },
      now,
    );
    if (browserId)
      return { name: limitKeys.loginBrowser(tenant.code, browserId), knownBrowser: true, priority: true };
  }
  return { name: limitKeys.loginEmail(tenant.code, input.email), knownBrowser: false, priority: false };
}

/**
 * One argon2id verification for every attempt, for unknown addresses a dummy one. A stored
 * hash made with less work than today's (before a parameter change) is checked alongside a
 * dummy verification, so its speed does not tell that the address has an account.
 */
async function checkPassword(
  user: UserRow | undefined,
  password: string,
  ticket: HashingTicket,
): Promise<boolean> {
  if (user?.status !== 'active' || !user.password_hash) return verifyDummyPassword(password, ticket);
  if (!needsRehash(user.password_hash)) return verifyPassword(user.password_hash, password, ticket);
  const [ok] = await Promise.all([
    verifyPassword(user.password_hash, password, ticket),
    verifyDummyPassword(password, ticket),
  ]);
  return ok;
}
