import {
  type Locale,
  locales,
  type UserIdentity,
  type UserState,
  type UserType,
  userTypes,
} from '@keycard/contract';
import { DAY } from '../shared/clock.ts';
import type { TenantContext } from '../tenants/tenant.types.ts';
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
 * The user's state after the password step (SPEC §4). MFA states come from the tenant's
 * policy; until the MFA feature decides otherwise, a session needs no second factor.
 */
export function userStateOf(
  tenant: TenantContext,
  user: UserRow,
  session: SessionFacts,
  now: number,
  mfa: { required: boolean; recommended: boolean } = { required: false, recommended: false },
): UserState {
  const expiry = passwordExpiryInDays(tenant, user, now);
  if (expiry !== null && expiry < 0) return 'PASSWORD_EXPIRED';
  if (mfa.required && session.mfaVerifiedAt === null) return 'MFA_VERIFICATION_REQUIRED';
  if (mfa.recommended) return 'MFA_REGISTRATION_RECOMMENDED';
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

/** Invariant 1: a session may be handed to an app only when every required step is done. */
export function isSessionComplete(identity: UserIdentity): boolean {
  return (
    (identity.state === 'AUTHENTICATED' || identity.state === 'MFA_REGISTRATION_RECOMMENDED') &&
    !identity.emailVerificationRequired
  );
}
