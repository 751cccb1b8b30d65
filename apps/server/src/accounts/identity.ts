import {
  type Locale,
  locales,
  type UserIdentity,
  type UserState,
  type UserType,
  userTypes,
} from '@keycard/contract';
import { DAY } from '../shared/clock.ts';
import type { MfaMode, TenantContext } from '../tenants/tenant.types.ts';
import type { UserRow } from './user.repository.ts';

export interface SessionFacts {
  mfaVerifiedAt: number | null;
}

/** Whole days until the password expires (0 = expires today), or null when it never does. */
export function passwordExpiryInDays(tenant: TenantContext, user: UserRow, now: number): number | null {
  const days = tenant.settings.passwordExpiryDays;
  if (!days || !user.password_changed_at) return null;
  return Math.floor((user.password_changed_at + days * DAY - now) / DAY);
}

/**
 * What MFA asks of this user on this tenant: whether a factor is enrolled, and the tenant's
 * effective policy ('recommended' past its mandatory date is already 'required').
 */
export interface MfaFacts {
  enrolled: boolean;
  mode: MfaMode;
}

/** No factor, no policy: the default for callers that know nothing of MFA. */
export const noMfa: MfaFacts = { enrolled: false, mode: 'off' };

/**
 * The user's state after the password step (SPEC §4), the heart of invariant 1:
 * - an enrolled user must pass MFA in this session (a factor, a recovery code or a trusted
 *   device at sign-in) whatever the policy: a factor the user set up protects the account;
 * - otherwise a 'required' policy means registering before anything else;
 * - a 'recommended' policy suggests registration but lets the user continue.
 */
export function userStateOf(
  tenant: TenantContext,
  user: UserRow,
  session: SessionFacts,
  now: number,
  mfa: MfaFacts = noMfa,
): UserState {
  const expiry = passwordExpiryInDays(tenant, user, now);
  if (expiry !== null && expiry < 0) return 'PASSWORD_EXPIRED';
  if (mfa.enrolled) return session.mfaVerifiedAt === null ? 'MFA_VERIFICATION_REQUIRED' : 'AUTHENTICATED';
  if (mfa.mode === 'required') return 'MFA_REGISTRATION_REQUIRED';
  if (mfa.mode === 'recommended') return 'MFA_REGISTRATION_RECOMMENDED';
  return 'AUTHENTICATED';
}

export function buildUserIdentity(
  tenant: TenantContext,
  user: UserRow,
  state: UserState,
  now: number,
  mfaRequiredByRemainingInDays: number | null = null,
): UserIdentity {
  return {
    uuid: user.id,
    email: user.email,
    type: (userTypes as readonly string[]).includes(user.type) ? (user.type as UserType) : 'staff',
    locale: (locales as readonly string[]).includes(user.locale) ? (user.locale as Locale) : 'en',
    state,
    emailVerificationRequired: user.email_verification_required === 1 && user.email_verified === 0,
    defaultRedirectUri: tenant.defaultRedirectUri,
    passwordExpiryInDays: passwordExpiryInDays(tenant, user, now),
    passwordChangeWarningInDays: tenant.settings.passwordWarningDays,
    mfaRequiredByRemainingInDays,
  };
}

/**
 * Invariant 1: a session may be handed to an app only when every required step is done.
 * MFA_REGISTRATION_RECOMMENDED counts as done (the user may postpone registration); the
 * other MFA states do not: an enrolled user has not passed MFA yet, or the policy requires a
 * registration first.
 */
export function isSessionComplete(identity: UserIdentity): boolean {
  return (
    (identity.state === 'AUTHENTICATED' || identity.state === 'MFA_REGISTRATION_RECOMMENDED') &&
    !identity.emailVerificationRequired
  );
}
