import {
  type Locale,
  type MfaDeliveryType,
  type MfaErrorCode,
  type MfaProof,
  type MfaStatusResponse,
  mfaErrors,
  type PhoneCodeSentResponse,
  type PhoneDeliveryType,
  type RegisterPhoneRequest,
} from '@keycard/contract';
import type { Kysely } from 'kysely';
import type { Config } from '../../platform/config.ts';
import type { Database } from '../../platform/db/schema.ts';
import { limitKeys } from '../../platform/security/limit-keys.ts';
import type { LimitRule } from '../../platform/security/rate-limiter.ts';
import type { Clock } from '../../platform/shared/clock.ts';
import type { UserRow } from '../accounts/index.ts';
import type { FactorRow, FactorType, MfaCheckMethod } from '../factors/index.ts';
import {
  checkPhoneCode,
  checkPhoneNumber,
  checkTotp,
  countRecoveryCodes,
  createPendingPhoneFactor,
  findActiveFactor,
  freshVerificationMs,
  issueDeviceToken,
  isTrustedDevice,
  latestDelivery,
  maskPhone,
  mfaError,
  type PhoneDeps,
  pendingRegistrationTtlMs,
  redeemRecoveryCode,
  replaceRecoveryCodes,
  sendPhoneCode,
  startTotpRegistration,
  type TotpRegistration,
} from '../factors/index.ts';
import { activeDeviceName, redeemApprovedChallenge } from '../mobile/index.ts';
import { passkeyDomainsOf } from '../passkeys/index.ts';
import { recordMfaPassed, type SessionRow } from '../sessions/index.ts';
import { offeredMfaMethods, type TenantContext } from '../tenants/index.ts';
import { resetUserMfa } from './factor-removal.ts';

export { removeUserFactors } from './factor-removal.ts';

import { kickOutbox, type MfaSeen, tellOwner } from './security-notice.ts';

export interface MfaDeps extends PhoneDeps {
  /** SMS and voice can be delivered (a provider is configured, or the local outbox page). */
  phoneAvailable: boolean;
  clock: Clock;
  config: Config;
  /** The request's host (a passkey's RP ID), browser and address, for status and security mail. */
  seen: MfaSeen;
}

/**
 * Guesses of a second factor (codes and recovery codes alike) per user: 10 in a burst,
 * draining 10 per 15 minutes; the failure that fills the bucket locks checks for 15 minutes.
 * With ±1 time step, three TOTP codes of a million are right at any moment, so an attacker's
 * odds stay negligible.
 */
export const verifyAttempts: LimitRule = { limit: 10, windowMs: 15 * 60_000, lockMs: 15 * 60_000 };

/** What the MFA calls know of the signed-in user: the session and the account. */
export interface MfaSignIn {
  session: SessionRow;
  user: UserRow;
  identity: {
    state: MfaStatusResponse['state'];
    type: MfaStatusResponse['userType'];
    mfaRequiredByRemainingInDays: number | null;
  };
}

const isPhone = (type: string) => type === 'sms' || type === 'voice';

/** The session passed a factor (not a trusted device) within the last few minutes. */
function hasFreshCheck(session: SessionRow, now: number): boolean {
  return (
    session.mfa_verified_at !== null &&
    session.mfa_method !== 'device' &&
    now - session.mfa_verified_at <= freshVerificationMs
  );
}

async function findPendingFactor(
  db: Kysely<Database>,
  tenantCode: string,
  userId: string,
  now: number,
): Promise<FactorRow | undefined> {
  return db
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
 * At sign-in (POST /api/authenticate), for a user with a factor enrolled: a userDeviceToken
 * of a device this user trusted on this tenant, within its period, passes MFA for the new
 * session. Another user's or tenant's
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
  const trusted = await isTrustedDevice(
    db,
    { tenantCode: tenant.code, userId: session.user_id, token: userDeviceToken },
    now,
  );
  if (trusted) await recordMfaPassed(db, session, 'device', now);
  return trusted;
}

