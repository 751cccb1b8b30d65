import {
  type Locale,
  locales,
  type UserIdentity,
  type UserState,
  type UserType,
  userTypes,
} from '@keycard/contract';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';
import { DAY } from '../../platform/shared/clock.ts';
import { hashToken } from '../../platform/shared/crypto.ts';
import type { UserRow } from '../accounts/index.ts';
import { effectiveMfaMode, type MfaFacts, mfaRequiredByRemainingInDays } from '../factors/index.ts';
import type { SessionRow } from '../sessions/index.ts';
import type { TenantContext } from '../tenants/index.ts';

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

/**
 * How a session signed in, as far as the tenant's rules care: with Keycard's password, or
 * through a partner (provider 'authx', no password entered), whose registration may say that
 * the tenant's MFA *policy* does not apply to its sign-ins (skipMfa; an enrolled user is still
 * asked for the factor).
 */
export interface SignInMethod {
  passwordUsed: boolean;
  skipMfaPolicy: boolean;
}

export const passwordSignIn: SignInMethod = { passwordUsed: true, skipMfaPolicy: false };

/** The method of a session: authx sessions used no password; skipMfa is their partner's. */
export function signInMethodOf(
  session: Pick<SessionRow, 'provider'>,
  partner: { skipMfa: boolean } | null,
): SignInMethod {
  // A passkey sign-in entered no password (its expiry does not stand in the way) and is MFA.
  if (session.provider === 'passkey') return passkeySignIn;
  if (session.provider !== 'authx') return passwordSignIn;
  return { passwordUsed: false, skipMfaPolicy: partner?.skipMfa ?? false };
}

const passkeySignIn: SignInMethod = { passwordUsed: false, skipMfaPolicy: false };

/**
 * The method behind a token's amr (RFC 8176): 'fed' is a partner sign-in, 'hwk'/'swk' with
 * 'user' and no 'pwd' a passkey sign-in (amrOf).
 */
export function signInMethodOfAmr(amr: readonly string[] | undefined, skipMfaPolicy = false): SignInMethod {
  if (amr?.includes('fed')) return { passwordUsed: false, skipMfaPolicy };
  if (amr && !amr.includes('pwd') && (amr.includes('hwk') || amr.includes('swk'))) return passkeySignIn;
  return passwordSignIn;
}

/**
 * Days until the password expires, or null when it never does: -1 once it has expired, else
 * the time left in days to the nearest (0 = less than half a day: "today"). A 7-day expiry
 * set two minutes ago is 7; counting whole days down (floor) said 6 the moment it was set.
 */
export function passwordExpiryInDays(
  tenant: TenantContext,
  user: UserRow,
  now: number,
  method: SignInMethod = passwordSignIn,
): number | null {
  const days = tenant.settings.passwordExpiryDays;
  // A partner sign-in entered no password: its expiry does not stand in the way.
  if (!method.passwordUsed || !days || !user.password_changed_at) return null;
  const left = user.password_changed_at + days * DAY - now;
  if (left <= 0) return -1;
  return Math.round(left / DAY);
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
  method: SignInMethod = passwordSignIn,
): UserState {
  const expiry = passwordExpiryInDays(tenant, user, now, method);
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
  method: SignInMethod = passwordSignIn,
): UserIdentity {
  return {
    uuid: user.id,
    email: user.email,
    type: (userTypes as readonly string[]).includes(user.type) ? (user.type as UserType) : 'staff',
    locale: (locales as readonly string[]).includes(user.locale) ? (user.locale as Locale) : 'en',
    state,
    emailVerificationRequired: user.email_verification_required === 1 && user.email_verified === 0,
    defaultRedirectUri: tenant.defaultRedirectUri,
    passwordExpiryInDays: passwordExpiryInDays(tenant, user, now, method),
    passwordChangeWarningInDays: tenant.settings.passwordWarningDays,
    mfaRequiredByRemainingInDays: method.skipMfaPolicy ? null : mfaRequiredByRemainingInDays(tenant, now),
  };
}

