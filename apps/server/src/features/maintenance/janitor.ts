import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';
import { DAY } from '../../platform/shared/clock.ts';
import { pruneActivity } from '../accounts/index.ts';
import { sweepIdempotencyKeys } from '../idempotency/index.ts';

/** Delivered messages are kept this long for support, then removed (they hold links and codes). */
export const sentMessageRetentionMs = 7 * DAY;

/** Analytics events are kept about thirteen months, enough for year-on-year comparisons. */
export const analyticsRetentionMs = 400 * DAY;

export interface SweepResult {
  sessions: number;
  tokens: number;
  providerArtifacts: number;
  attemptBuckets: number;
  knownBrowsers: number;
  messages: number;
  phoneCodes: number;
  trustedDevices: number;
  analyticsEvents: number;
  partnerTokenUses: number;
  /** Mobile-app MFA: ended enrolments and challenges, device tokens, used jtis, idle back-offs. */
  mobile: number;
  idempotencyKeys: number;
  /** The account page's recent activity older than its 30 days. */
  activity: number;
}

/**
 * Removes what has expired: sessions, one-time tokens, provider artifacts, attempt
 * buckets, phone codes, trusted devices, old delivered messages, old analytics events, the
 * used jtis of partner tokens past their expiry (a replay of those fails on its exp anyway),
 * mobile-app MFA rows past use, expired idempotency keys and account activity older than 30
 * days. Safe to run on every instance at once (plain deletes
 * by time); undelivered messages are never touched.
 */
export async function sweepExpired(db: Kysely<Database>, now: number): Promise<SweepResult> {
  const count = (result: { numDeletedRows: bigint }) => Number(result.numDeletedRows);
  return {
    sessions: count(await db.deleteFrom('sessions').where('expires_at', '<=', now).executeTakeFirst()),
    tokens: count(
      await db
        .deleteFrom('one_time_tokens')
        .where('expires_at', '<=', now - DAY)
        .executeTakeFirst(),
    ),
    providerArtifacts: count(
      await db
        .deleteFrom('oidc_payloads')
        .where('expires_at', 'is not', null)
        .where('expires_at', '<=', now)
        .executeTakeFirst(),
    ),
    attemptBuckets: count(
      await db.deleteFrom('attempt_buckets').where('expires_at', '<=', now).executeTakeFirst(),
    ),
    knownBrowsers: count(
      await db.deleteFrom('known_browsers').where('expires_at', '<=', now).executeTakeFirst(),
    ),
    messages: count(
      await db
        .deleteFrom('outbox')
        .where('status', '=', 'sent')
        .where('sent_at', '<=', now - sentMessageRetentionMs)
        .executeTakeFirst(),
    ),
    phoneCodes: count(
      await db
        .deleteFrom('mfa_phone_codes')
        .where('expires_at', '<=', now - DAY)
        .executeTakeFirst(),
    ),
    trustedDevices: count(
      await db.deleteFrom('mfa_devices').where('expires_at', '<=', now).executeTakeFirst(),
    ),
    analyticsEvents: count(
      await db
        .deleteFrom('analytics_events')
        .where('created_at', '<=', now - analyticsRetentionMs)
        .executeTakeFirst(),
    ),
    partnerTokenUses: count(
      await db.deleteFrom('partner_token_uses').where('expires_at', '<=', now).executeTakeFirst(),
    ),
    mobile: await sweepMobile(db, now),
    idempotencyKeys: await sweepIdempotencyKeys(db, now),
    activity: await pruneActivity(db, now),
  };
}

/**
 * Mobile-app MFA rows past use. Enrolments and challenges stay a day after their expiry (the
 * portal may still read how they ended); a back-off idle for a day is forgotten, so the next
 * request starts at the first wait again.
 */
async function sweepMobile(db: Kysely<Database>, now: number): Promise<number> {
  const deleted = await Promise.all([
    db
      .deleteFrom('mobile_enrolments')
      .where('expires_at', '<=', now - DAY)
      .executeTakeFirst(),
    db
      .deleteFrom('mobile_challenges')
      .where('expires_at', '<=', now - DAY)
      .executeTakeFirst(),
    db.deleteFrom('mobile_device_tokens').where('expires_at', '<=', now).executeTakeFirst(),
    db.deleteFrom('mobile_used_jtis').where('expires_at', '<=', now).executeTakeFirst(),
    db
      .deleteFrom('mobile_backoff')
      .where('next_allowed_at', '<=', now - DAY)
      .where('muted_until', '<=', now - DAY)
      .executeTakeFirst(),
  ]);
  return deleted.reduce((sum, result) => sum + Number(result.numDeletedRows), 0);
}

/** Sweeps every interval (default 10 minutes), never blocking shutdown. */
export function startJanitor(
  db: Kysely<Database>,
  clock: { now(): number },
  onError: (error: unknown) => void,
  intervalMs = 10 * 60_000,
): () => void {
  const timer = setInterval(() => {
    sweepExpired(db, clock.now()).catch(onError);
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
