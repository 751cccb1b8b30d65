import type { ChallengeAnswer, DeviceChallenge } from '@keycard/contract';
import {
  answerMaxLifetimeSeconds,
  type ChallengeDecision,
  type ChallengeStatus,
  mobileErrors,
} from '@keycard/contract';
import { AppError } from '../../platform/shared/errors.ts';
import { recordMfaPassed } from '../sessions/index.ts';
import type { TenantContext } from '../tenants/index.ts';
import {
  addStrike,
  challengeTopic,
  closeChallenge,
  deviceTopic,
  timeOutIfExpired,
} from './challenge-lifecycle.ts';
import { verifyKeyProof } from './device-key.service.ts';
import type { MobileDeps } from './mobile.deps.ts';
import type { DeviceRow } from './mobile.schema.ts';

/** The device's side of number matching (docs/mobile-mfa.md): its challenges and its answers. */

const decisions: readonly ChallengeDecision[] = ['approve', 'deny', 'report'];

/**
 * Device: answers a challenge with a keycard-answer+jwt signed by its key. Approve with the
 * right number → APPROVED, and the bound session has passed MFA; approve with another number →
 * FAILED; deny → REJECTED; report → REJECTED, recorded, and pushes muted for the user.
 */
export async function answerChallenge(
  deps: MobileDeps,
  tenant: TenantContext,
  input: { answer: string; audience: string },
  now: number,
): Promise<ChallengeAnswer> {
  const { device, claims } = await verifyKeyProof(deps.db, tenant, input.answer, {
    kind: 'answer',
    audience: input.audience,
    maxLifetimeSeconds: answerMaxLifetimeSeconds,
    now,
  });
  const { challengeId, number, decision } = claims;
  if (
    typeof challengeId !== 'string' ||
    challengeId.length > 64 ||
    typeof number !== 'number' ||
    !Number.isInteger(number) ||
    !decisions.includes(decision as ChallengeDecision)
  ) {
    throw new AppError(mobileErrors.proofInvalid);
  }
  // Only this device's challenges exist for it: another user's or tenant's looks unknown.
  const challenge = await deps.db
    .selectFrom('mobile_challenges')
    .selectAll()
    .where('id', '=', challengeId)
    .where('tenant_code', '=', tenant.code)
    .where('device_id', '=', device.id)
    .executeTakeFirst();
  if (!challenge) throw new AppError(mobileErrors.notFound);
  if (challenge.status === 'PENDING' && challenge.expires_at <= now) {
    await timeOutIfExpired(deps, challenge, now);
    throw new AppError(mobileErrors.challengeClosed);
  }
  if (challenge.status !== 'PENDING') throw new AppError(mobileErrors.challengeClosed);

  const status: ChallengeStatus =
    decision === 'approve' ? (number === challenge.number ? 'APPROVED' : 'FAILED') : 'REJECTED';
  const closed = await deps.db.transaction().execute(async (trx) => {
    if (!(await closeChallenge(trx, challenge.id, status, now))) return false;
    if (status === 'APPROVED') {
      await recordMfaPassed(trx, { id: challenge.session_id, tenant_code: tenant.code }, 'smmobile', now);
      await trx
        .deleteFrom('mobile_backoff')
        .where('tenant_code', '=', tenant.code)
        .where('user_id', '=', challenge.user_id)
        .execute();
      await trx
        .updateTable('mobile_devices')
        .set({ last_used_at: now })
        .where('id', '=', device.id)
        .execute();
      await trx
        .updateTable('mfa_factors')
        .set({ last_used_at: now })
        .where('id', '=', device.factor_id)
        .execute();
    } else {
      await addStrike(
        trx,
        { tenantCode: tenant.code, userId: challenge.user_id, mute: decision === 'report' },
        now,
      );
    }
    return true;
  });
  if (!closed) throw new AppError(mobileErrors.challengeClosed);
  if (decision === 'report') {
    // A security event: someone who knows the password tried to sign in as this user.
    deps.log.warn(
      {
        event: 'mobile.challenge_reported',
        tenant: tenant.code,
        userId: challenge.user_id,
        challengeId: challenge.id,
        ipAddress: challenge.ip_address,
      },
      'sign-in reported by the user as not theirs; pushes muted',
    );
  }
  await deps.events.publish(challengeTopic(challenge.id));
  await deps.events.publish(deviceTopic(device.id));
  return { challengeId: challenge.id, status };
}

/** Device: its challenges still waiting for an answer, newest first. */
export async function pendingChallenges(
  deps: MobileDeps,
  tenant: TenantContext,
  device: DeviceRow,
  now: number,
): Promise<DeviceChallenge[]> {
  const rows = await deps.db
    .selectFrom('mobile_challenges as c')
    .innerJoin('users as u', 'u.id', 'c.user_id')
    .selectAll('c')
    .select('u.email')
    .where('c.device_id', '=', device.id)
    .where('c.tenant_code', '=', tenant.code)
    .where('c.status', '=', 'PENDING')
    .where('c.expires_at', '>', now)
    .orderBy('c.created_at', 'desc')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    numbers: JSON.parse(row.numbers) as number[],
    account: row.email,
    tenantName: tenant.theme.name,
    ipAddress: row.ip_address,
    userAgent: row.user_agent,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  }));
}

/**
 * Device subscription: every challenge for the device once, pending ones first, as they come.
 * `authenticate` re-checks the caller on every round: the subscription ends with
 * mobile.device_unauthenticated when the access token expires or the device is replaced.
 */
export async function* watchDeviceChallenges(
  deps: MobileDeps,
  tenant: TenantContext,
  authenticate: () => Promise<DeviceRow>,
): AsyncGenerator<DeviceChallenge> {
  const seen = new Set<string>();
  for (;;) {
    const device = await authenticate();
    const pending = await pendingChallenges(deps, tenant, device, deps.clock.now());
    for (const challenge of pending.reverse()) {
      if (seen.has(challenge.id)) continue;
      seen.add(challenge.id);
      yield challenge;
    }
    await deps.events.wait(deviceTopic(device.id), 1000);
  }
}
