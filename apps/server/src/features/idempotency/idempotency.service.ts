import { createHash } from 'node:crypto';
import { errorCodes, idempotencyKeyLifetimeHours } from '@keycard/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';
import type { Clock } from '../../platform/shared/clock.ts';
import { AppError } from '../../platform/shared/errors.ts';

export const idempotencyLifetimeMs = idempotencyKeyLifetimeHours * 60 * 60 * 1000;

/** Who may replay an answer: a key counts only on its tenant, route and subject. */
export interface IdempotencyScope {
  tenantCode: string;
  /** Method and route pattern, e.g. 'POST /api/user/:email/reset-password'. */
  route: string;
  /** The e-mail address of an anonymous mail request, or the session of a signed-in one. */
  subject: string;
  key: string;
}

export interface IdempotentAnswer {
  status: number;
  body: unknown;
  /** True when this is the stored answer of an earlier request with the key. */
  replayed: boolean;
}

export interface IdempotencyOptions {
  /** How long a duplicate waits for the first request to finish before it gets 409. */
  waitMs: number;
  pollMs: number;
  /** A claim this old whose request never finished (a crashed process) may be taken over. */
  staleMs: number;
}

const defaults: IdempotencyOptions = { waitMs: 10_000, pollMs: 25, staleMs: 60_000 };

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The stored id of a scope: hashed, so the table holds no address or session id. */
export function idempotencyId(scope: IdempotencyScope): string {
  return sha256(JSON.stringify([scope.tenantCode, scope.route, scope.subject, scope.key]));
}

export function requestFingerprint(url: string, body: unknown): string {
  return sha256(`${url}\n${JSON.stringify(body ?? null)}`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const lastSweep = new WeakMap<object, number>();

/**
 * Runs `run` once per scope: the first request with a key claims it by one atomic insert and
 * runs; its successful answer is stored for 24 hours and every repeat gets that answer
 * without running again. A repeat that arrives while the first still runs waits for it (up to
 * `waitMs`, then 409 idempotency.in_progress). A failure is not stored: the claim is dropped
 * so a retry may try again (a rate limit or a refused captcha did nothing to repeat). A key
 * used again for another request (other path or body) is refused with 422.
 */
export async function runOnce(
  db: Kysely<Database>,
  clock: Clock,
  scope: IdempotencyScope,
  fingerprint: string,
  run: () => Promise<{ status: number; body: unknown }>,
  options: IdempotencyOptions = defaults,
): Promise<IdempotentAnswer> {
  const id = idempotencyId(scope);
  await sweepNow(db, clock.now());
  const deadline = Date.now() + options.waitMs;
  for (;;) {
    const now = clock.now();
    const claimed = await db
      .insertInto('idempotency_keys')
      .values({
        id,
        tenant_code: scope.tenantCode,
        fingerprint,
        status: null,
        body: null,
        claimed_at: now,
        expires_at: now + idempotencyLifetimeMs,
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (claimed) return runClaimed(db, id, now, run);

    const row = await db.selectFrom('idempotency_keys').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) continue; // the first request failed and let go: claim it ourselves
    if (row.expires_at <= now) {
      await db.deleteFrom('idempotency_keys').where('id', '=', id).where('expires_at', '<=', now).execute();
      continue;
    }
    if (row.fingerprint !== fingerprint) throw new AppError(errorCodes.idempotencyKeyReused);
    if (row.status !== null) {
      return { status: row.status, body: JSON.parse(row.body ?? 'null') as unknown, replayed: true };
    }
    if (now - row.claimed_at >= options.staleMs) {
      // Take over a claim whose process died: only one taker wins the compare-and-set.
      const taken = await db
        .updateTable('idempotency_keys')
        .set({ claimed_at: now })
        .where('id', '=', id)
        .where('status', 'is', null)
        .where('claimed_at', '=', row.claimed_at)
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) === 1) return runClaimed(db, id, now, run);
      continue;
    }
    if (Date.now() >= deadline) throw new AppError(errorCodes.idempotencyInProgress);
    await sleep(options.pollMs);
  }
}

async function runClaimed(
  db: Kysely<Database>,
  id: string,
  claimedAt: number,
  run: () => Promise<{ status: number; body: unknown }>,
): Promise<IdempotentAnswer> {
  let answer: { status: number; body: unknown };
  try {
    answer = await run();
  } catch (error) {
    await db
      .deleteFrom('idempotency_keys')
      .where('id', '=', id)
      .where('status', 'is', null)
      .where('claimed_at', '=', claimedAt)
      .execute();
    throw error;
  }
  await db
    .updateTable('idempotency_keys')
    .set({ status: answer.status, body: JSON.stringify(answer.body ?? null) })
    .where('id', '=', id)
    .execute();
  return { ...answer, replayed: false };
}

/** Drops expired keys, at most once a minute per database handle (plain deletes by time). */
async function sweepNow(db: Kysely<Database>, now: number): Promise<void> {
  const last = lastSweep.get(db) ?? Number.NEGATIVE_INFINITY;
  if (now - last < 60_000) return;
  lastSweep.set(db, now);
  await sweepIdempotencyKeys(db, now);
}

export async function sweepIdempotencyKeys(db: Kysely<Database>, now: number): Promise<number> {
  const result = await db.deleteFrom('idempotency_keys').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
