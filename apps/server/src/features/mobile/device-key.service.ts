import type { DeviceSession, MasterDevice } from '@keycard/contract';
import { deviceProofMaxLifetimeSeconds, deviceSessionTtlSeconds, mobileErrors } from '@keycard/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';
import { createToken, hashToken } from '../../platform/shared/crypto.ts';
import { AppError } from '../../platform/shared/errors.ts';
import type { TenantContext } from '../tenants/index.ts';
import { consumeJti, ProofRejected, proofHeader, publicP256Jwk, verifyDeviceProof } from './device-proof.ts';
import type { DeviceRow } from './mobile.schema.ts';

/**
 * The partner app as a device: its stored public key, the key proofs it signs in with
 * (masterDeviceLogin) and the opaque access tokens that let it read its challenges.
 */

export function deviceView(device: DeviceRow): MasterDevice {
  return {
    id: device.id,
    name: device.name,
    platform: device.platform,
    createdAt: device.created_at,
    lastUsedAt: device.last_used_at,
  };
}

export function findActiveDevice(
  db: Kysely<Database>,
  tenantCode: string,
  userId: string,
): Promise<DeviceRow | undefined> {
  return db
    .selectFrom('mobile_devices')
    .selectAll()
    .where('tenant_code', '=', tenantCode)
    .where('user_id', '=', userId)
    .where('status', '=', 'active')
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
}

/** The name of the user's primary device, for the MFA status (null without one). */
export async function activeDeviceName(
  db: Kysely<Database>,
  tenantCode: string,
  userId: string,
): Promise<string | null> {
  return (await findActiveDevice(db, tenantCode, userId))?.name ?? null;
}

/**
 * The user's devices stop being factors: inactive, their access tokens gone, their pending
 * challenges closed (FAILED). Runs inside the transaction of an MFA reset or a replacement.
 */
export async function deactivateUserDevices(
  db: Kysely<Database>,
  input: { tenantCode: string; userId: string },
  now: number,
): Promise<void> {
  const devices = await db
    .selectFrom('mobile_devices')
    .select('id')
    .where('tenant_code', '=', input.tenantCode)
    .where('user_id', '=', input.userId)
    .where('status', '=', 'active')
    .execute();
  if (devices.length === 0) return;
  const ids = devices.map((device) => device.id);
  await db
    .updateTable('mobile_devices')
    .set({ status: 'inactive', deactivated_at: now })
    .where('id', 'in', ids)
    .execute();
  await db.deleteFrom('mobile_device_tokens').where('device_id', 'in', ids).execute();
  await db
    .updateTable('mobile_challenges')
    .set({ status: 'FAILED', pending_user: null, closed_at: now })
    .where('device_id', 'in', ids)
    .where('status', '=', 'PENDING')
    .execute();
}

/** A new device access token (256 bits, stored hashed, one hour). */
export async function issueDeviceSession(
  db: Kysely<Database>,
  tenant: TenantContext,
  device: DeviceRow,
  account: string,
  now: number,
): Promise<DeviceSession> {
  const token = createToken();
  const expiresAt = now + deviceSessionTtlSeconds * 1000;
  // The device's expired tokens go as it gets a new one, so they do not pile up.
  await db
    .deleteFrom('mobile_device_tokens')
    .where('device_id', '=', device.id)
    .where('expires_at', '<=', now)
    .execute();
  await db
    .insertInto('mobile_device_tokens')
    .values({
      token_hash: hashToken(token),
      tenant_code: tenant.code,
      device_id: device.id,
      created_at: now,
      expires_at: expiresAt,
    })
    .execute();
  return {
    accessToken: token,
    expiresAt,
    device: deviceView(device),
    account,
    tenantName: tenant.theme.name,
  };
}

