import { setTimeout as sleep } from 'node:timers/promises';
import { errorCodes, type Locale, lifecycleErrors, lifecycleTokenTtl } from '@keycard/contract';
import type { Kysely } from 'kysely';
import { publicOrigin } from '../../platform/config.ts';
import type { Database } from '../../platform/db/schema.ts';
import { renderAccountMail } from '../../platform/messaging/templates/account-mail.ts';
import { limitKeys } from '../../platform/security/limit-keys.ts';
import type { RateLimiter } from '../../platform/security/rate-limiter.ts';
import { AppError, retryAfter } from '../../platform/shared/errors.ts';
import {
  consumeUserTokens,
  issueToken,
  peekToken,
  redeemToken,
} from '../../platform/shared/one-time-token.ts';
import { endUserAccess } from '../sessions/index.ts';
import type { TenantContext } from '../tenants/index.ts';
import { claimAccount } from './account-claim.ts';
import { accountLink, queueAccountMail } from './account-mail.ts';
import { recordActivity } from './activity.ts';
import { type LifecycleDeps, queueActivation } from './invitation.service.ts';
import { hashPassword } from './password.service.ts';
import { assertPasswordAllowed, recordPasswordHistory } from './password-policy.ts';
import { findUserByEmail, findUserById, type UserRow } from './user.repository.ts';

export const resetTtlMs = lifecycleTokenTtl.resetMinutes * 60_000;

/** Mails one address may be sent per hour (reset and activation together): no mail bombing. */
export const mailsPerAddressPerHour = 5;
/** Reset and resend requests one client address may make per 15 minutes, per tenant. */
export const mailRequestsPerIpPer15Minutes = 20;

/**
 * Every reset or resend request takes at least this long, whether the address has an account
 * or not, so response timing does not tell which addresses exist (ARCHITECTURE invariant 4).
 * The real work (a token and a mail in one transaction) takes a few milliseconds.
 */
export const mailRequestFloorMs = 250;

export interface MailRequestDeps extends LifecycleDeps {
  limiter: RateLimiter;
}

/** Per client address; over the limit the request is refused with a 429 (the same for any e-mail). */
export async function limitMailRequests(
  limiter: RateLimiter,
  tenant: TenantContext,
  ip: string,
  now: number,
): Promise<void> {
  const hit = await limiter.reserve(
    limitKeys.lifecycleAddress(tenant.code, ip),
    { limit: mailRequestsPerIpPer15Minutes, windowMs: 15 * 60_000, lockMs: 0 },
    now,
  );
  if (!hit.allowed) throw new AppError(errorCodes.rateLimited, { fields: retryAfter(hit.retryAfterMs) });
}

async function withFloor<T>(floorMs: number, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    const left = floorMs - (performance.now() - started);
    if (left > 0) await sleep(left);
  }
}

/**
 * Per address; over the limit no more mail goes out, silently: the answer stays the same, so
 * the limit reveals nothing about the address.
 */
async function mayMail(limiter: RateLimiter, tenant: TenantContext, email: string, now: number) {
  const hit = await limiter.reserve(
    limitKeys.lifecycleMail(tenant.code, email),
    { limit: mailsPerAddressPerHour, windowMs: 3_600_000, lockMs: 0 },
    now,
  );
  return hit.allowed;
}

/** Work of the same kind as a real request, for addresses that get no mail (timing parity). */
async function decoyWork(deps: LifecycleDeps, tenant: TenantContext, email: string) {
  await renderAccountMail({
    kind: 'reset',
    locale: 'en',
    theme: tenant.theme,
    origin: publicOrigin(deps.config, tenant.loginDomain),
    link: accountLink(deps.config, tenant, 'reset', 'decoy', { email, locale: 'en' }),
  });
  await deps.db.transaction().execute(async (trx) => {
    await findUserByEmail(trx, tenant.code, email);
  });
}

/**
 * SPEC §4 reset request. An active account gets a reset link; a pending one gets its
 * activation mail again and the 'activate' answer (which SPEC reveals by design); unknown and
 * disabled addresses get the 'reset' answer, no mail, and the same timing.
 */