export async function mfaStatus(
  deps: MfaDeps,
  tenant: TenantContext,
  signIn: MfaSignIn,
  now: number,
): Promise<MfaStatusResponse> {
  const { db } = deps;
  const { user, identity, session } = signIn;
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
          deviceName: factor.type === 'smmobile' ? await activeDeviceName(db, tenant.code, user.id) : null,
        }
      : null,
    methods: offeredMfaMethods(tenant.settings),
    recoveryCodesRemaining: factor ? await countRecoveryCodes(db, tenant.code, user.id) : 0,
    freshVerification: hasFreshCheck(session, now),
    phoneAvailable: deps.phoneAvailable,
    ...(await passkeyPlaces(db, tenant, user.id, deps.seen.host)),
  };
}

/** Whether the account's passkeys work on this host, and on which other domains they do. */
async function passkeyPlaces(db: Kysely<Database>, tenant: TenantContext, userId: string, host: string) {
  if (tenant.settings.passkeys === 'off') return { passkeysHere: false, passkeyDomainsElsewhere: [] };
  const domains = await passkeyDomainsOf(db, tenant.code, userId);
  return { passkeysHere: domains.includes(host), passkeyDomainsElsewhere: domains.filter((d) => d !== host) };
}

async function assertNotEnrolled(db: Kysely<Database>, tenantCode: string, userId: string): Promise<void> {
  if (await findActiveFactor(db, tenantCode, userId)) throw mfaError(mfaErrors.alreadyEnrolled);
}

/** A tenant that names its factors (settings.mfa.methods) gets no other registered or sent. */
function assertOffered(tenant: TenantContext, method: MfaDeliveryType): void {
  if (!offeredMfaMethods(tenant.settings).includes(method)) throw mfaError(mfaErrors.methodNotOffered);
}

