import { errorCodes, type Locale, lifecycleErrors, lifecycleTokenTtl, paths } from '@keycard/contract';
import type { Kysely } from 'kysely';
import { publicOrigin } from '../../platform/config.ts';
import type { Database } from '../../platform/db/schema.ts';
import { limitKeys } from '../../platform/security/limit-keys.ts';
import type { RateLimiter } from '../../platform/security/rate-limiter.ts';
import { AppError, retryAfter } from '../../platform/shared/errors.ts';
import {
  consumeUserTokens,
  issueToken,
  peekToken,
  redeemToken,
} from '../../platform/shared/one-time-token.ts';
import type { TenantContext } from '../tenants/index.ts';
import { claimAccount } from './account-claim.ts';
import { queueAccountMail } from './account-mail.ts';
import type { LifecycleDeps } from './invitation.service.ts';
import { findUserById, type UserRow } from './user.repository.ts';

/** SPEC §9: an e-mail verification link is valid for 24 hours. */
export const verificationTtlMs = lifecycleTokenTtl.verificationHours * 3_600_000;
/** Verification mails one account may ask for per hour. */
export const verificationMailsPerHour = 5;

/**
 * POST …/send-verification: a verification link for the signed-in user's own address. The
 * caller has checked that the address is the session's; an address already verified gets
 * no mail (and the same answer).
 */
export async function sendVerificationMail(
  deps: LifecycleDeps & { limiter: RateLimiter },
  tenant: TenantContext,
  user: UserRow,
  now: number,
  /** The language asked in: the mail and its link use it over the account's. */
  asked?: Locale,
): Promise<{ messageId: string | null }> {
  const hit = await deps.limiter.reserve(
    limitKeys.verifyMail(tenant.code, user.id),
    { limit: verificationMailsPerHour, windowMs: 3_600_000, lockMs: 0 },
    now,
  );
  if (!hit.allowed) throw new AppError(errorCodes.rateLimited, { fields: retryAfter(hit.retryAfterMs) });
  if (user.email_verified === 1) return { messageId: null };
  const messageId = await deps.db.transaction().execute(async (trx) => {
    await consumeUserTokens(trx, { tenantCode: tenant.code, userId: user.id, purpose: 'VERIFY_EMAIL' }, now);
    const token = await issueToken(
      trx,
      {
        tenantCode: tenant.code,
        userId: user.id,
        purpose: 'VERIFY_EMAIL',
        ttlMs: verificationTtlMs,
        data: { email: user.email },
      },
      now,
    );
    const recipient = { email: user.email, locale: asked ?? user.locale };
    return queueAccountMail(trx, deps.config, tenant, { kind: 'verifyEmail', token, user: recipient }, now);
  });
  return { messageId };
}

/** SPEC §8: a failed token check is TokenInvalid (403); an old link answers 410. Both end on verify-expired. */
function verificationTokenError(reason: 'not_found' | 'expired' | 'consumed'): AppError {
  return reason === 'expired'
    ? new AppError(lifecycleErrors.verifyTokenExpired)
    : new AppError(lifecycleErrors.verifyTokenInvalid);
}

/** The account and the address a verification link was made for (the link is not used up). */
export async function checkVerificationToken(
  db: Kysely<Database>,
  tenant: TenantContext,
  token: string,
  now: number,
): Promise<{ user: UserRow; email: string }> {
  const found = await peekToken(db, { tenantCode: tenant.code, purpose: 'VERIFY_EMAIL', token }, now);
  if (!found.ok) throw verificationTokenError(found.reason);
  const email = (found.data as { email?: unknown } | null)?.email;
  const user = found.userId ? await findUserById(db, tenant.code, found.userId) : undefined;
  // A link made for an address the account no longer has is no longer good.
  if (!user || user.status === 'disabled' || typeof email !== 'string' || user.email !== email) {
    throw verificationTokenError('not_found');
  }
  return { user, email };
}

/**
 * PATCH /api/verify-email: the person types the address, the link proves they read its mail.
 * A mismatch answers EmailInValid (400) and leaves the link usable; a match redeems it.
 * The homepage is the portal's /authenticated page, which continues a pending sign-in.
 */
export async function verifyEmailAddress(
  deps: LifecycleDeps,
  tenant: TenantContext,
  input: { email: string; token: string },
  now: number,
): Promise<{ homepageUrl: string }> {
  const { user, email } = await checkVerificationToken(deps.db, tenant, input.token, now);
  if (input.email !== email) {
    throw new AppError(lifecycleErrors.verifyEmailInvalid);
  }
  await deps.db.transaction().execute(async (trx) => {
    const redeemed = await redeemToken(
      trx,
      { tenantCode: tenant.code, purpose: 'VERIFY_EMAIL', token: input.token },
      now,
    );
    if (!redeemed.ok) throw verificationTokenError(redeemed.reason);
    await trx
      .updateTable('users')
      .set({ email_verified: 1, updated_at: now })
      .where('id', '=', user.id)
      .where('tenant_code', '=', tenant.code)
      .where('email', '=', email)
      .execute();
    // Reading the mail proves the mailbox: links its owner never confirmed go (issue 16).
    await claimAccount(trx, deps.config, tenant, user, now);
  });
  return { homepageUrl: `${publicOrigin(deps.config, tenant.loginDomain)}${paths.authenticated}` };
}

/**
 * Applies a tenant's e-mail verification policy to its existing accounts: when the tenant
 * starts requiring verification, every account whose address is not verified yet is asked
 * for it at its next sign-in; when it stops, nobody is asked. (New accounts take the
 * tenant's setting when they are created.)
 */
export async function applyVerificationPolicy(
  db: Kysely<Database>,
  tenantCode: string,
  required: boolean,
  now: number,
): Promise<number> {
  let query = db
    .updateTable('users')
    .set({ email_verification_required: required ? 1 : 0, updated_at: now })
    .where('tenant_code', '=', tenantCode)
    .where('email_verification_required', '=', required ? 0 : 1);
  if (required) query = query.where('email_verified', '=', 0);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}
