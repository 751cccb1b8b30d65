import {
  type Locale,
  locales,
  type UserIdentity,
  type UserState,
  type UserType,
  userTypes,
} from '@keycard/contract';
import { type Kysely, sql } from 'kysely';
import type { UserRow } from '../accounts/user.repository.ts';
import type { Database } from '../db/schema.ts';
import { effectiveMfaMode, type MfaFacts, mfaRequiredByRemainingInDays } from '../mfa/mfa-policy.ts';
import type { SessionRow } from '../sessions/session.service.ts';
import { DAY } from '../shared/clock.ts';
import { hashToken } from '../shared/crypto.ts';
import type { TenantContext } from '../tenants/tenant.types.ts';

/**
 * The sign-in state of a browser: its Keycard session, the account, what SPEC §4 says comes
 * next, and whether the session may be handed to an app. This module is the one place that
 * decides it; /api/authorize, the provider's login check and every API call read it here,
 * always against the tenant's current settings.
 */
export interface SignIn {
  session: SessionRow;
  user: UserRow;
  identity: UserIdentity;
  /** Invariant 1: every step the tenant requires is done; an app may get a code. */
  complete: boolean;
  mfaEnrolled: boolean;
}

/** Whole days until the password expires (0 = expires today), or null when it never does. */
export function passwordExpiryInDays(tenant: TenantContext, user: UserRow, now: number): number | null {
  const days = tenant.settings.passwordExpiryDays;
  if (!days || !user.password_changed_at) return null;
  return Math.floor((user.password_changed_at + days * DAY - now) / DAY);
}

/**
 * The user's state after the password step (SPEC §4), the heart of invariant 1:
 * - an expired password must be changed before anything else;
 * - an enrolled user must pass MFA in this session (a factor, a recovery code or a trusted
 *   device at sign-in) whatever the policy: a factor the user set up protects the account;
 * - otherwise a 'required' policy means registering before anything else;
 * - a 'recommended' policy suggests registration but lets the user continue.
 */
export function userStateOf(
  tenant: TenantContext,
  user: UserRow,
  session: { mfaPassed: boolean },
  now: number,
  mfa: MfaFacts,
): UserState {
  const expiry = passwordExpiryInDays(tenant, user, now);
  if (expiry !== null && expiry < 0) return 'PASSWORD_EXPIRED';
  if (mfa.enrolled) return session.mfaPassed ? 'AUTHENTICATED' : 'MFA_VERIFICATION_REQUIRED';
  if (mfa.mode === 'required') return 'MFA_REGISTRATION_REQUIRED';
  if (mfa.mode === 'recommended') return 'MFA_REGISTRATION_RECOMMENDED';
  return 'AUTHENTICATED';
}

/**
 * Invariant 1: a session may be handed to an app only when every required step is done.
 * MFA_REGISTRATION_RECOMMENDED counts as done (the user may postpone registration); the
 * other MFA states do not, nor an expired password, nor an unverified address when the
 * account must verify it.
 */
export function isSignInComplete(
  identity: Pick<UserIdentity, 'state' | 'emailVerificationRequired'>,
): boolean {
  return (
    (identity.state === 'AUTHENTICATED' || identity.state === 'MFA_REGISTRATION_RECOMMENDED') &&
    !identity.emailVerificationRequired
  );
}

export function buildUserIdentity(
  tenant: TenantContext,
  user: UserRow,
  state: UserState,
  now: number,
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
    mfaRequiredByRemainingInDays: mfaRequiredByRemainingInDays(tenant, now),
  };
}

/** The state of a session whose rows are already at hand (just created or just loaded). */
export function signInOf(
  tenant: TenantContext,
  session: SessionRow,
  user: UserRow,
  mfaEnrolled: boolean,
  now: number,
): SignIn {
  const mfa: MfaFacts = { enrolled: mfaEnrolled, mode: effectiveMfaMode(tenant, now) };
  const state = userStateOf(tenant, user, { mfaPassed: session.mfa_verified_at !== null }, now, mfa);
  const identity = buildUserIdentity(tenant, user, state, now);
  return { session, user, identity, complete: isSignInComplete(identity), mfaEnrolled };
}

