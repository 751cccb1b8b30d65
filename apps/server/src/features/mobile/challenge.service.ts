import { createHash, randomInt, randomUUID } from 'node:crypto';
import type { NumberChallenge, NumberChallengeOutcome } from '@keycard/contract';
import { type ChallengeStatus, challengeTtlSeconds, mobileErrors, toLocale } from '@keycard/contract';
import { format, loadTexts } from '@keycard/texts';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';
import { isUniqueViolation } from '../../platform/db/unique-violation.ts';
import type { PushContent } from '../../platform/messaging/message.types.ts';
import { enqueueMessage } from '../../platform/messaging/outbox.ts';
import { AppError } from '../../platform/shared/errors.ts';
import { findActiveFactor } from '../factors/index.ts';
import type { SignIn } from '../sign-in/index.ts';
import type { TenantContext } from '../tenants/index.ts';
import { backoffWaitMs, challengeTopic, deviceTopic, timeOutIfExpired } from './challenge-lifecycle.ts';
import { findActiveDevice } from './device-key.service.ts';
import { watchRow } from './events.ts';
import type { MobileDeps } from './mobile.deps.ts';
import type { ChallengeRow, DeviceRow } from './mobile.schema.ts';

/**
 * Sign-in approval by number matching (flow numberChallenge, docs/mobile-mfa.md). Against push
 * fatigue (MFA bombing): one pending challenge per user, a wait that doubles after every
 * challenge that was not approved (10 s up to an hour, reset by an approval), and "this wasn't
 * me" mutes further pushes. The device must pick the number the portal shows, so a blind tap
 * on a push approves nothing. This is the portal's side; the device's is
 * device-challenge.service.ts, and how a challenge ends is challenge-lifecycle.ts.
 */

const finalStatuses: readonly ChallengeStatus[] = ['APPROVED', 'REJECTED', 'TIMEOUT', 'FAILED'];

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
