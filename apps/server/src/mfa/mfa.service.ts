import {
  type MfaProof,
  type MfaStatusResponse,
  mfaErrors,
  type PhoneCodeSentResponse,
  type PhoneDeliveryType,
  type RegisterPhoneRequest,
} from '@keycard/contract';
import type { Kysely } from 'kysely';
import type { UserRow } from '../accounts/user.repository.ts';
import type { Database } from '../db/schema.ts';
import { markSessionMfaVerified, type SessionRow } from '../sessions/session.service.ts';
import type { ResolvedSession } from '../sessions/session-identity.ts';
import type { TenantContext } from '../tenants/tenant.types.ts';
import { issueDeviceToken, isTrustedDevice, removeDevices } from './device.service.ts';
import { mfaError } from './mfa.errors.ts';
import { type FactorRow, type FactorType, type MfaCheckMethod, mfaDb } from './mfa.schema.ts';
import { findActiveFactor } from './mfa-policy.ts';
import {
  checkPhoneCode,
  createPendingPhoneFactor,
  latestDelivery,
  type PhoneDeps,
  sendPhoneCode,
} from './phone.service.ts';
import { checkPhoneNumber, maskPhone } from './phone-number.ts';
import { countRecoveryCodes, redeemRecoveryCode, replaceRecoveryCodes } from './recovery.service.ts';
import {
  checkTotp,
  pendingRegistrationTtlMs,
  startTotpRegistration,
  type TotpRegistration,
} from './totp.service.ts';

export interface MfaDeps extends PhoneDeps {
  /** SMS and voice can be delivered (a provider is configured, or the local outbox page). */
  phoneAvailable: boolean;
}

/** Sensitive actions (a device token, new recovery codes) want a factor check this recent. */
export const freshVerificationMs = 10 * 60_000;

/**
 * Guesses of a second factor per user: 10 per 15 minutes. With ±1 time step, three TOTP codes
 * of a million are right at any moment, so an attacker's odds stay negligible.
 */
export const verifyAttempts = { limit: 10, windowMs: 15 * 60_000 } as const;

const isPhone = (type: string) => type === 'sms' || type === 'voice';

/** How this session passed MFA, if it did. */
export async function findSessionCheck(db: Kysely<Database>, sessionId: string) {
  return mfaDb(db)
    .selectFrom('mfa_session_checks')
    .selectAll()
    .where('session_id', '=', sessionId)
    .executeTakeFirst();
}

/** Records that the session passed MFA, and how: the session is then MFA-complete (amr 'mfa'). */
export async function recordMfaCheck(
  db: Kysely<Database>,
  session: Pick<SessionRow, 'id' | 'tenant_code'>,
  method: MfaCheckMethod,
  now: number,
): Promise<void> {
  await mfaDb(db)
    .insertInto('mfa_session_checks')
    .values({ session_id: session.id, tenant_code: session.tenant_code, method, verified_at: now })
    .onConflict((oc) => oc.column('session_id').doUpdateSet({ method, verified_at: now }))
    .execute();
  await markSessionMfaVerified(db, session.id, now);
}

async function hasFreshCheck(db: Kysely<Database>, sessionId: string, now: number): Promise<boolean> {
  const check = await findSessionCheck(db, sessionId);
  return !!check && check.method !== 'device' && now - check.verified_at <= freshVerificationMs;
}

async function findPendingFactor(
  db: Kysely<Database>,
  tenantCode: string,
  userId: string,
  now: number,
): Promise<FactorRow | undefined> {
  return mfaDb(db)
    .selectFrom('mfa_factors')
    .selectAll()
    .where('tenant_code', '=', tenantCode)
    .where('user_id', '=', userId)
    .where('status', '=', 'pending')
    .where('created_at', '>', now - pendingRegistrationTtlMs)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
}

/**
 * At sign-in (POST /api/authenticate): a userDeviceToken of a device this user trusted on
 * this tenant, within its period, passes MFA for the new session. Another user's or tenant's
 * token, an expired or a forged one changes nothing.
 */
