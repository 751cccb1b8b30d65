import { createHash } from 'node:crypto';
import { partnerHandoffLifetimeSeconds } from '@keycard/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';
import { hashToken } from '../../platform/shared/crypto.ts';
import { issueToken, peekToken, redeemToken } from '../../platform/shared/one-time-token.ts';

/**
 * The one-time hand-off code of a partner sign-in (issue 8, step 5): issued by generate-token
 * for a complete authx session, redeemed once by the partner's back end at /oidc/token
 * (RFC 8693 token exchange, oidc/token-exchange.ts). What the code is bound to travels with
 * it, stored beside its hash.
 */
export interface HandoffData {
  partnerCode: string;
  /** The registered address the code was sent to; the redeeming client must own it. */
  redirectUri: string;
  /** How the session signed in (RFC 8176), for the ID token. */
  amr: string[];
  /** When the session signed in (seconds), the ID token's auth_time. */
  authTime: number;
  /** Set by a second redemption, so the first one's tokens die even if it finishes later. */
  reused?: true;
}

export async function issueHandoffCode(
  db: Kysely<Database>,
  input: { tenantCode: string; userId: string; data: HandoffData },
  now: number,
): Promise<string> {
  return issueToken(
    db,
    {
      tenantCode: input.tenantCode,
      userId: input.userId,
      purpose: 'PARTNER_HANDOFF',
      ttlMs: partnerHandoffLifetimeSeconds * 1000,
      data: input.data,
    },
    now,
  );
}

/**
 * The id of the provider grant a code's tokens are issued under: derived from the code, so a
 * second redemption can revoke what the first issued without looking anything up (RFC 6749
 * §4.1.2 asks this of a reused authorization code). Not the stored hash of the code.
 */
export function handoffGrantId(code: string): string {
  return `handoff-${createHash('sha256').update(`keycard-handoff-grant:${code}`).digest('base64url')}`;
}

export type HandoffRedemption =
  | { ok: true; userId: string; data: HandoffData; grantId: string }
  | { ok: false; reason: 'invalid' | 'redirect_mismatch' }
  | { ok: false; reason: 'reused'; grantId: string };

/**
 * Redeems a hand-off code for a client that owns `redirectUris`: one atomic UPDATE, so of any
 * number of concurrent redemptions exactly one wins. A code bound to another client's address
 * is refused without being used up (the app it was meant for may still redeem it). A code
 * used before is marked reused before the caller revokes the first redemption's grant.
 */
export async function redeemHandoffCode(
  db: Kysely<Database>,
  input: { tenantCode: string; code: string; redirectUris: readonly string[] },
  now: number,
): Promise<HandoffRedemption> {
  const token = { tenantCode: input.tenantCode, purpose: 'PARTNER_HANDOFF' as const, token: input.code };
  const grantId = handoffGrantId(input.code);
  const reused = async (): Promise<HandoffRedemption> => {
    await markReused(db, input.tenantCode, input.code);
    return { ok: false, reason: 'reused', grantId };
  };
  const peeked = await peekToken(db, token, now);
  if (!peeked.ok) return peeked.reason === 'consumed' ? reused() : { ok: false, reason: 'invalid' };
  const bound = peeked.data as HandoffData;
  if (!input.redirectUris.includes(bound.redirectUri)) return { ok: false, reason: 'redirect_mismatch' };
  const redeemed = await redeemToken(db, token, now);
  if (!redeemed.ok) return redeemed.reason === 'consumed' ? reused() : { ok: false, reason: 'invalid' };
  if (!redeemed.userId) return { ok: false, reason: 'invalid' };
  return { ok: true, userId: redeemed.userId, data: redeemed.data as HandoffData, grantId };
}

/** Whether a code was presented again after it was redeemed. */
export async function isHandoffReused(
  db: Kysely<Database>,
  tenantCode: string,
  code: string,
): Promise<boolean> {
  const row = await handoffRow(db, tenantCode, code);
  return row?.data ? (JSON.parse(row.data) as HandoffData).reused === true : false;
}

async function markReused(db: Kysely<Database>, tenantCode: string, code: string): Promise<void> {
  const row = await handoffRow(db, tenantCode, code);
  if (!row?.data) return;
  const data: HandoffData = { ...(JSON.parse(row.data) as HandoffData), reused: true };
  await db
    .updateTable('one_time_tokens')
    .set({ data: JSON.stringify(data) })
    .where('id', '=', hashToken(code))
    .where('tenant_code', '=', tenantCode)
    .where('purpose', '=', 'PARTNER_HANDOFF')
    .execute();
}

function handoffRow(db: Kysely<Database>, tenantCode: string, code: string) {
  return db
    .selectFrom('one_time_tokens')
    .select('data')
    .where('id', '=', hashToken(code))
    .where('tenant_code', '=', tenantCode)
    .where('purpose', '=', 'PARTNER_HANDOFF')
    .executeTakeFirst();
}