export async function requestPasswordReset(
  deps: MailRequestDeps,
  tenant: TenantContext,
  email: string,
  now: number,
  /** The language the person asked in: the mail and its link use it over the account's. */
  asked?: Locale,
): Promise<{ state: 'reset' | 'activate'; messageId: string | null }> {
  return withFloor(mailRequestFloorMs, async () => {
    const user = await findUserByEmail(deps.db, tenant.code, email);
    const state = user?.status === 'pending' ? 'activate' : 'reset';
    const allowed = await mayMail(deps.limiter, tenant, email, now);
    if (!user || !allowed || user.status === 'disabled') {
      await decoyWork(deps, tenant, email);
      return { state, messageId: null };
    }
    const recipient = { ...user, locale: asked ?? user.locale };
    const messageId = await deps.db.transaction().execute(async (trx) => {
      if (user.status === 'pending') return queueActivation(trx, deps.config, tenant, recipient, now);
      const token = await issueToken(
        trx,
        { tenantCode: tenant.code, userId: user.id, purpose: 'RESET', ttlMs: resetTtlMs },
        now,
      );
      return queueAccountMail(trx, deps.config, tenant, { kind: 'reset', token, user: recipient }, now);
    });
    return { state, messageId };
  });
}

/** POST …/resend-activation: a new activation mail for a pending account; the same answer for any other. */
export async function requestActivationResend(
  deps: MailRequestDeps,
  tenant: TenantContext,
  email: string,
  now: number,
  asked?: Locale,
): Promise<{ messageId: string | null }> {
  return withFloor(mailRequestFloorMs, async () => {
    const user = await findUserByEmail(deps.db, tenant.code, email);
    const allowed = await mayMail(deps.limiter, tenant, email, now);
    if (user?.status !== 'pending' || !allowed) {
      await decoyWork(deps, tenant, email);
      return { messageId: null };
    }
    const messageId = await deps.db
      .transaction()
      .execute((trx) =>
        queueActivation(trx, deps.config, tenant, { ...user, locale: asked ?? user.locale }, now),
      );
    return { messageId };
  });
}

/** SPEC §8: an unknown or used reset link is TokenNotFound (409); an old one TokenExpired (410). */
function resetTokenError(reason: 'not_found' | 'expired' | 'consumed'): AppError {
  return reason === 'expired'
    ? new AppError(lifecycleErrors.resetTokenExpired)
    : new AppError(lifecycleErrors.resetTokenNotFound);
}

/** The active account a reset link belongs to (the link is not used up). */
export async function checkResetToken(
  db: Kysely<Database>,
  tenant: TenantContext,
  token: string,
  now: number,
): Promise<UserRow> {
  const found = await peekToken(db, { tenantCode: tenant.code, purpose: 'RESET', token }, now);
  if (!found.ok) throw resetTokenError(found.reason);
  const user = found.userId ? await findUserById(db, tenant.code, found.userId) : undefined;
  if (user?.status !== 'active') throw resetTokenError('not_found');
  return user;
}

/**
 * Applies a reset: the new password (rules, leak list, last four), then in one transaction
 * the link is redeemed, the password stored, the user's other reset links retired, and every
 * session, grant and token of the user ended (invariant 7) — whoever knew the old password
 * is signed out of Keycard and of every app. The login lockout of the address is lifted: the
 * owner has just proven control of the mailbox, and so claims the account: partner links the
 * owner never confirmed are removed (account-claim.ts).
 */
export async function applyPasswordReset(
  deps: MailRequestDeps,
  tenant: TenantContext,
  input: { token: string; password: string },
  now: number,
): Promise<{ email: string }> {
  const user = await checkResetToken(deps.db, tenant, input.token, now);
  await assertPasswordAllowed(deps.db, user, input.password);
  const passwordHash = await hashPassword(input.password);
  await deps.db.transaction().execute(async (trx) => {
    const redeemed = await redeemToken(
      trx,
      { tenantCode: tenant.code, purpose: 'RESET', token: input.token },
      now,
    );
    if (!redeemed.ok) throw resetTokenError(redeemed.reason);
    if (redeemed.userId !== user.id) throw resetTokenError('not_found');
    await trx
      .updateTable('users')
      .set({
        password_hash: passwordHash,
        password_changed_at: now,
        updated_at: now,
      })
      .where('id', '=', user.id)
      .where('tenant_code', '=', tenant.code)
      .execute();
    await recordPasswordHistory(trx, user.id, passwordHash, now);
    await consumeUserTokens(trx, { tenantCode: tenant.code, userId: user.id, purpose: 'RESET' }, now);
    await endUserAccess(trx, { tenantCode: tenant.code, userId: user.id }, now);
    await recordActivity(trx, { tenantCode: tenant.code, userId: user.id, kind: 'password-reset' }, now);
    // The reset proves the mailbox: links its owner never confirmed go (issue 16).
    await claimAccount(trx, deps.config, tenant, user, now);
  });
  await deps.limiter.clear(limitKeys.loginEmail(tenant.code, user.email));
  return { email: user.email };
}
