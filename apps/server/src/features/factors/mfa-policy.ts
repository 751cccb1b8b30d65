import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';
import { DAY } from '../../platform/shared/clock.ts';
import type { MfaMode, TenantContext } from '../tenants/index.ts';
import type { FactorRow } from './mfa.schema.ts';

/**
 * What MFA asks of this user on this tenant: whether a factor is enrolled, and the tenant's
 * effective policy ('recommended' past its mandatory date is already 'required').
 */
export interface MfaFacts {
  enrolled: boolean;
  mode: MfaMode;
}

/** The tenant's policy as it applies now: 'recommended' turns 'required' at its mandatory date. */
export function effectiveMfaMode(tenant: TenantContext, now: number): MfaMode {
  const { mode, mandatoryFrom } = tenant.settings.mfa;
  if (mode === 'recommended' && mandatoryFrom !== null && now >= mandatoryFrom) return 'required';
  return mode;
}

/**
 * SPEC §3 mfaRequiredByRemainingInDays: whole days (rounded up) until a 'recommended' policy
 * becomes mandatory; 0 once it is; null when MFA is off or recommended without a date.
 */
export function mfaRequiredByRemainingInDays(tenant: TenantContext, now: number): number | null {
  const { mode, mandatoryFrom } = tenant.settings.mfa;
  if (mode === 'off') return null;
  if (mode === 'required') return 0;
  if (mandatoryFrom === null) return null;
  return Math.max(0, Math.ceil((mandatoryFrom - now) / DAY));
}

/** The user's active factor on this tenant (at most one), or undefined. */
export function findActiveFactor(
  db: Kysely<Database>,
  tenantCode: string,
  userId: string,
): Promise<FactorRow | undefined> {
  return db
    .selectFrom('mfa_factors')
    .selectAll()
    .where('tenant_code', '=', tenantCode)
    .where('user_id', '=', userId)
    .where('status', '=', 'active')
    .orderBy('confirmed_at', 'desc')
    .executeTakeFirst();
}

/** Sensitive actions (a device token, new recovery codes) want a factor check this recent. */
export const freshVerificationMs = 10 * 60_000;
