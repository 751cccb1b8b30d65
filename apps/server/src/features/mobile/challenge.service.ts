import { createHash, randomInt, randomUUID } from 'node:crypto';
import type {
  ChallengeAnswer,
  DeviceChallenge,
  NumberChallenge,
  NumberChallengeOutcome,
} from '@keycard/contract';
import {
  answerMaxLifetimeSeconds,
  type ChallengeDecision,
  type ChallengeStatus,
  challengeBackoff,
  challengeTtlSeconds,
  mobileErrors,
  reportMuteSeconds,
  toLocale,
} from '@keycard/contract';
import { format, loadTexts } from '@keycard/texts';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';
import type { PushContent } from '../../platform/messaging/message.types.ts';
import { enqueueMessage } from '../../platform/messaging/outbox.ts';
import { AppError } from '../../platform/shared/errors.ts';
import { findActiveFactor } from '../factors/mfa-policy.ts';
import { recordMfaPassed } from '../sessions/session.service.ts';
import type { SignIn } from '../sign-in/sign-in-state.ts';
import type { TenantContext } from '../tenants/tenant.types.ts';
import { findActiveDevice, verifyKeyProof } from './device-key.service.ts';
import { watchRow } from './events.ts';
import type { MobileDeps } from './mobile.deps.ts';
import type { ChallengeRow, DeviceRow } from './mobile.schema.ts';

/**
 * Sign-in approval by number matching (flow numberChallenge, docs/mobile-mfa.md). Against push
 * fatigue (MFA bombing): one pending challenge per user, a wait that doubles after every
 * challenge that was not approved (10 s up to an hour, reset by an approval), and "this wasn't
 * me" mutes further pushes. The device must pick the number the portal shows, so a blind tap
 * on a push approves nothing.
 */

export const challengeTopic = (challengeId: string) => `challenge:${challengeId}`;
export const deviceTopic = (deviceId: string) => `device:${deviceId}`;

const finalStatuses: readonly ChallengeStatus[] = ['APPROVED', 'REJECTED', 'TIMEOUT', 'FAILED'];
const decisions: readonly ChallengeDecision[] = ['approve', 'deny', 'report'];

/** The wait after the n-th challenge in a row that was not approved: 10 s, 20 s, 40 s … 1 h. */
export function backoffSeconds(strikes: number): number {
  const { firstWaitSeconds, maxWaitSeconds } = challengeBackoff;
  if (strikes < 1) return 0;
  return Math.min(firstWaitSeconds * 2 ** Math.min(strikes - 1, 30), maxWaitSeconds);
}

function isUniqueViolation(error: unknown): boolean {
  const { code, errcode, message } = error as { code?: unknown; errcode?: unknown; message?: unknown };
  return (
    code === '23505' ||
    errcode === 2067 ||
    errcode === 1555 ||
    (typeof message === 'string' && /UNIQUE constraint failed/.test(message))
  );
}

/** Milliseconds before this user may be asked again (0: now). */
async function backoffWaitMs(db: Kysely<Database>, tenantCode: string, userId: string, now: number) {
  const row = await db
    .selectFrom('mobile_backoff')
    .selectAll()
    .where('tenant_code', '=', tenantCode)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row) return 0;
  return Math.max(0, Math.max(row.next_allowed_at, row.muted_until) - now);
}

/** One more challenge that was not approved: the next wait doubles; a report also mutes. */
async function addStrike(
  trx: Kysely<Database>,
  input: { tenantCode: string; userId: string; mute: boolean },
  now: number,
): Promise<void> {
  await trx
    .insertInto('mobile_backoff')
    .values({
      tenant_code: input.tenantCode,
      user_id: input.userId,
      strikes: 1,
      next_allowed_at: now,
      muted_until: 0,
    })
    .onConflict((conflict) =>
      conflict.columns(['tenant_code', 'user_id']).doUpdateSet({ strikes: sql`mobile_backoff.strikes + 1` }),
    )
    .execute();
  const row = await trx
    .selectFrom('mobile_backoff')
    .selectAll()
    .where('tenant_code', '=', input.tenantCode)
    .where('user_id', '=', input.userId)
    .executeTakeFirstOrThrow();
  await trx
    .updateTable('mobile_backoff')
    .set({
      next_allowed_at: now + backoffSeconds(row.strikes) * 1000,
      muted_until: input.mute ? Math.max(row.muted_until, now + reportMuteSeconds * 1000) : row.muted_until,
    })
    .where('tenant_code', '=', input.tenantCode)
    .where('user_id', '=', input.userId)
    .execute();
}