/** The device behind an access token on this tenant; mobile.device_unauthenticated otherwise. */
export async function authenticateDevice(
  db: Kysely<Database>,
  tenant: TenantContext,
  token: string | undefined,
  now: number,
): Promise<DeviceRow> {
  if (!token || token.length > 128) throw new AppError(mobileErrors.deviceUnauthenticated);
  const device = await db
    .selectFrom('mobile_device_tokens as t')
    .innerJoin('mobile_devices as d', 'd.id', 't.device_id')
    .selectAll('d')
    .where('t.token_hash', '=', hashToken(token))
    .where('t.tenant_code', '=', tenant.code)
    .where('d.tenant_code', '=', tenant.code)
    .where('t.expires_at', '>', now)
    .where('d.status', '=', 'active')
    .executeTakeFirst();
  if (!device) throw new AppError(mobileErrors.deviceUnauthenticated);
  return device;
}

/**
 * A device proof signed with the stored key of the device its header names (kid): the
 * device must be on this tenant. An unknown kid, a bad signature or a reused jti →
 * mobile.proof_invalid; a replaced or removed device → mobile.no_device.
 */
export async function verifyKeyProof(
  db: Kysely<Database>,
  tenant: TenantContext,
  proof: string,
  options: { kind: 'login' | 'answer'; audience: string; maxLifetimeSeconds: number; now: number },
): Promise<{ device: DeviceRow; claims: Record<string, unknown> }> {
  const header = proofHeader(proof);
  const kid = header?.kid;
  if (!header || typeof kid !== 'string' || kid.length > 64) throw new AppError(mobileErrors.proofInvalid);
  const device = await db
    .selectFrom('mobile_devices')
    .selectAll()
    .where('id', '=', kid)
    .where('tenant_code', '=', tenant.code)
    .executeTakeFirst();
  if (!device) throw new AppError(mobileErrors.proofInvalid);
  const jwk = publicP256Jwk(JSON.parse(device.public_jwk));
  if (!jwk) throw new AppError(mobileErrors.proofInvalid);
  let claims: Record<string, unknown>;
  try {
    claims = await verifyDeviceProof(proof, jwk, {
      kind: options.kind,
      audience: options.audience,
      now: options.now,
      maxLifetimeSeconds: options.maxLifetimeSeconds,
    });
  } catch (error) {
    if (error instanceof ProofRejected) throw new AppError(mobileErrors.proofInvalid, { cause: error });
    throw error;
  }
  if (device.status !== 'active') throw new AppError(mobileErrors.noDevice);
  const fresh = await consumeJti(
    db,
    { kind: options.kind, keyId: device.id, jti: String(claims.jti), exp: Number(claims.exp) },
    options.now,
  );
  if (!fresh) throw new AppError(mobileErrors.proofInvalid);
  return { device, claims };
}

/** masterDeviceLogin: a keycard-device-login+jwt proof of the device's key → a new access token. */
export async function loginDevice(
  db: Kysely<Database>,
  tenant: TenantContext,
  input: { proof: string; audience: string },
  now: number,
): Promise<DeviceSession> {
  const { device, claims } = await verifyKeyProof(db, tenant, input.proof, {
    kind: 'login',
    audience: input.audience,
    maxLifetimeSeconds: deviceProofMaxLifetimeSeconds,
    now,
  });
  if (claims.sub !== device.id) throw new AppError(mobileErrors.proofInvalid);
  const user = await db
    .selectFrom('users')
    .select(['email', 'status'])
    .where('id', '=', device.user_id)
    .where('tenant_code', '=', tenant.code)
    .executeTakeFirst();
  if (user?.status !== 'active') throw new AppError(mobileErrors.noDevice);
  await db.updateTable('mobile_devices').set({ last_used_at: now }).where('id', '=', device.id).execute();
  return issueDeviceSession(db, tenant, { ...device, last_used_at: now }, user.email, now);
}

/**
 * A push token the push service retired (uninstalled app, expired token): every device that
 * registered it stops being pushed to. The device keeps its pairing; its app reads challenges
 * over its own subscription, and a new token arrives with its next enrolment.
 */
export async function forgetPushToken(db: Kysely<Database>, token: string): Promise<void> {
  await db.updateTable('mobile_devices').set({ push_token: null }).where('push_token', '=', token).execute();
}
