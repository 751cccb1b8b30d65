import { randomBytes } from 'node:crypto';
import {
  type AccountActivity,
  type AccountActivityKind,
  accountActivityKinds,
  accountFactorKinds,
  accountSignInMethods,
} from '@keycard/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';
import { DAY } from '../../platform/shared/clock.ts';
import { browserSummary } from '../sessions/index.ts';

/** The account page shows, and Keycard keeps, this much recent activity. */
export const activityRetentionMs = 30 * DAY;

/** What an activity entry says beyond its kind: how a sign-in was made, which factor, a name. */
export type ActivityDetail = AccountActivity['detail'];

export interface ActivityInput {
  tenantCode: string;
  userId: string;
  kind: AccountActivityKind;
  /** The browser's User-Agent header, if the request had one. */
  userAgent?: string | null | undefined;
  ip?: string | null | undefined;
  detail?: ActivityDetail;
}

const maxUserAgent = 512;

let lastMs = 0;
let sequence = 0;

/**
 * A UUIDv7 (RFC 9562): the time in its first 48 bits, then a counter for entries of the same
 * millisecond in this process, so entries written together (a partner linked, then its
 * sign-in) list in the order they happened.
 */
function entryId(now: number): string {
  if (now === lastMs) sequence += 1;
  else {
    lastMs = now;
    sequence = 0;
  }
  const bytes = randomBytes(16);
  bytes.writeUIntBE(Math.max(0, Math.floor(now)), 0, 6);
  bytes[6] = 0x70 | ((sequence >> 8) & 0x0f);
  bytes[7] = sequence & 0xff;
  bytes[8] = 0x80 | ((bytes[8] ?? 0) & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
const maxName = 64;

/**
 * Records one sign-in or security change for the account's recent activity (the account page,
 * 30 days). Only the account's owner ever reads it (listActivity, by the signed-in account):
 * a failed sign-in is recorded against the account it named, and nobody else learns of it.
 * Run it in the transaction of the change when there is one, so both happen or neither.
 */
export async function recordActivity(db: Kysely<Database>, input: ActivityInput, now: number): Promise<void> {
  const detail: ActivityDetail = {};
  if (input.detail?.method) detail.method = input.detail.method;
  if (input.detail?.factor) detail.factor = input.detail.factor;
  if (input.detail?.name) detail.name = input.detail.name.slice(0, maxName);
  await db
    .insertInto('account_activity')
    .values({
      id: entryId(now),
      tenant_code: input.tenantCode,
      user_id: input.userId,
      kind: input.kind,
      created_at: now,
      user_agent: input.userAgent ? input.userAgent.slice(0, maxUserAgent) : null,
      ip: input.ip ? input.ip.slice(0, 64) : null,
      detail: JSON.stringify(detail),
    })
    .execute();
}

/** An older page starts after this entry: `<created_at>.<id>`. */
function parseCursor(cursor: string | undefined): { at: number; id: string } | null {
  if (!cursor) return null;
  const match = /^(\d{1,16})\.([0-9a-f-]{36})$/.exec(cursor);
  return match?.[1] && match[2] ? { at: Number(match[1]), id: match[2] } : null;
}

function parseDetail(json: string): ActivityDetail {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    return {};
  }
  if (typeof raw !== 'object' || raw === null) return {};
  const detail: ActivityDetail = {};
  const { method, factor, name } = raw as Record<string, unknown>;
  const method_ = accountSignInMethods.find((known) => known === method);
  if (method_) detail.method = method_;
  const factor_ = accountFactorKinds.find((known) => known === factor);
  if (factor_) detail.factor = factor_;
  if (typeof name === 'string') detail.name = name;
  return detail;
}

/**
 * The account's activity of the last 30 days, newest first, a page at a time. The first page
 * also removes the account's entries past 30 days (the janitor does it for everyone, too).
 */
export async function listActivity(
  db: Kysely<Database>,
  input: { tenantCode: string; userId: string; cursor?: string | undefined; limit: number },
  now: number,
): Promise<{ items: AccountActivity[]; next: string | null }> {
  const since = now - activityRetentionMs;
  const after = parseCursor(input.cursor);
  if (!input.cursor) {
    await db
      .deleteFrom('account_activity')
      .where('tenant_code', '=', input.tenantCode)
      .where('user_id', '=', input.userId)
      .where('created_at', '<=', since)
      .execute();
  }
  let query = db
    .selectFrom('account_activity')
    .selectAll()
    .where('tenant_code', '=', input.tenantCode)
    .where('user_id', '=', input.userId)
    .where('created_at', '>', since);
  if (after) {
    query = query.where((eb) =>
      eb.or([
        eb('created_at', '<', after.at),
        eb.and([eb('created_at', '=', after.at), eb('id', '<', after.id)]),
      ]),
    );
  }
  const rows = await query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(input.limit + 1)
    .execute();
  const page = rows.slice(0, input.limit);
  const items: AccountActivity[] = [];
  for (const row of page) {
    const kind = accountActivityKinds.find((known) => known === row.kind);
    if (!kind) continue;
    items.push({
      id: row.id,
      kind,
      at: Number(row.created_at),
      browser: browserSummary(row.user_agent),
      ip: row.ip,
      detail: parseDetail(row.detail),
    });
  }
  const last = page.at(-1);
  return { items, next: rows.length > input.limit && last ? `${Number(last.created_at)}.${last.id}` : null };
}

/** Removes every account's activity past 30 days (the janitor's sweep). */
export async function pruneActivity(db: Kysely<Database>, now: number): Promise<number> {
  const result = await db
    .deleteFrom('account_activity')
    .where('created_at', '<=', now - activityRetentionMs)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