export async function applyTrustedDevice(
  db: Kysely<Database>,
  tenant: TenantContext,
  session: Pick<SessionRow, 'id' | 'tenant_code' | 'user_id'>,
  userDeviceToken: string | undefined,
  now: number,
): Promise<boolean> {
  if (!userDeviceToken) return false;
  if (!(await findActiveFactor(db, tenant.code, session.user_id))) return false;
  const trusted = await isTrustedDevice(
    db,
    { tenantCode: tenant.code, userId: session.user_id, token: userDeviceToken },
    now,
  );
  if (trusted) await recordMfaCheck(db, session, 'device', now);
  return trusted;
}

export async function mfaStatus(
  deps: MfaDeps,
  tenant: TenantContext,
  resolved: ResolvedSession,
  now: number,
): Promise<MfaStatusResponse> {
  const { db } = deps;
  const { user, identity, session } = resolved;
  const factor = await findActiveFactor(db, tenant.code, user.id);
  return {
    state: identity.state,
    userType: identity.type,
    email: user.email,
    mfaRequiredByRemainingInDays: identity.mfaRequiredByRemainingInDays,
    canSkip: identity.state === 'MFA_REGISTRATION_RECOMMENDED',
    trustedDeviceDays: tenant.settings.mfa.trustedDeviceDays,
    factor: factor
      ? {
          deliveryType: factor.type,
          phone: factor.phone ? maskPhone(factor.phone) : null,
        }
      : null,
    recoveryCodesRemaining: factor ? await countRecoveryCodes(db, tenant.code, user.id) : 0,
    freshVerification: await hasFreshCheck(db, session.id, now),
    phoneAvailable: deps.phoneAvailable,
  };
}

async function assertNotEnrolled(db: Kysely<Database>, tenantCode: string, userId: string): Promise<void> {
  if (await findActiveFactor(db, tenantCode, userId)) throw mfaError(mfaErrors.alreadyEnrolled);
}

/** Authenticator-app registration, step 2: a secret and its QR code (SPEC §2). */
export async function registerTotp(
  deps: MfaDeps,
  tenant: TenantContext,
  resolved: ResolvedSession,
  now: number,
): Promise<TotpRegistration> {
  await assertNotEnrolled(deps.db, tenant.code, resolved.user.id);
  return startTotpRegistration(
    deps.db,
    deps.key,
    {
      tenantCode: tenant.code,
      userId: resolved.user.id,
      issuer: tenant.theme.name,
      account: resolved.user.email,
    },
    now,
  );
}

function phoneProblem(problem: 'country_code' | 'invalid' | 'not_mobile') {
  switch (problem) {
    case 'country_code':
      return mfaError(mfaErrors.countryCodeInvalid, { field: 'countryCode' });
    case 'not_mobile':
      return mfaError(mfaErrors.phoneNotMobile, { field: 'phoneNumber' });
    default:
      return mfaError(mfaErrors.phoneInvalid, { field: 'phoneNumber' });
  }
}

/** Phone registration, step 1: check the number, keep it as a pending factor, send a code. */
export async function registerPhone(
  deps: MfaDeps,
  tenant: TenantContext,
  resolved: ResolvedSession,
  input: RegisterPhoneRequest,
  now: number,
): Promise<PhoneCodeSentResponse> {
  if (!deps.phoneAvailable) throw mfaError(mfaErrors.telecomError);
  await assertNotEnrolled(deps.db, tenant.code, resolved.user.id);
  const checked = checkPhoneNumber(input.countryCode, input.phoneNumber, input.deliveryType);
  if (!checked.ok) throw phoneProblem(checked.problem);
  const factor = await createPendingPhoneFactor(
    deps.db,
    { tenantCode: tenant.code, userId: resolved.user.id, phone: checked.e164, channel: input.deliveryType },
    now,
  );
  return sendPhoneCode(deps, { tenant, user: resolved.user, factor, channel: input.deliveryType }, now);
}

/**
 * Resend by SMS or call back: for the enrolled phone at sign-in (or for a reset proof), else
 * for the phone being registered. The channel may change; a text needs a number that takes one.
 */
