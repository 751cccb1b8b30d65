import type {
  AccountFactor,
  AccountFactorKind,
  AccountOverviewResponse,
  MfaDeliveryType,
} from '@keycard/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';
import { DAY } from '../../platform/shared/clock.ts';
import { countRecoveryCodes, effectiveMfaMode, type FactorRow, maskPhone } from '../factors/index.ts';
import { activeDeviceName } from '../mobile/index.ts';
import { countCredentials } from '../passkeys/index.ts';
import { sessionSignInMethod } from '../sessions/index.ts';
import type { SignIn } from '../sign-in/index.ts';
import { offeredMfaMethods, type TenantContext } from '../tenants/index.ts';
import { assertAccountSession, recentSignInOf } from './access.ts';

/** The account page's name for a factor type. */
export function factorKindOf(type: MfaDeliveryType): AccountFactorKind {
  if (type === 'totp') return 'authenticator-app';
  if (type === 'smmobile') return 'mobile-app';
  return 'phone';
}

/** The account's active factors (at most one today), newest first. */
export function activeFactors(
  db: Kysely<Database>,
  tenantCode: string,
  userId: string,
): Promise<FactorRow[]> {
  return db
    .selectFrom('mfa_factors')
    .selectAll()
    .where('tenant_code', '=', tenantCode)
    .where('user_id', '=', userId)
    .where('status', '=', 'active')
    .orderBy('confirmed_at', 'desc')
    .execute();
}

/**
 * Whether removing one of `factorCount` factors would leave a 'required' tenant's account
 * without any: passkeys count as factors (docs/passkeys.md).
 */
export function mayRemoveFactor(
  tenant: TenantContext,
  counts: { factors: number; passkeys: number },
  now: number,
): boolean {
  if (effectiveMfaMode(tenant, now) !== 'required') return true;
  return counts.factors - 1 + counts.passkeys > 0;
}

/** GET /api/account: what the account page shows first. */
export async function accountOverview(
  db: Kysely<Database>,
  tenant: TenantContext,
  signIn: SignIn,
  now: number,
): Promise<AccountOverviewResponse> {
  assertAccountSession(signIn);
  const { user, session } = signIn;
  const [factors, passkeys, recoveryCodes] = await Promise.all([
    activeFactors(db, tenant.code, user.id),
    countCredentials(db, tenant.code, user.id),
    countRecoveryCodes(db, tenant.code, user.id),
  ]);
  const mode = effectiveMfaMode(tenant, now);
  const methods = offeredMfaMethods(tenant.settings);
  const removable = mayRemoveFactor(tenant, { factors: factors.length, passkeys }, now);
  const listed: AccountFactor[] = [];
  for (const factor of factors) {
    listed.push({
      id: factor.id,
      kind: factorKindOf(factor.type),
      deliveryType: factor.type,
      phone: factor.phone ? maskPhone(factor.phone) : null,
      deviceName: factor.type === 'smmobile' ? await activeDeviceName(db, tenant.code, user.id) : null,
      createdAt: Number(factor.confirmed_at ?? factor.created_at),
      lastUsedAt: factor.last_used_at === null ? null : Number(factor.last_used_at),
      canReplace: mode !== 'off' && methods.length > 0,
      canRemove: removable,
    });
  }
  const expiryDays = tenant.settings.passwordExpiryDays;
  const changedAt = user.password_changed_at === null ? null : Number(user.password_changed_at);
  return {
    email: user.email,
    locale: user.locale,
    recentSignIn: recentSignInOf(signIn, now),
    signInMethod: sessionSignInMethod(session),
    password: {
      set: user.password_hash !== null,
      changedAt,
      expiryDays,
      expiresAt: expiryDays && changedAt !== null ? changedAt + expiryDays * DAY : null,
    },
    mfa: {
      mode,
      methods,
      canAdd: mode !== 'off' && methods.length > 0 && factors.length === 0,
      factors: listed,
      recoveryCodesRemaining: recoveryCodes,
    },
    passkeys: { count: passkeys, mode: tenant.settings.passkeys },
  };
}
