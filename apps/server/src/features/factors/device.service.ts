import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';
import { DAY } from '../../platform/shared/clock.ts';
import { createToken, hashToken } from '../../platform/shared/crypto.ts';
import type { TenantContext } from '../tenants/index.ts';

/**
 * A trusted device: the browser keeps a userDeviceToken (256 random bits, AUTH_X_DEVICE_ID);
 * the server keeps only its hash, bound to the user and tenant, valid for the tenant's
 * trusted-device period (SPEC §9: MFA only every 60 days on a trusted device).
 */
export async function issueDeviceToken(
  db: Kysely<Database>,
  tenant: TenantContext,
  userId: string,
  now: number,
): Promise<{ token: string; trustedUntil: number }> {
  const token = createToken();
  const trustedUntil = now + tenant.settings.mfa.trustedDeviceDays * DAY;
  // Expired devices of this user go when a new one comes, so the table does not only grow.
  await db.deleteFrom('mfa_devices').where('user_id', '=', userId).where('expires_at', '<=', now).execute();
  await db
    .insertInto('mfa_devices')
    .values({
      id: hashToken(token),
      tenant_code: tenant.code,
      user_id: userId,
      created_at: now,
      expires_at: trustedUntil,
      last_used_at: null,
    })
    .execute();
  return { token, trustedUntil };
}

/**
 * The `user-device-token` a redirect to an app carries (SPEC §4): a stable name for this trusted
 * browser, derived from its token, that an app can use to recognise the device but that is no
 * credential. The token itself skips MFA at the password step, and a redirect target is a URL
 * a scoped operator can choose (a client's redirect URI, the tenant's default), which lands in
 * the app's logs and Referer headers: it must never carry it.
 */
export function deviceIdForApps(token: string): string {
  return createHash('sha256').update(`keycard user-device-token for apps\0${token}`).digest('base64url');
}

/**
 * Is this token a device the user trusted on this tenant, within its period? Another user's
 * or another tenant's token, an expired one or a forged one: no.
 */
export async function isTrustedDevice(
  db: Kysely<Database>,
  input: { tenantCode: string; userId: string; token: string | undefined },
  now: number,
): Promise<boolean> {
  if (!input.token || input.token.length > 256) return false;
  const result = await db
    .updateTable('mfa_devices')
    .set({ last_used_at: now })
    .where('id', '=', hashToken(input.token))
    .where('tenant_code', '=', input.tenantCode)
    .where('user_id', '=', input.userId)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * The id of a device the user trusted on this tenant, within its period, or null: the login
 * keys the owner's trusted browser apart from guesses made elsewhere. A read only; the
 * device's use is recorded when it passes MFA (isTrustedDevice).
 */
export async function findTrustedDeviceId(
  db: Kysely<Database>,
  input: { tenantCode: string; userId: string; token: string },
  now: number,
): Promise<string | null> {
  if (input.token.length > 256) return null;
  const row = await db
    .selectFrom('mfa_devices')
    .select('id')
    .where('id', '=', hashToken(input.token))
    .where('tenant_code', '=', input.tenantCode)
    .where('user_id', '=', input.userId)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row?.id ?? null;
}

export async function removeDevices(db: Kysely<Database>, tenantCode: string, userId: string): Promise<void> {
  await db
    .deleteFrom('mfa_devices')
    .where('user_id', '=', userId)
    .where('tenant_code', '=', tenantCode)
    .execute();
}