export async function resendPhoneCode(
  deps: MfaDeps,
  tenant: TenantContext,
  resolved: ResolvedSession,
  channel: PhoneDeliveryType,
  now: number,
): Promise<PhoneCodeSentResponse> {
  if (!deps.phoneAvailable) throw mfaError(mfaErrors.telecomError);
  const { db } = deps;
  const active = await findActiveFactor(db, tenant.code, resolved.user.id);
  const factor = active ?? (await findPendingFactor(db, tenant.code, resolved.user.id, now));
  if (!factor) throw mfaError(mfaErrors.registrationNotStarted);
  if (!isPhone(factor.type) || !factor.phone) throw mfaError(mfaErrors.notEnrolled);
  const checked = checkPhoneNumber('', factor.phone, channel);
  if (!checked.ok) throw phoneProblem(checked.problem);
  return sendPhoneCode(deps, { tenant, user: resolved.user, factor, channel }, now);
}

export async function phoneDelivery(deps: MfaDeps, tenant: TenantContext, resolved: ResolvedSession) {
  return latestDelivery(deps.db, tenant.code, resolved.user.id);
}

/**
 * Checks a proof of possession against a factor: a code of that factor, or (when allowed) a
 * recovery code. Every guess counts against the user's attempt limit.
 */
async function checkProof(
  deps: MfaDeps,
  tenant: TenantContext,
  user: UserRow,
  factor: FactorRow,
  proof: MfaProof,
  now: number,
  options: { allowRecovery: boolean },
): Promise<MfaCheckMethod> {
  const { db, key, limiter } = deps;
  const attempt = await limiter.hit(
    `mfa:verify:${tenant.code}:${user.id}`,
    verifyAttempts.limit,
    verifyAttempts.windowMs,
    now,
  );
  if (!attempt.allowed) throw mfaError(mfaErrors.rateLimited, { retryAfterMs: attempt.retryAfterMs });

  if ('recoveryCode' in proof) {
    if (!options.allowRecovery) throw mfaError(mfaErrors.codeInvalid);
    const ok = await redeemRecoveryCode(
      db,
      key,
      { tenantCode: tenant.code, userId: user.id, code: proof.recoveryCode },
      now,
    );
    if (!ok) throw mfaError(mfaErrors.codeInvalid);
    return 'recovery';
  }
  if (proof.deliveryType === 'totp') {
    if (factor.type !== 'totp') throw mfaError(mfaErrors.codeInvalid);
    // A replayed code gets the same answer as a wrong one: it is not valid (any more).
    if ((await checkTotp(db, key, factor, proof.code, now)) !== 'ok') throw mfaError(mfaErrors.codeInvalid);
    return 'totp';
  }
  if (!isPhone(factor.type)) throw mfaError(mfaErrors.codeInvalid);
  const result = await checkPhoneCode(
    db,
    key,
    { tenantCode: tenant.code, userId: user.id, factorId: factor.id, code: proof.code },
    now,
  );
  if (result === 'expired') throw mfaError(mfaErrors.codeExpired);
  if (result === 'attempts_exceeded') throw mfaError(mfaErrors.attemptsExceeded);
  if (result === 'invalid') throw mfaError(mfaErrors.codeInvalid);
  return proof.deliveryType;
}

/**
 * POST /api/mfa/verify. An enrolled user passes MFA for this session (a code or a recovery
 * code). A user registering confirms the pending factor with its first code: the factor
 * becomes active, ten recovery codes are made, and the session has passed MFA.
 */
