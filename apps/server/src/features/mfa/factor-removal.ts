import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';
import { removeDevices } from '../factors/index.ts';
import { deactivateUserDevices } from '../mobile/index.ts';
import { removeAllCredentials } from '../passkeys/index.ts';
import { endUserAccess } from '../sessions/index.ts';

/**
 * Everything that proves the user's second factor goes, inside the caller's transaction:
 * factors, recovery codes, pending codes, trusted devices, the partner app (its key no longer
 * answers challenges); and every session (but `keepSessionId`) and grant ends, so whoever
 * signed in with the old factor is signed out everywhere. Used by the user's own reset and an
 * operator's (admin API).
 */
export async function removeUserFactors(
  trx: Kysely<Database>,
  who: { tenantCode: string; userId: string; keepSessionId?: string },
  now: number,
): Promise<void> {
  await trx.deleteFrom('mfa_phone_codes').where('user_id', '=', who.userId).execute();
  await trx
    .deleteFrom('mfa_factors')
    .where('user_id', '=', who.userId)
    .where('tenant_code', '=', who.tenantCode)
    .execute();
  await trx
    .deleteFrom('mfa_recovery_codes')
    .where('user_id', '=', who.userId)
    .where('tenant_code', '=', who.tenantCode)
    .execute();
  await removeDevices(trx, who.tenantCode, who.userId);
  await deactivateUserDevices(trx, who, now);
  await endUserAccess(trx, who, now);
}

/**
 * An MFA reset (the user's own, POST /api/mfa/reset, or an operator's): every factor as
 * removeUserFactors, and the account's passkeys and security keys too (issue 18), inside the
 * caller's transaction. Removing one factor on the account page keeps the passkeys: it calls
 * removeUserFactors.
 */
export async function resetUserMfa(
  trx: Kysely<Database>,
  who: { tenantCode: string; userId: string; keepSessionId?: string },
  now: number,
): Promise<void> {
  await removeAllCredentials(trx, who.tenantCode, who.userId);
  await removeUserFactors(trx, who, now);
}
