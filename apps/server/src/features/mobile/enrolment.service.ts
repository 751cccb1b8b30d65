import { randomUUID } from 'node:crypto';
import type {
  DeviceSession,
  MasterDeviceSetup,
  MasterDeviceSetupEvent,
  MasterDeviceSetupResult,
} from '@keycard/contract';
import {
  type DevicePlatform,
  deviceProofMaxLifetimeSeconds,
  enrolmentTtlSeconds,
  enrolmentUri,
  mfaErrors,
  mobileErrors,
} from '@keycard/contract';
import { calculateJwkThumbprint } from 'jose';
import QRCode from 'qrcode';
import { createToken, hashToken } from '../../platform/shared/crypto.ts';
import { AppError } from '../../platform/shared/errors.ts';
import { recordActivity, sendSecurityMail } from '../accounts/index.ts';
import { findActiveFactor, freshVerificationMs, replaceRecoveryCodes } from '../factors/index.ts';
import { endUserAccess, recordMfaPassed, type SessionRow } from '../sessions/index.ts';
import { type SignIn, signInOf } from '../sign-in/index.ts';
import { offeredMfaMethods, type TenantContext } from '../tenants/index.ts';
import { deactivateUserDevices, deviceView, issueDeviceSession } from './device-key.service.ts';
import {
  consumeJti,
  ProofRejected,
  proofHeader,
  publicP256Jwk,
  unverifiedClaims,
  verifyDeviceProof,
} from './device-proof.ts';
import type { MobileDeps } from './mobile.deps.ts';
import type { EnrolmentRow } from './mobile.schema.ts';

/**
 * Enrolling the partner app as the account's primary device (flow setupMasterDevice,
 * docs/mobile-mfa.md): the portal asks for a one-time enrolment token, the app proves it holds
 * a new P-256 key by signing the token with it, the portal finishes the setup.
 */

export const setupTopic = (setupId: string) => `setup:${setupId}`;

const platforms: readonly DevicePlatform[] = ['WEB', 'IOS', 'ANDROID'];

/** The session passed a factor (not a trusted device) within the last few minutes. */
function hasFreshCheck(session: SessionRow, now: number): boolean {
  return (
    session.mfa_verified_at !== null &&
    session.mfa_method !== 'device' &&
    now - session.mfa_verified_at <= freshVerificationMs
  );
}

/**
 * Portal: a new enrolment for the signed-in user. Refused when the tenant does not offer the
 * app, or when a factor is enrolled — unless replacing it after a fresh MFA check in this session.
 */
export async function startSetup(
  deps: MobileDeps,
  tenant: TenantContext,
  signIn: SignIn,
  input: { replace: boolean; endpoint: string },
  now: number,
): Promise<MasterDeviceSetup> {
  const { db } = deps;
  if (!offeredMfaMethods(tenant.settings).includes('smmobile')) throw new AppError(mobileErrors.notOffered);
  const active = await findActiveFactor(db, tenant.code, signIn.user.id);
  if (active) {
    if (!input.replace) throw new AppError(mobileErrors.deviceExists);
    if (!hasFreshCheck(signIn.session, now)) throw new AppError(mfaErrors.freshVerificationRequired);
  }
  const token = createToken();
  const setupId = randomUUID();
  const expiresAt = now + enrolmentTtlSeconds * 1000;
  const superseded = await db.transaction().execute(async (trx) => {
    // One enrolment at a time per user: an older one still waiting ends here.
    const waiting = await trx
      .selectFrom('mobile_enrolments')
      .select('id')
      .where('tenant_code', '=', tenant.code)
      .where('user_id', '=', signIn.user.id)
      .where('status', '=', 'WAITING')
      .execute();
    if (waiting.length > 0) {
      await trx
        .updateTable('mobile_enrolments')
        .set({ status: 'SETUP_TIMEOUT_FAILED' })
        .where(
          'id',
          'in',
          waiting.map((row) => row.id),
        )
        .where('status', '=', 'WAITING')
        .execute();
    }
    await trx
      .insertInto('mobile_enrolments')
      .values({
        id: setupId,
        tenant_code: tenant.code,
        user_id: signIn.user.id,
        session_id: signIn.session.id,
        token_hash: hashToken(token),
        replace_factor: active ? 1 : 0,
        status: 'WAITING',
        device_id: null,
        created_at: now,
        expires_at: expiresAt,
        completed_at: null,
        finished_at: null,
      })
      .execute();
    return waiting.map((row) => row.id);
  });
  for (const id of superseded) await deps.events.publish(setupTopic(id));
  const uri = enrolmentUri({ endpoint: input.endpoint, token, tenant: tenant.code });
  const svg = await QRCode.toString(uri, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' });
  return {
    setupId,
    enrolmentUri: uri,
    qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
    expiresAt,
    expiresInSeconds: enrolmentTtlSeconds,
  };
}

/** An enrolment whose proof failed ends SETUP_FAILED (while it was still waiting). */
async function failEnrolment(
  deps: MobileDeps,
  enrolment: EnrolmentRow | undefined,
  now: number,
): Promise<void> {
  if (!enrolment) return;
  const result = await deps.db
    .updateTable('mobile_enrolments')
    .set({ status: 'SETUP_FAILED' })
    .where('id', '=', enrolment.id)
    .where('status', '=', 'WAITING')
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) > 0) await deps.events.publish(setupTopic(enrolment.id));
}