/** The tenant's MFA policy as it applies to a sign-in made this way. */
function mfaFactsOf(
  tenant: TenantContext,
  mfaEnrolled: boolean,
  now: number,
  method: SignInMethod,
): MfaFacts {
  return { enrolled: mfaEnrolled, mode: method.skipMfaPolicy ? 'off' : effectiveMfaMode(tenant, now) };
}

/**
 * The state of a session whose rows are already at hand (just created or just loaded);
 * `partner` is the registration of an authx session's partner (null: gone, or none).
 */
export function signInOf(
  tenant: TenantContext,
  session: SessionRow,
  user: UserRow,
  mfaEnrolled: boolean,
  now: number,
  partner: { skipMfa: boolean } | null = null,
): SignIn {
  const method = signInMethodOf(session, partner);
  const mfa = mfaFactsOf(tenant, mfaEnrolled, now, method);
  const state = userStateOf(tenant, user, { mfaPassed: session.mfa_verified_at !== null }, now, mfa, method);
  const identity = buildUserIdentity(tenant, user, state, now, method);
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
    .select([
      sql<number>`(select count(*) from mfa_factors f where f.user_id = u.id and f.tenant_code = u.tenant_code and f.status = 'active')`.as(
        'active_factors',
      ),
      sql<number>`(select count(*) from passkey_credentials c where c.user_id = u.id and c.tenant_code = u.tenant_code)`.as(
        'passkeys',
      ),
    ])
    .where('u.id', '=', userId)
    .where('u.tenant_code', '=', tenant.code)
    .executeTakeFirst();
  if (row?.status !== 'active') return null;
  const { active_factors, passkeys, ...user } = row;
  return { user, mfaEnrolled: isEnrolled(tenant, active_factors, passkeys) };
}

/**
 * An account is enrolled in MFA with an active factor, or with a passkey while the tenant
 * offers passkeys (issue 18): a passkey or security key is then the second factor of a
 * password sign-in. A passkey of any of the tenant's domains counts.
 */
