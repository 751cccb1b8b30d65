import type { IdentityProvider } from '@keycard/contract';
import type { Kysely, Selectable } from 'kysely';
import type { Database, SessionsTable } from '../../platform/db/schema.ts';
import { DAY } from '../../platform/shared/clock.ts';
import { createToken, hashToken } from '../../platform/shared/crypto.ts';

export type SessionRow = Selectable<SessionsTable>;

/** SPEC §9: the session token cookie lives 30 days. */
export const sessionLifetimeMs = 30 * DAY;

/** How a session passed MFA: a factor, a recovery code, or a device trusted after MFA. */
export type MfaMethod =
  | 'totp'
  | 'sms'
  | 'voice'
  | 'smmobile'
  | 'recovery'
  | 'device'
  /** A passkey or security key bound to one device (amr hwk). */
  | 'passkey-hwk'
  /** A synced passkey (amr swk). */
  | 'passkey-swk'
  /**
   * The account's first factor, a passkey, was made in this session: making it confirmed it,
   * as a new authenticator app's first code does, but nothing signed in with it, so the
   * session is neither phishing-resistant (no acr phr) nor a recent passkey check.
   */
  | 'passkey-new';

/**
 * Keycard's server-side sessions: storage only. What a session may do (is it complete?) is
 * decided in one place, sign-in/sign-in-state.ts.
 */
export async function createSession(
  db: Kysely<Database>,
  input: {
    tenantCode: string;
    userId: string;
    provider: IdentityProvider;
    partnerCode?: string | null;
    /** The hash of an authx session's partner identity token (SPEC §3). */
    partnerTokenHash?: string | null;
    interactionUid?: string | null;
  },
  now: number,
): Promise<{ token: string; session: SessionRow }> {
  const token = createToken();
  const session: SessionRow = {
    id: hashToken(token),
    tenant_code: input.tenantCode,
    user_id: input.userId,
    provider: input.provider,
    partner_code: input.partnerCode ?? null,
    mfa_method: null,
    mfa_verified_at: null,
    created_at: now,
    interaction_uid: input.interactionUid ?? null,
    expires_at: now + sessionLifetimeMs,
    partner_token_hash: input.partnerTokenHash ?? null,
    reauthenticated_at: null,
  };
  await db.insertInto('sessions').values(session).execute();
  return { token, session };
}

/**
 * Records that the session passed MFA, how and when: the one MFA-passed record. The session is
 * then MFA-complete (amr 'mfa'); sensitive actions look at how recent the check was.
 */
export async function recordMfaPassed(
  db: Kysely<Database>,
  session: Pick<SessionRow, 'id' | 'tenant_code'>,
  method: MfaMethod,
  now: number,
): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ mfa_method: method, mfa_verified_at: now })
    .where('id', '=', session.id)
    .where('tenant_code', '=', session.tenant_code)
    .execute();
  await recordAccountMfa(db, session, now);
}

/** When the account last passed MFA (account_mfa_sign_ins): it outlives sessions and factors. */
async function recordAccountMfa(
  db: Kysely<Database>,
  session: Pick<SessionRow, 'id' | 'tenant_code'> & { user_id?: string },
  now: number,
): Promise<void> {
  const userId =
    session.user_id ??
    (
      await db
        .selectFrom('sessions')
        .select('user_id')
        .where('id', '=', session.id)
        .where('tenant_code', '=', session.tenant_code)
        .executeTakeFirst()
    )?.user_id;
  if (!userId) return;
  await db
    .insertInto('account_mfa_sign_ins')
    .values({ user_id: userId, tenant_code: session.tenant_code, last_mfa_at: now })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ last_mfa_at: now }))
    .execute();
}

/**
 * Whether the account passed MFA (a factor, or a device trusted after one) within the tenant's
 * trusted-device period: a partner's skipMfa does not apply to it (issue 16). The record
 * survives an MFA reset, so removing the factor does not reopen the skip.
 */
export async function hasRecentMfa(
  db: Kysely<Database>,
  input: { tenantCode: string; userId: string; trustedDeviceDays: number },
  now: number,
): Promise<boolean> {
  const row = await db
    .selectFrom('account_mfa_sign_ins')
    .select('last_mfa_at')
    .where('user_id', '=', input.userId)
    .where('tenant_code', '=', input.tenantCode)
    .executeTakeFirst();
  return row !== undefined && Number(row.last_mfa_at) > now - input.trustedDeviceDays * DAY;
}

export async function revokeSession(
  db: Kysely<Database>,
  tenantCode: string,
  token: string,
): Promise<boolean> {
  if (token.length > 128) return false;
  const result = await db
    .deleteFrom('sessions')
    .where('id', '=', hashToken(token))
    .where('tenant_code', '=', tenantCode)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Ends every Keycard session of a user (on their tenant: user ids are per tenant); answers how many. */
export async function invalidateUserSessions(
  db: Kysely<Database>,
  userId: string,
  exceptSessionId?: string,
): Promise<number> {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (exceptSessionId) query = query.where('id', '!=', exceptSessionId);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Ends one session of the account (the account page's "sign out" of a browser). */
export async function endSession(
  db: Kysely<Database>,
  input: { tenantCode: string; userId: string; sessionId: string },
): Promise<boolean> {
  const result = await db
    .deleteFrom('sessions')
    .where('id', '=', input.sessionId)
    .where('tenant_code', '=', input.tenantCode)
    .where('user_id', '=', input.userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