/** A waiting enrolment past its expiry ends SETUP_TIMEOUT_FAILED; one atomic UPDATE decides. */
async function expireEnrolment(deps: MobileDeps, enrolmentId: string, now: number): Promise<boolean> {
  const result = await deps.db
    .updateTable('mobile_enrolments')
    .set({ status: 'SETUP_TIMEOUT_FAILED' })
    .where('id', '=', enrolmentId)
    .where('status', '=', 'WAITING')
    .where('expires_at', '<=', now)
    .executeTakeFirst();
  const expired = Number(result.numUpdatedRows) > 0;
  if (expired) await deps.events.publish(setupTopic(enrolmentId));
  return expired;
}

interface EnrolmentClaims {
  deviceName: string;
  platform: DevicePlatform;
  pushToken: string | null;
}

function enrolmentClaimsOf(claims: Record<string, unknown>): EnrolmentClaims | null {
  const name = typeof claims.deviceName === 'string' ? claims.deviceName.trim() : '';
  if (name.length < 1 || name.length > 64 || /\p{Cc}/u.test(name)) return null;
  if (!platforms.includes(claims.platform as DevicePlatform)) return null;
  const push = claims.pushToken;
  if (push !== undefined && (typeof push !== 'string' || push.length < 1 || push.length > 4096)) return null;
  return { deviceName: name, platform: claims.platform as DevicePlatform, pushToken: push ?? null };
}

/**
 * Device: completes an enrolment with a keycard-enrol+jwt proof. The token is used up by one
 * conditional UPDATE (single use under any concurrency); the device, its key and its factor
 * are stored in the same transaction, and a replaced factor ends with every other session.
 */
export async function registerDevice(
  deps: MobileDeps,
  tenant: TenantContext,
  input: { proof: string; audience: string },
  now: number,
): Promise<DeviceSession> {
  const { db } = deps;
  const header = proofHeader(input.proof);
  const unverified = unverifiedClaims(input.proof);
  const token = unverified?.enrolmentToken;
  const enrolment =
    typeof token === 'string' && token.length <= 128
      ? await db
          .selectFrom('mobile_enrolments')
          .selectAll()
          .where('token_hash', '=', hashToken(token))
          .where('tenant_code', '=', tenant.code)
          .executeTakeFirst()
      : undefined;
  const fail = async (cause?: unknown): Promise<never> => {
    await failEnrolment(deps, enrolment, now);
    throw new AppError(mobileErrors.setupFailed, { cause });
  };

  const jwk = publicP256Jwk(header?.jwk);
  if (!header || !jwk) return fail();
  let claims: Record<string, unknown>;
  try {
    claims = await verifyDeviceProof(input.proof, jwk, {
      kind: 'enrol',
      audience: input.audience,
      now,
      maxLifetimeSeconds: deviceProofMaxLifetimeSeconds,
    });
  } catch (error) {
    if (error instanceof ProofRejected) return fail(error);
    throw error;
  }
  const details = enrolmentClaimsOf(claims);
  if (!details || !enrolment) return fail();
  const thumbprint = await calculateJwkThumbprint(jwk);
  if (
    !(await consumeJti(
      db,
      { kind: 'enrol', keyId: thumbprint, jti: String(claims.jti), exp: Number(claims.exp) },
      now,
    ))
  ) {
    return fail();
  }

  const deviceId = randomUUID();
  let session: DeviceSession;
  try {
    session = await db.transaction().execute(async (trx) => {
      const claimed = await trx
        .updateTable('mobile_enrolments')
        .set({ status: 'COMPLETED', device_id: deviceId, completed_at: now })
        .where('id', '=', enrolment.id)
        .where('status', '=', 'WAITING')
        .where('expires_at', '>', now)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) throw new AppError(mobileErrors.setupTimeout);
      const user = await trx
        .selectFrom('users')
        .select(['email', 'status', 'locale'])
        .where('id', '=', enrolment.user_id)
        .where('tenant_code', '=', tenant.code)
        .executeTakeFirst();
      if (user?.status !== 'active') throw new AppError(mobileErrors.setupFailed);
      const active = await findActiveFactor(trx, tenant.code, enrolment.user_id);
      if (active && enrolment.replace_factor !== 1) throw new AppError(mobileErrors.deviceExists);
      // One factor per user: the replaced one (or a pending registration) goes.
      await trx
        .deleteFrom('mfa_factors')
        .where('tenant_code', '=', tenant.code)
        .where('user_id', '=', enrolment.user_id)
        .execute();
      await deactivateUserDevices(trx, { tenantCode: tenant.code, userId: enrolment.user_id }, now);
      if (active) {
        // Invariant 7: a credential change ends every other session and grant of the account.
        await endUserAccess(
          trx,
          { tenantCode: tenant.code, userId: enrolment.user_id, keepSessionId: enrolment.session_id },
          now,
        );
      }
      const factorId = randomUUID();
      await trx
        .insertInto('mfa_factors')
        .values({
          id: factorId,
          tenant_code: tenant.code,
          user_id: enrolment.user_id,
          type: 'smmobile',
          status: 'active',
          secret_sealed: null,
          phone: null,
          last_step: null,
          created_at: now,
          confirmed_at: now,
          last_used_at: null,
        })
        .execute();
      const device = {
        id: deviceId,
        tenant_code: tenant.code,
        user_id: enrolment.user_id,
        factor_id: factorId,
        name: details.deviceName,
        platform: details.platform,
        public_jwk: JSON.stringify(jwk),
        push_token: details.pushToken,
        status: 'active' as const,
        created_at: now,
        last_used_at: now,
        deactivated_at: null,
      };
      await trx.insertInto('mobile_devices').values(device).execute();
      // Issue 18: the owner hears of a new factor (mail and recent activity), with the change.
      const factor = 'mobile-app' as const;
      await recordActivity(
        trx,
        { tenantCode: tenant.code, userId: enrolment.user_id, kind: 'factor-added', detail: { factor } },
        now,
      );
      await sendSecurityMail(trx, deps.config, { tenant, user, event: 'factor-added', factor }, now);
      return issueDeviceSession(trx, tenant, device, user.email, now);
    });
  } catch (error) {
    if (error instanceof AppError && error.code === mobileErrors.setupTimeout) {
      await expireEnrolment(deps, enrolment.id, now);
    } else if (error instanceof AppError) {
      await failEnrolment(deps, enrolment, now);
    }
    throw error;
  }
  await deps.events.publish(setupTopic(enrolment.id));
  void Promise.resolve(deps.outbox?.kick()).catch(() => undefined);
  return session;
}

