import { accountErrors, errorCodes, type RecentSignIn } from '@keycard/contract';
import type { Kysely } from 'kysely';
import type { Config } from '../../platform/config.ts';
import type { Database } from '../../platform/db/schema.ts';
import type { RateLimiter } from '../../platform/security/rate-limiter.ts';
import type { Clock } from '../../platform/shared/clock.ts';
import { AppError } from '../../platform/shared/errors.ts';
import { isPasskeyMethod, isRecentSignIn, recentSignInMs, type SignIn } from '../sign-in/index.ts';
import type { TenantContext } from '../tenants/index.ts';

/** What the account page's services work with. */
export interface SelfServiceDeps {
  db: Kysely<Database>;
  config: Config;
  limiter: RateLimiter;
  clock: Clock;
}

/** Who is asking, and from where: the signed-in account, its browser and address. */
export interface AccountCaller {
  tenant: TenantContext;
  signIn: SignIn;
  userAgent?: string | undefined;
  ip?: string | undefined;
}

/**
 * The account page serves a finished sign-in only (invariant 1): a session still owing its MFA
 * step, a factor it must set up or an address to verify sees none of it — otherwise the page
 * would be a way around them. An expired password is the one exception, and only for changing
 * it (`allowExpiredPassword`): the expired-password page changes it in place.
 */
export function assertAccountSession(signIn: SignIn, options: { allowExpiredPassword?: boolean } = {}): void {
  if (signIn.complete) return;
  const { identity } = signIn;
  if (
    options.allowExpiredPassword &&
    identity.state === 'PASSWORD_EXPIRED' &&
    !identity.emailVerificationRequired
  ) {
    return;
  }
  throw new AppError(errorCodes.sessionIncomplete);
}

/**
 * Whether, and until when, the session counts as a recent sign-in (sign-in/recent-sign-in.ts:
 * five minutes, by passkey, or by password plus the factor when the account has one).
 */
export function recentSignInOf(signIn: SignIn, now: number): RecentSignIn {
  const { session, mfaEnrolled } = signIn;
  if (!isRecentSignIn(session, mfaEnrolled, now)) return { recent: false, until: null };
  const factorAt = Number(session.mfa_verified_at ?? 0);
  const passwordAt = Math.max(
    session.provider === 'keycard' ? Number(session.created_at) : 0,
    Number(session.reauthenticated_at ?? 0),
  );
  const ends: number[] = [];
  if (isPasskeyMethod(session.mfa_method)) ends.push(factorAt + recentSignInMs);
  ends.push((mfaEnrolled ? Math.min(passwordAt, factorAt) : passwordAt) + recentSignInMs);
  const until = Math.max(...ends.filter((end) => end > now));
  return { recent: true, until };
}

/** A sensitive change (issue 18) needs a recent sign-in: else 401 account.recent_sign_in_required. */
export function assertRecentSignIn(signIn: SignIn, now: number): void {
  if (!isRecentSignIn(signIn.session, signIn.mfaEnrolled, now)) {
    throw new AppError(accountErrors.recentSignInRequired);
  }
}
