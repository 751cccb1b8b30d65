import { type ChallengeStatus, challengeBackoff, reportMuteSeconds } from '@keycard/contract';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';
import type { MobileDeps } from './mobile.deps.ts';
import type { ChallengeRow } from './mobile.schema.ts';

/**
 * How a number challenge ends, shared by the portal's side (challenge.service.ts) and the
 * device's (device-challenge.service.ts): one conditional close, the time-out, and the back-off
 * against push fatigue (MFA bombing) — a wait that doubles after every challenge that was not
 * approved, and a mute after "this wasn't me".
 */

export const challengeTopic = (challengeId: string) => `challenge:${challengeId}`;
export const deviceTopic = (deviceId: string) => `device:${deviceId}`;

/** The wait after the n-th challenge in a row that was not approved: 10 s, 20 s, 40 s … 1 h. */
export function backoffSeconds(strikes: number): number {
  const { firstWaitSeconds, maxWaitSeconds } = challengeBackoff;
  if (strikes < 1) return 0;
  return Math.min(firstWaitSeconds * 2 ** Math.min(strikes - 1, 30), maxWaitSeconds);
}

/** Milliseconds before this user may be asked again (0: now). */
export async function backoffWaitMs(db: Kysely<Database>, tenantCode: string, userId: string, now: number) {
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
export async function addStrike(
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
export async function closeChallenge(
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
export async function timeOutIfExpired(
  deps: MobileDeps,
  challenge: ChallengeRow,
  now: number,
): Promise<void> {
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