/** An active account of the tenant, with whether a factor is enrolled: one query. */
export async function loadAccount(
  db: Kysely<Database>,
  tenant: TenantContext,
  userId: string,
): Promise<{ user: UserRow; mfaEnrolled: boolean } | null> {
  const row = await db
    .selectFrom('users as u')
    .selectAll('u')
    .select(
      sql<number>`(select count(*) from mfa_factors f where f.user_id = u.id and f.tenant_code = u.tenant_code and f.status = 'active')`.as(
        'active_factors',
      ),
    )
    .where('u.id', '=', userId)
    .where('u.tenant_code', '=', tenant.code)
    .executeTakeFirst();
  if (row?.status !== 'active') return null;
  const { active_factors, ...user } = row;
  return { user, mfaEnrolled: Number(active_factors) > 0 };
}

/**
 * The sign-in behind a session token on this tenant, with the user's current state: one
 * query (session, active account, whether a factor is enrolled). Null for no session, an
 * expired or foreign one, or an account that is no longer active.
 */
export async function loadSignIn(
  db: Kysely<Database>,
  tenant: TenantContext,
  token: string | undefined,
  now: number,
): Promise<SignIn | null> {
  if (!token || token.length > 128) return null;
  const row = await db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .selectAll('s')
    .select([
      'u.email',
      'u.type',
      'u.locale',
      'u.status',
      'u.password_hash',
      'u.password_changed_at',
      'u.email_verified',
      'u.email_verification_required',
      'u.secret_question',
      'u.secret_answer_hash',
      'u.created_at as user_created_at',
      'u.updated_at as user_updated_at',
      sql<number>`(select count(*) from mfa_factors f where f.user_id = s.user_id and f.tenant_code = s.tenant_code and f.status = 'active')`.as(
        'active_factors',
      ),
    ])
    .where('s.id', '=', hashToken(token))
    .where('s.tenant_code', '=', tenant.code)
    .where('u.tenant_code', '=', tenant.code)
    .where('s.expires_at', '>', now)
    .executeTakeFirst();
  if (row?.status !== 'active') return null;
  const session: SessionRow = {
    id: row.id,
    tenant_code: row.tenant_code,
    user_id: row.user_id,
    provider: row.provider,
    partner_code: row.partner_code,
    mfa_method: row.mfa_method,
    mfa_verified_at: row.mfa_verified_at,
    created_at: row.created_at,
    interaction_uid: row.interaction_uid,
    expires_at: row.expires_at,
    partner_token_hash: row.partner_token_hash,
  };
  const user: UserRow = {
    id: row.user_id,
    tenant_code: row.tenant_code,
    email: row.email,
    type: row.type,
    locale: row.locale,
    status: row.status,
    password_hash: row.password_hash,
    password_changed_at: row.password_changed_at,
    email_verified: row.email_verified,
    email_verification_required: row.email_verification_required,
    secret_question: row.secret_question,
    secret_answer_hash: row.secret_answer_hash,
    created_at: row.user_created_at,
    updated_at: row.user_updated_at,
  };
  return signInOf(tenant, session, user, Number(row.active_factors) > 0, now);
}

/**
 * Invariant 1 for refresh tokens: may the provider still mint tokens for an account that
 * authenticated with these methods (the refresh token's amr), under the tenant's *current*
 * settings? The same decision as for a session: a tenant that starts requiring MFA, or a
 * password that expires, stops refreshes that lack it, and the app must sign the user in again.
 */
export function isGrantSufficient(
  tenant: TenantContext,
  account: { user: UserRow; mfaEnrolled: boolean },
  amr: readonly string[] | undefined,
  now: number,
): boolean {
  const { user } = account;
  const mfa: MfaFacts = { enrolled: account.mfaEnrolled, mode: effectiveMfaMode(tenant, now) };
  const state = userStateOf(tenant, user, { mfaPassed: amr?.includes('mfa') ?? false }, now, mfa);
  return isSignInComplete(buildUserIdentity(tenant, user, state, now));
}

/**
 * RFC 8176 authentication methods of the session, for the ID token's amr: the password, and
 * after MFA 'mfa' with the factor used (otp for an authenticator app or a recovery code, sms,
 * tel for a voice call; a trusted device repeats an earlier MFA check).
 */
export function amrOf(session: Pick<SessionRow, 'mfa_method' | 'mfa_verified_at'>): string[] {
  if (session.mfa_verified_at === null) return ['pwd'];
  const factor = { totp: 'otp', recovery: 'otp', sms: 'sms', voice: 'tel' }[session.mfa_method ?? ''];
  return factor ? ['pwd', 'mfa', factor] : ['pwd', 'mfa'];
}