/** Authenticator-app registration, step 2: a secret and its QR code (SPEC §2). */
export async function registerTotp(
  deps: MfaDeps,
  tenant: TenantContext,
  signIn: MfaSignIn,
  now: number,
): Promise<TotpRegistration> {
  assertOffered(tenant, 'totp');
  await assertNotEnrolled(deps.db, tenant.code, signIn.user.id);
  return startTotpRegistration(
    deps.db,
    deps.key,
    {
      tenantCode: tenant.code,
      userId: signIn.user.id,
      issuer: tenant.theme.name,
      account: signIn.user.email,
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
  signIn: MfaSignIn,
  input: RegisterPhoneRequest,
  now: number,
): Promise<PhoneCodeSentResponse> {
  assertOffered(tenant, input.deliveryType);
  if (!deps.phoneAvailable) throw mfaError(mfaErrors.telecomError);
  await assertNotEnrolled(deps.db, tenant.code, signIn.user.id);
  const checked = checkPhoneNumber(input.countryCode, input.phoneNumber, input.deliveryType);
  if (!checked.ok) throw phoneProblem(checked.problem);
  const factor = await createPendingPhoneFactor(
    deps.db,
    { tenantCode: tenant.code, userId: signIn.user.id, phone: checked.e164, channel: input.deliveryType },
    now,
  );
  return sendPhoneCode(
    deps,
    { tenant, user: signIn.user, factor, channel: input.deliveryType, asked: input.langCode },
    now,
  );
}

/**
 * Resend by SMS or call back: for the enrolled phone at sign-in (or for a reset proof), else
 * for the phone being registered. The channel may change; a text needs a number that takes one.
 */
export async function resendPhoneCode(
  deps: MfaDeps,
  tenant: TenantContext,
  signIn: MfaSignIn,
  channel: PhoneDeliveryType,
  now: number,
  /** The language the person asked in: the text or call uses it over the account's. */
  asked?: Locale,
): Promise<PhoneCodeSentResponse> {
  assertOffered(tenant, channel);
  if (!deps.phoneAvailable) throw mfaError(mfaErrors.telecomError);
  const { db } = deps;
  const active = await findActiveFactor(db, tenant.code, signIn.user.id);
  const factor = active ?? (await findPendingFactor(db, tenant.code, signIn.user.id, now));
  if (!factor) throw mfaError(mfaErrors.registrationNotStarted);
  if (!isPhone(factor.type) || !factor.phone) throw mfaError(mfaErrors.notEnrolled);
  const checked = checkPhoneNumber('', factor.phone, channel);
  if (!checked.ok) throw phoneProblem(checked.problem);
  return sendPhoneCode(deps, { tenant, user: signIn.user, factor, channel, asked }, now);
}

export async function phoneDelivery(deps: MfaDeps, tenant: TenantContext, signIn: MfaSignIn) {
  return latestDelivery(deps.db, tenant.code, signIn.user.id);
}

type ProofCheck = { ok: true; method: MfaCheckMethod } | { ok: false; code: MfaErrorCode };

/** A proof of possession offered for a factor: a code of it, or (when allowed) a recovery code. */
interface ProofAttempt {
  tenant: TenantContext;
  user: UserRow;
  /** The session offering it: an approval on the partner app counts for its own session only. */
  sessionId: string;
  factor: FactorRow;
  proof: MfaProof;
  allowRecovery: boolean;
  now: number;
}

/** Compares a proof with the factor (or the user's recovery codes); no limit of its own. */
async function compareProof(deps: MfaDeps, attempt: ProofAttempt): Promise<ProofCheck> {
  const { db, key } = deps;
  const { tenant, user, factor, proof, now } = attempt;
  const invalid = { ok: false, code: mfaErrors.codeInvalid } as const;
  if ('recoveryCode' in proof) {
    if (!attempt.allowRecovery) return invalid;
    const ok = await redeemRecoveryCode(
      db,
      key,
      { tenantCode: tenant.code, userId: user.id, code: proof.recoveryCode },
      now,
    );
    return ok ? { ok: true, method: 'recovery' } : invalid;
  }
  if ('challengeId' in proof) {
    if (factor.type !== 'smmobile') return invalid;
    const approved = await redeemApprovedChallenge(
      db,
      {
        tenantCode: tenant.code,
        userId: user.id,
        sessionId: attempt.sessionId,
        challengeId: proof.challengeId,
      },
      now,
      freshVerificationMs,
    );
    return approved ? { ok: true, method: 'smmobile' } : invalid;
  }
  if (proof.deliveryType === 'totp') {
    if (factor.type !== 'totp') return invalid;
    // A replayed code gets the same answer as a wrong one: it is not valid (any more).
    return (await checkTotp(db, key, factor, proof.code, now)) === 'ok'
      ? { ok: true, method: 'totp' }
      : invalid;
  }
  if (!isPhone(factor.type)) return invalid;
  const result = await checkPhoneCode(
    db,
    key,
    { tenantCode: tenant.code, userId: user.id, factorId: factor.id, code: proof.code },
    now,
  );
  if (result === 'expired') return { ok: false, code: mfaErrors.codeExpired };
  if (result === 'attempts_exceeded') return { ok: false, code: mfaErrors.attemptsExceeded };
  if (result === 'invalid') return invalid;
  return { ok: true, method: proof.deliveryType };
}

/**
 * Checks a proof of possession against a factor: a code of that factor, or (when allowed) a
 * recovery code. Invariant 7: the guess is counted against the user's attempt limit *before*
 * it is compared, so concurrent guesses cannot exceed it; a right one gives its count back,
 * a wrong one that fills the bucket locks checks for the full period.
 */
async function checkProof(deps: MfaDeps, attempt: ProofAttempt): Promise<MfaCheckMethod> {
  const { limiter } = deps;
  const { tenant, user, now } = attempt;
  const limitKey = limitKeys.mfaVerify(tenant.code, user.id);
  const reservation = await limiter.reserve(limitKey, verifyAttempts, now);
  if (!reservation.allowed) throw mfaError(mfaErrors.rateLimited, { retryAfterMs: reservation.retryAfterMs });
  const check = await compareProof(deps, attempt);
  if (!check.ok) {
    // The failure that fills the bucket says so at once, as the login does: the lock begins now.
    const { locked } = await limiter.fail(limitKey, verifyAttempts, deps.clock.now());
    throw locked
      ? mfaError(mfaErrors.rateLimited, { retryAfterMs: verifyAttempts.lockMs })
      : mfaError(check.code);
  }
  await limiter.release(limitKey, verifyAttempts, now);
  return check.method;
}

/**
 * POST /api/mfa/verify. An enrolled user passes MFA for this session (a code or a recovery
 * code). A user registering confirms the pending factor with its first code: the factor
 * becomes active, ten recovery codes are made, and the session has passed MFA.
 */
export async function verifyMfa(
  deps: MfaDeps,
  tenant: TenantContext,
  signIn: MfaSignIn,
  proof: MfaProof,
  now: number,
): Promise<{ recoveryCodes: string[] | null; recoveryCodesRemaining: number }> {
  const { db, key } = deps;
  const { user, session } = signIn;
  const active = await findActiveFactor(db, tenant.code, user.id);
  if (active) {
    const method = await checkProof(deps, {
      tenant,
      user,
      sessionId: session.id,
      factor: active,
      proof,
      allowRecovery: true,
      now,
    });
    await recordMfaPassed(db, session, method, now);
    return {
      recoveryCodes: null,
      recoveryCodesRemaining: await countRecoveryCodes(db, tenant.code, user.id),
    };
  }

  const pending = await findPendingFactor(db, tenant.code, user.id, now);
  if (!pending) throw mfaError(mfaErrors.registrationNotStarted);
  const method = await checkProof(deps, {
    tenant,
    user,
    sessionId: session.id,
    factor: pending,
    proof,
    allowRecovery: false,
    now,
  });
  const recoveryCodes = await db.transaction().execute(async (trx) => {
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
    const codes = await replaceRecoveryCodes(trx, key, { tenantCode: tenant.code, userId: user.id }, now);
    await recordMfaPassed(trx, session, method, now);
    await tellOwner(trx, deps, tenant, user, { event: 'factor-added', factorType: method }, now);
    return codes;
  });
  kickOutbox(deps);
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
  signIn: MfaSignIn,
  now: number,
): Promise<{ token: string; trustedUntil: number }> {
  const { db } = deps;
  if (!(await findActiveFactor(db, tenant.code, signIn.user.id))) throw mfaError(mfaErrors.notEnrolled);
  if (!hasFreshCheck(signIn.session, now)) throw mfaError(mfaErrors.freshVerificationRequired);
  return issueDeviceToken(db, tenant, signIn.user.id, now);
}

/** POST /api/mfa/recovery-codes: ten new codes after a fresh MFA check; the old ones stop working. */
export async function regenerateRecoveryCodes(
  deps: MfaDeps,
  tenant: TenantContext,
  signIn: MfaSignIn,
  now: number,
): Promise<string[]> {
  const { db, key } = deps;
  if (!(await findActiveFactor(db, tenant.code, signIn.user.id))) throw mfaError(mfaErrors.notEnrolled);
  if (!hasFreshCheck(signIn.session, now)) throw mfaError(mfaErrors.freshVerificationRequired);
  const codes = await db.transaction().execute(async (trx) => {
    const made = await replaceRecoveryCodes(
      trx,
      key,
      { tenantCode: tenant.code, userId: signIn.user.id },
      now,
    );
    await tellOwner(trx, deps, tenant, signIn.user, { event: 'recovery-codes-renewed' }, now);
    return made;
  });
  kickOutbox(deps);
  return codes;
}

/**
 * POST /api/mfa/reset: after a proof of possession (a code of the factor or a recovery code),
 * removes the user's factors, passkeys, recovery codes, pending codes, trusted devices and partner-app
 * device, and ends every other session and every grant of the user (invariant 7): whoever
 * signed in with the old factor is signed out everywhere. This session, which just proved possession, stays to
 * set a factor up again.
 */
export async function resetMfa(
  deps: MfaDeps,
  tenant: TenantContext,
  signIn: MfaSignIn,
  proof: MfaProof,
  now: number,
): Promise<void> {
  const { db } = deps;
  const { user, session } = signIn;
  const active = await findActiveFactor(db, tenant.code, user.id);
  if (!active) throw mfaError(mfaErrors.notEnrolled);
  const method = await checkProof(deps, {
    tenant,
    user,
    sessionId: session.id,
    factor: active,
    proof,
    allowRecovery: true,
    now,
  });
  await db.transaction().execute(async (trx) => {
    await resetUserMfa(trx, { tenantCode: tenant.code, userId: user.id, keepSessionId: session.id }, now);
    await recordMfaPassed(trx, session, method, now);
    await tellOwner(trx, deps, tenant, user, { event: 'factor-removed', factorType: active.type }, now);
  });
  kickOutbox(deps);
}