function isEnrolled(tenant: TenantContext, factors: number | string, passkeys: number | string): boolean {
  return Number(factors) > 0 || (tenant.settings.passkeys !== 'off' && Number(passkeys) > 0);
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
    // An authx session's partner: whether the tenant's MFA policy applies to its sign-ins.
    .leftJoin('partners as p', (join) =>
      join.onRef('p.tenant_code', '=', 's.tenant_code').onRef('p.partner_code', '=', 's.partner_code'),
    )
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
      'p.skip_mfa as partner_skip_mfa',
      sql<number>`(select count(*) from mfa_factors f where f.user_id = s.user_id and f.tenant_code = s.tenant_code and f.status = 'active')`.as(
        'active_factors',
      ),
      sql<number>`(select count(*) from passkey_credentials c where c.user_id = s.user_id and c.tenant_code = s.tenant_code)`.as(
        'passkeys',
      ),
      // When the account last passed MFA: a partner's skipMfa does not apply within the
      // tenant's trusted-device period after it (issue 16, sessions/session.service.ts).
      sql<
        number | null
      >`(select m.last_mfa_at from account_mfa_sign_ins m where m.user_id = s.user_id and m.tenant_code = s.tenant_code)`.as(
        'last_mfa_at',
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
    reauthenticated_at: row.reauthenticated_at,
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
  const recentMfa =
    row.last_mfa_at !== null && Number(row.last_mfa_at) > now - tenant.settings.mfa.trustedDeviceDays * DAY;
  const partner =
    row.partner_skip_mfa === null ? null : { skipMfa: Number(row.partner_skip_mfa) === 1 && !recentMfa };
  return signInOf(tenant, session, user, isEnrolled(tenant, row.active_factors, row.passkeys), now, partner);
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
  method: SignInMethod = signInMethodOfAmr(amr),
): boolean {
  const { user } = account;
  const mfa = mfaFactsOf(tenant, account.mfaEnrolled, now, method);
  const state = userStateOf(tenant, user, { mfaPassed: amr?.includes('mfa') ?? false }, now, mfa, method);
  return isSignInComplete(buildUserIdentity(tenant, user, state, now, method));
}

/**
 * RFC 8176 authentication methods of the session, for the ID token's amr: how the user first
 * proved who they are, and after MFA 'mfa' with the factor used (otp for an authenticator app
 * or a recovery code, sms, tel for a voice call, swk for the partner mobile app, hwk or swk for
 * a passkey or security key; a trusted device repeats an earlier MFA check).
 *
 * The first is 'pwd' for Keycard's password. A partner sign-in (provider 'authx') entered no
 * password here, so it must not claim 'pwd'; it is a federated assertion signed by the
 * partner, whose own methods Keycard cannot see. RFC 8176's registry has no value for that;
 * its §1 lets parties agree on further values, and 'fed' is the one identity platforms
 * already use for a federated sign-in (Microsoft Entra ID), so apps can tell the two apart.
 *
 * A passkey sign-in (provider 'passkey') is [hwk|swk, 'user', 'mfa']: a key held in hardware
 * (a device-bound passkey or security key) or in software (a synced passkey), unlocked by the
 * person (user verification, 'user'), which is multi-factor by itself.
 */
export function amrOf(
  session: Pick<SessionRow, 'mfa_method' | 'mfa_verified_at'> & { provider?: string },
): string[] {
  const key = passkeyAmr[session.mfa_method ?? ''];
  if (session.provider === 'passkey') {
    // Checked again later with another factor (the account page's re-check), it stays a passkey sign-in.
    const factor = key ? undefined : factorAmr[session.mfa_method ?? ''];
    return [key ?? 'swk', 'user', 'mfa', ...(factor ? [factor] : [])];
  }
  const first = session.provider === 'authx' ? 'fed' : 'pwd';
  if (session.mfa_verified_at === null) return [first];
  const factor = key ?? factorAmr[session.mfa_method ?? ''];
  return factor ? [first, 'mfa', factor] : [first, 'mfa'];
}

// The partner mobile app signs its approval with a key it keeps: 'swk' (RFC 8176 §2).
const factorAmr: Record<string, string> = {
  totp: 'otp',
  recovery: 'otp',
  sms: 'sms',
  voice: 'tel',
  smmobile: 'swk',
};
const passkeyAmr: Record<string, string> = { 'passkey-hwk': 'hwk', 'passkey-swk': 'swk' };

/**
 * The ID token's acr (OpenID Enhanced Authentication Profile ACR values): 'phrh' when the
 * session was proven with a device-bound passkey or security key (phishing-resistant,
 * hardware-protected), 'phr' with a synced passkey (phishing-resistant); none otherwise.
 */
export function acrOf(
  session: Pick<SessionRow, 'mfa_method' | 'mfa_verified_at'>,
): 'phr' | 'phrh' | undefined {
  if (session.mfa_verified_at === null) return undefined;
  if (session.mfa_method === 'passkey-hwk') return 'phrh';
  if (session.mfa_method === 'passkey-swk') return 'phr';
  return undefined;
}

/** The phishing-resistant ACR values an app may ask for, strongest last. */
export const passkeyAcrValues = ['phr', 'phrh'] as const;

/**
 * Whether a session meets the app's `acr_values` (space-separated): when the app asks for any
 * of phr or phrh, the session's acr must be one of those it asks for, phrh also meeting phr.
 * Other values (unknown to Keycard) ask for nothing.
 */
export function meetsAcrValues(
  session: Pick<SessionRow, 'mfa_method' | 'mfa_verified_at'>,
  acrValues: string | undefined,
): boolean {
  const asked = (acrValues ?? '').split(' ').filter((value) => value === 'phr' || value === 'phrh');
  if (asked.length === 0) return true;
  const acr = acrOf(session);
  if (acr === undefined) return false;
  return asked.includes(acr) || (acr === 'phrh' && asked.includes('phr'));
}