export async function verifyMfa(
  deps: MfaDeps,
  tenant: TenantContext,
  resolved: ResolvedSession,
  proof: MfaProof,
  now: number,
): Promise<{ recoveryCodes: string[] | null; recoveryCodesRemaining: number }> {
  const { db, key } = deps;
  const { user, session } = resolved;
  const active = await findActiveFactor(db, tenant.code, user.id);
  if (active) {
    const method = await checkProof(deps, tenant, user, active, proof, now, { allowRecovery: true });
    await recordMfaCheck(db, session, method, now);
    return {
      recoveryCodes: null,
      recoveryCodesRemaining: await countRecoveryCodes(db, tenant.code, user.id),
    };
  }

  const pending = await findPendingFactor(db, tenant.code, user.id, now);
  if (!pending) throw mfaError(mfaErrors.registrationNotStarted);
  const method = await checkProof(deps, tenant, user, pending, proof, now, { allowRecovery: false });
  const recoveryCodes = await mfaDb(db)
    .transaction()
    .execute(async (trx) => {
      const activated = await trx
        .updateTable('mfa_factors')
        .set({
          status: 'active',
          confirmed_at: now,
          type: method === 'totp' || isPhone(method) ? (method as FactorType) : pending.type,
        })
        .where('id', '=', pending.id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      if (Number(activated.numUpdatedRows) !== 1) throw mfaError(mfaErrors.registrationNotStarted);
      // One factor per user: whatever else was pending or active goes.
      await trx
        .deleteFrom('mfa_factors')
        .where('user_id', '=', user.id)
        .where('tenant_code', '=', tenant.code)
        .where('id', '!=', pending.id)
        .execute();
      const base = trx as unknown as Kysely<Database>;
      const codes = await replaceRecoveryCodes(base, key, { tenantCode: tenant.code, userId: user.id }, now);
      await recordMfaCheck(base, session, method, now);
      return codes;
    });
  return { recoveryCodes, recoveryCodesRemaining: recoveryCodes.length };
}

/**
 * POST /api/mfa/user-device-tokens: trust this browser for the tenant's period. Only right
 * after a factor check in this session — a session that skipped MFA thanks to a trusted
 * device must not mint itself a fresh device (trust would never expire).
 */
export async function trustDevice(
  deps: MfaDeps,
  tenant: TenantContext,
  resolved: ResolvedSession,
  now: number,
): Promise<{ token: string; trustedUntil: number }> {
  const { db } = deps;
  if (!(await findActiveFactor(db, tenant.code, resolved.user.id))) throw mfaError(mfaErrors.notEnrolled);
  if (!(await hasFreshCheck(db, resolved.session.id, now)))
    throw mfaError(mfaErrors.freshVerificationRequired);
  return issueDeviceToken(db, tenant, resolved.user.id, now);
}

/** POST /api/mfa/recovery-codes: ten new codes after a fresh MFA check; the old ones stop working. */
export async function regenerateRecoveryCodes(
  deps: MfaDeps,
  tenant: TenantContext,
  resolved: ResolvedSession,
  now: number,
): Promise<string[]> {
  const { db, key } = deps;
  if (!(await findActiveFactor(db, tenant.code, resolved.user.id))) throw mfaError(mfaErrors.notEnrolled);
  if (!(await hasFreshCheck(db, resolved.session.id, now)))
    throw mfaError(mfaErrors.freshVerificationRequired);
  return mfaDb(db)
    .transaction()
    .execute((trx) =>
      replaceRecoveryCodes(
        trx as unknown as Kysely<Database>,
        key,
        { tenantCode: tenant.code, userId: resolved.user.id },
        now,
      ),
    );
}

/**
 * POST /api/mfa/reset: after a proof of possession (a code of the factor or a recovery code),
 * removes the user's factors, recovery codes, pending codes and trusted devices.
 */
export async function resetMfa(
  deps: MfaDeps,
  tenant: TenantContext,
  resolved: ResolvedSession,
  proof: MfaProof,
  now: number,
): Promise<void> {
  const { db } = deps;
  const { user, session } = resolved;
  const active = await findActiveFactor(db, tenant.code, user.id);
  if (!active) throw mfaError(mfaErrors.notEnrolled);
  const method = await checkProof(deps, tenant, user, active, proof, now, { allowRecovery: true });
  await mfaDb(db)
    .transaction()
    .execute(async (trx) => {
      await trx.deleteFrom('mfa_phone_codes').where('user_id', '=', user.id).execute();
      await trx
        .deleteFrom('mfa_factors')
        .where('user_id', '=', user.id)
        .where('tenant_code', '=', tenant.code)
        .execute();
      await trx
        .deleteFrom('mfa_recovery_codes')
        .where('user_id', '=', user.id)
        .where('tenant_code', '=', tenant.code)
        .execute();
      const base = trx as unknown as Kysely<Database>;
      await removeDevices(base, tenant.code, user.id);
      await recordMfaCheck(base, session, method, now);
    });
}