/**
 * Closes a pending challenge with one conditional UPDATE: of any number of concurrent answers
 * (and the time-out), exactly one changes the row; the others find it closed.
 */
async function closeChallenge(
  trx: Kysely<Database>,
  challengeId: string,
  status: ChallengeStatus,
  now: number,
): Promise<boolean> {
  let update = trx
    .updateTable('mobile_challenges')
    .set({ status, pending_user: null, closed_at: now })
    .where('id', '=', challengeId)
    .where('status', '=', 'PENDING');
  update =
    status === 'TIMEOUT' ? update.where('expires_at', '<=', now) : update.where('expires_at', '>', now);
  const result = await update.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** A pending challenge past its expiry becomes TIMEOUT (and counts as a strike), once. */
async function timeOutIfExpired(deps: MobileDeps, challenge: ChallengeRow, now: number): Promise<void> {
  if (challenge.status !== 'PENDING' || challenge.expires_at > now) return;
  const closed = await deps.db.transaction().execute(async (trx) => {
    if (!(await closeChallenge(trx, challenge.id, 'TIMEOUT', now))) return false;
    await addStrike(trx, { tenantCode: challenge.tenant_code, userId: challenge.user_id, mute: false }, now);
    return true;
  });
  if (closed) {
    await deps.events.publish(challengeTopic(challenge.id));
    await deps.events.publish(deviceTopic(challenge.device_id));
  }
}

function challengeView(challenge: ChallengeRow, now: number): NumberChallenge {
  return {
    id: challenge.id,
    number: challenge.number,
    expiresAt: challenge.expires_at,
    expiresInSeconds: Math.max(0, Math.ceil((challenge.expires_at - now) / 1000)),
  };
}

/** The number to pick and two distinct decoys, all two-digit, in random order. */
function drawNumbers(): { number: number; numbers: number[] } {
  const number = randomInt(10, 100);
  const numbers = [number];
  while (numbers.length < 3) {
    const decoy = randomInt(10, 100);
    if (!numbers.includes(decoy)) numbers.push(decoy);
  }
  for (let i = numbers.length - 1; i > 0; i--) {
    const j = randomInt(0, i + 1);
    [numbers[i], numbers[j]] = [numbers[j]!, numbers[i]!];
  }
  return { number, numbers };
}

/** The push: in the user's language, with no number and no address (it shows on a locked screen). */
async function pushOf(
  tenant: TenantContext,
  locale: string,
  device: DeviceRow,
  challenge: ChallengeRow,
  endpoint: string,
): Promise<PushContent> {
  const texts = await loadTexts(toLocale(locale) ?? 'en');
  return {
    platform: device.platform,
    deviceId: device.id,
    title: format(texts.mfa.messages.pushTitle, { name: tenant.theme.name }),
    body: texts.mfa.messages.pushBody,
    data: { type: 'number_challenge', challengeId: challenge.id, endpoint },
    expiresAt: challenge.expires_at,
  };
}

/**
 * Portal, after the password: a challenge for the user's primary device. The same session gets
 * its pending one back; another session is refused (mobile.challenge_pending); while the
 * back-off or a mute runs, mobile.rate_limited with the seconds left. The push is committed to
 * the outbox in the transaction that creates the challenge.
 */
export async function requestChallenge(
  deps: MobileDeps,
  tenant: TenantContext,
  signIn: SignIn,
  input: { ipAddress: string | null; userAgent: string | null; endpoint: string },
  now: number,
): Promise<NumberChallenge> {
  const { db } = deps;
  const userId = signIn.user.id;
  const factor = await findActiveFactor(db, tenant.code, userId);
  const device = factor?.type === 'smmobile' ? await findActiveDevice(db, tenant.code, userId) : undefined;
  if (!device) throw new AppError(mobileErrors.noDevice);

  for (let attempt = 0; attempt < 3; attempt++) {
    const pending = await db
      .selectFrom('mobile_challenges')
      .selectAll()
      .where('tenant_code', '=', tenant.code)
      .where('pending_user', '=', userId)
      .executeTakeFirst();
    if (pending) {
      if (pending.expires_at <= now) {
        await timeOutIfExpired(deps, pending, now);
        continue;
      }
      if (pending.session_id === signIn.session.id) return challengeView(pending, now);
      throw new AppError(mobileErrors.challengePending);
    }
    const waitMs = await backoffWaitMs(db, tenant.code, userId, now);
    if (waitMs > 0) {
      throw new AppError(mobileErrors.rateLimited, {
        fields: { retryAfterSeconds: String(Math.ceil(waitMs / 1000)) },
      });
    }
    const { number, numbers } = drawNumbers();
    const challenge: ChallengeRow = {
      id: randomUUID(),
      tenant_code: tenant.code,
      user_id: userId,
      session_id: signIn.session.id,
      device_id: device.id,
      pending_user: userId,
      number,
      numbers: JSON.stringify(numbers),
      status: 'PENDING',
      ip_address: input.ipAddress?.slice(0, 64) ?? null,
      user_agent: input.userAgent?.slice(0, 512) ?? null,
      created_at: now,
      expires_at: now + challengeTtlSeconds * 1000,
      closed_at: null,
    };
    const push = await pushOf(tenant, signIn.user.locale, device, challenge, input.endpoint);
    try {
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('mobile_challenges').values(challenge).execute();
        await enqueueMessage(
          trx,
          {
            tenantCode: tenant.code,
            channel: 'push',
            // WEB devices have no push token: the id names them (the dev outbox page shows it).
            recipient: device.push_token ?? device.id,
            template: 'mobile-challenge',
            content: push,
          },
          now,
        );
      });
    } catch (error) {
      // Another request made the user's one pending challenge first: look again.
      if (isUniqueViolation(error)) continue;
      throw error;
    }
    deps.outbox?.kick();
    await deps.events.publish(deviceTopic(device.id));
    return challengeView(challenge, now);
  }
  throw new AppError(mobileErrors.challengePending);
}

