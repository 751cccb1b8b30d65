import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';
import { consumeUserTokens } from '../../platform/shared/one-time-token.ts';
import { forgetBrowsers } from './known-browser.ts';
import { invalidateUserSessions } from './session.service.ts';

/**
 * Invariant 7: a credential change (password reset, MFA reset, an account disabled or
 * deleted) ends everything that carried the old credentials: every Keycard session of the
 * user, every provider grant, access token, refresh token, code and provider session on the
 * tenant, every login code and partner hand-off code not yet redeemed, and the browsers known
 * for the account. `keepSessionId` spares the session that made the change itself (an MFA reset
 * continues in the same session to set a factor up again). Run it inside the transaction of
 * the change, so both happen or neither.
 */
export async function endUserAccess(
  db: Kysely<Database>,
  input: {
    tenantCode: string;
    userId: string;
    keepSessionId?: string;
    /** The known browser that made the change (its lockout lane stays its own). */
    keepBrowserId?: string | null;
  },
  now: number,
): Promise<{ endedSessions: number }> {
  const endedSessions = await invalidateUserSessions(db, input.userId, input.keepSessionId);
  await revokeUserGrants(db, input.tenantCode, input.userId);
  // A login code checked against the old credentials must not open a session afterwards.
  await consumeUserTokens(
    db,
    { tenantCode: input.tenantCode, userId: input.userId, purpose: 'LOGIN_CODE' },
    now,
  );
  // A partner hand-off code (issue 8) issued from a session that just ended must not reach an
  // app afterwards: its sessions, partner ones included, are gone, so are its codes (issue 16).
  await consumeUserTokens(
    db,
    { tenantCode: input.tenantCode, userId: input.userId, purpose: 'PARTNER_HANDOFF' },
    now,
  );
  await forgetBrowsers(db, input.tenantCode, input.userId, input.keepBrowserId);
  return { endedSessions };
}

/**
 * "Sign out everywhere" on the account page: every other Keycard session of the account, every
 * app's grant and tokens (apps signed in from this browser get new ones at their next sign-in,
 * silently), and every login or hand-off code not yet redeemed — a password typed elsewhere a
 * moment ago must not open a session afterwards. The browsers known for the account stay known:
 * nothing about the credentials changed. Answers how many sessions ended.
 */
export async function endOtherAccess(
  db: Kysely<Database>,
  input: { tenantCode: string; userId: string; keepSessionId: string },
  now: number,
): Promise<number> {
  const ended = await invalidateUserSessions(db, input.userId, input.keepSessionId);
  await revokeUserGrants(db, input.tenantCode, input.userId);
  for (const purpose of ['LOGIN_CODE', 'PARTNER_HANDOFF'] as const) {
    await consumeUserTokens(db, { tenantCode: input.tenantCode, userId: input.userId, purpose }, now);
  }
  return ended;
}

/**
 * Signs the account out of one app: its grants, and every token and code issued from them, on
 * this tenant. The client id is in the provider's payloads (JSON), so the account's grants are
 * read and matched here. Answers whether the app had any.
 */
export async function revokeAppAccess(
  db: Kysely<Database>,
  input: { tenantCode: string; userId: string; clientId: string },
): Promise<boolean> {
  const rows = await db
    .selectFrom('oidc_payloads')
    .select(['model', 'id', 'grant_id', 'payload'])
    .where('tenant_code', '=', input.tenantCode)
    .where('account_id', '=', input.userId)
    .where('model', 'in', appModels)
    .execute();
  const mine = rows.filter((row) => clientIdOf(row.payload) === input.clientId);
  if (mine.length === 0) return false;
  const grants = [...new Set(mine.map((row) => (row.model === 'Grant' ? row.id : row.grant_id)))].filter(
    (grant): grant is string => grant !== null,
  );
  const ids = mine.map((row) => row.id);
  await db
    .deleteFrom('oidc_payloads')
    .where('tenant_code', '=', input.tenantCode)
    .where((eb) => {
      const byId = eb.and([eb('account_id', '=', input.userId), eb('id', 'in', ids)]);
      if (grants.length === 0) return byId;
      return eb.or([
        byId,
        eb('grant_id', 'in', grants),
        eb.and([eb('model', '=', 'Grant'), eb('id', 'in', grants)]),
      ]);
    })
    .execute();
  return true;
}

/** What the provider keeps per account and app: the grant, and the tokens and codes made from it. */
export const appModels = ['Grant', 'AccessToken', 'RefreshToken', 'AuthorizationCode'] as const;

/** The client id of a provider payload (its JSON), if it names one. */
export function clientIdOf(payload: string): string | null {
  try {
    const parsed: unknown = JSON.parse(payload);
    if (typeof parsed === 'object' && parsed !== null && 'clientId' in parsed) {
      return typeof parsed.clientId === 'string' ? parsed.clientId : null;
    }
  } catch {
    // Not JSON: names no client.
  }
  return null;
}

/**
 * Invariant 7: a credential change ends every grant. Removes all of a user's provider
 * artifacts on the tenant — grants, access and refresh tokens, codes and the provider's own
 * sessions — in one statement.
 */
async function revokeUserGrants(db: Kysely<Database>, tenantCode: string, userId: string): Promise<void> {
  await db
    .deleteFrom('oidc_payloads')
    .where('tenant_code', '=', tenantCode)
    .where('account_id', '=', userId)
    .execute();
}