/** Portal: where this session's enrolment stands (a waiting one past its expiry times out). */
export async function setupEvent(
  deps: MobileDeps,
  tenant: TenantContext,
  sessionId: string,
  setupId: string,
  now: number,
): Promise<MasterDeviceSetupEvent> {
  const read = () =>
    deps.db
      .selectFrom('mobile_enrolments as e')
      .leftJoin('mobile_devices as d', 'd.id', 'e.device_id')
      .select(['e.id', 'e.status', 'e.expires_at', 'd.name as device_name'])
      .where('e.id', '=', setupId)
      .where('e.tenant_code', '=', tenant.code)
      .where('e.session_id', '=', sessionId)
      .executeTakeFirst();
  let row = await read();
  if (!row) throw new AppError(mobileErrors.notFound);
  if (row.status === 'WAITING' && row.expires_at <= now && (await expireEnrolment(deps, row.id, now))) {
    row = await read();
    if (!row) throw new AppError(mobileErrors.notFound);
  }
  return {
    setupId: row.id,
    status: row.status,
    deviceName: row.status === 'COMPLETED' ? (row.device_name ?? null) : null,
  };
}

/**
 * Portal, once the setup is COMPLETED: this session has passed MFA with the new device, and
 * the user gets new recovery codes (shown once). Works once per enrolment.
 */
export async function finishSetup(
  deps: MobileDeps,
  tenant: TenantContext,
  signIn: SignIn,
  setupId: string,
  now: number,
): Promise<MasterDeviceSetupResult> {
  const result = await deps.db.transaction().execute(async (trx) => {
    const finished = await trx
      .updateTable('mobile_enrolments')
      .set({ finished_at: now })
      .where('id', '=', setupId)
      .where('tenant_code', '=', tenant.code)
      .where('session_id', '=', signIn.session.id)
      .where('status', '=', 'COMPLETED')
      .where('finished_at', 'is', null)
      .executeTakeFirst();
    if (Number(finished.numUpdatedRows) !== 1) throw new AppError(mobileErrors.notFound);
    const device = await trx
      .selectFrom('mobile_enrolments as e')
      .innerJoin('mobile_devices as d', 'd.id', 'e.device_id')
      .selectAll('d')
      .where('e.id', '=', setupId)
      .where('d.status', '=', 'active')
      .executeTakeFirst();
    // Replaced again before this finish: this enrolment's device is no longer the factor.
    if (!device) throw new AppError(mobileErrors.noDevice);
    const recoveryCodes = await replaceRecoveryCodes(
      trx,
      deps.key,
      { tenantCode: tenant.code, userId: signIn.user.id },
      now,
    );
    await recordMfaPassed(trx, signIn.session, 'smmobile', now);
    return { recoveryCodes, device };
  });
  const after = signInOf(
    tenant,
    { ...signIn.session, mfa_method: 'smmobile', mfa_verified_at: now },
    signIn.user,
    true,
    now,
  );
  return {
    state: after.identity.state,
    recoveryCodes: result.recoveryCodes,
    device: deviceView(result.device),
  };
}