async function readOwnChallenge(
  db: Kysely<Database>,
  tenant: TenantContext,
  sessionId: string,
  challengeId: string,
): Promise<ChallengeRow | undefined> {
  return db
    .selectFrom('mobile_challenges')
    .selectAll()
    .where('id', '=', challengeId)
    .where('tenant_code', '=', tenant.code)
    .where('session_id', '=', sessionId)
    .executeTakeFirst();
}

/** Portal: the outcome of this session's challenge; a pending one past its expiry is TIMEOUT. */
export async function challengeOutcome(
  deps: MobileDeps,
  tenant: TenantContext,
  sessionId: string,
  challengeId: string,
  now: number,
): Promise<NumberChallengeOutcome> {
  let challenge = await readOwnChallenge(deps.db, tenant, sessionId, challengeId);
  if (!challenge) throw new AppError(mobileErrors.notFound);
  if (challenge.status === 'PENDING' && challenge.expires_at <= now) {
    await timeOutIfExpired(deps, challenge, now);
    challenge = (await readOwnChallenge(deps.db, tenant, sessionId, challengeId)) ?? challenge;
  }
  const final = challenge.status !== 'PENDING' && challenge.status !== 'APPROVED';
  const waitMs = final ? await backoffWaitMs(deps.db, tenant.code, challenge.user_id, now) : 0;
  return {
    challengeId: challenge.id,
    status: challenge.status,
    retryAfterSeconds: final ? Math.ceil(waitMs / 1000) : null,
  };
}

/** Portal subscription: PENDING, then the final status, then the end. */
export function watchChallengeOutcome(
  deps: MobileDeps,
  tenant: TenantContext,
  sessionId: string,
  challengeId: string,
): AsyncGenerator<NumberChallengeOutcome> {
  return watchRow(
    deps.events,
    challengeTopic(challengeId),
    () => challengeOutcome(deps, tenant, sessionId, challengeId, deps.clock.now()),
    {
      fingerprint: (outcome) => outcome.status,
      isFinal: (outcome) => finalStatuses.includes(outcome.status),
    },
  );
}

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

/**
 * A proof of possession for the partner app (an MFA reset): a challenge of this session and
 * user, APPROVED on the device within `freshMs`. Each approval proves once: its use is
 * recorded by one INSERT … ON CONFLICT DO NOTHING, so two resets cannot share it.
 */
export async function redeemApprovedChallenge(
  db: Kysely<Database>,
  input: { tenantCode: string; userId: string; sessionId: string; challengeId: string },
  now: number,
  freshMs: number,
): Promise<boolean> {
  const challenge = await db
    .selectFrom('mobile_challenges')
    .select(['id', 'closed_at'])
    .where('id', '=', input.challengeId)
    .where('tenant_code', '=', input.tenantCode)
    .where('user_id', '=', input.userId)
    .where('session_id', '=', input.sessionId)
    .where('status', '=', 'APPROVED')
    .where('closed_at', '>=', now - freshMs)
    .executeTakeFirst();
  if (!challenge) return false;
  const key = createHash('sha256').update(`approval-proof\n${challenge.id}`).digest('base64url');
  const result = await db
    .insertInto('mobile_used_jtis')
    .values({ key, expires_at: (challenge.closed_at ?? now) + freshMs })
    .onConflict((conflict) => conflict.column('key').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}
