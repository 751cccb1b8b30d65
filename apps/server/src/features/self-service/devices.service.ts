import { createHash } from 'node:crypto';
import {
  type AccountApp,
  type AccountSession,
  accountAuditActions,
  accountErrors,
  type TrustedBrowser,
} from '@keycard/contract';
import type { Kysely } from 'kysely';
import { recordAudit, systemActor } from '../../platform/audit/audit.service.ts';
import type { Database } from '../../platform/db/schema.ts';
import { hashToken } from '../../platform/shared/crypto.ts';
import { AppError } from '../../platform/shared/errors.ts';
import { removeDevices } from '../factors/index.ts';
import {
  appModels,
  clientIdOf,
  endOtherAccess,
  endSession,
  findSessionByRef,
  listSessions,
  revokeAppAccess,
} from '../sessions/index.ts';
import { type AccountCaller, assertAccountSession, assertRecentSignIn } from './access.ts';

function audit(
  db: Kysely<Database>,
  caller: AccountCaller,
  action: string,
  after: Record<string, unknown>,
  now: number,
) {
  return recordAudit(
    db,
    systemActor,
    { tenant: caller.tenant.code, action, target: { kind: 'user', id: caller.signIn.user.id }, after },
    now,
  );
}

/** The apps (OIDC clients) holding a grant or tokens for the account, with when each last got one. */
export async function listApps(
  db: Kysely<Database>,
  input: { tenantCode: string; userId: string },
  now: number,
): Promise<AccountApp[]> {
  const rows = await db
    .selectFrom('oidc_payloads')
    .select(['model', 'payload'])
    .where('tenant_code', '=', input.tenantCode)
    .where('account_id', '=', input.userId)
    .where('model', 'in', appModels)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .execute();
  const apps = new Map<string, number | null>();
  for (const row of rows) {
    const clientId = clientIdOf(row.payload);
    if (!clientId) continue;
    const issued = issuedAtOf(row.payload);
    const known = apps.get(clientId) ?? null;
    apps.set(clientId, issued === null ? known : Math.max(known ?? 0, issued));
  }
  if (apps.size === 0) return [];
  const clients = await db
    .selectFrom('oidc_clients')
    .select(['client_id', 'metadata'])
    .where('tenant_code', '=', input.tenantCode)
    .where('client_id', 'in', [...apps.keys()])
    .execute();
  const names = new Map(clients.map((client) => [client.client_id, clientNameOf(client.metadata)]));
  return [...apps]
    .map(([clientId, lastUsedAt]) => ({ clientId, name: names.get(clientId) ?? clientId, lastUsedAt }))
    .sort((a, b) => (b.lastUsedAt ?? 0) - (a.lastUsedAt ?? 0) || a.name.localeCompare(b.name));
}

function parseObject(json: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'object' && value !== null ? Object.fromEntries(Object.entries(value)) : {};
  } catch {
    return {};
  }
}

/** A provider payload's iat (seconds) in milliseconds, if it has one. */
function issuedAtOf(payload: string): number | null {
  const { iat } = parseObject(payload);
  return typeof iat === 'number' ? iat * 1000 : null;
}

function clientNameOf(metadata: string): string | null {
  const { client_name: name } = parseObject(metadata);
  return typeof name === 'string' && name.length > 0 ? name : null;
}

/** GET /api/account/sessions: the account's sessions (this one first) and its apps. */
export async function accountSessions(
  db: Kysely<Database>,
  caller: AccountCaller,
  now: number,
): Promise<{ sessions: AccountSession[]; apps: AccountApp[] }> {
  assertAccountSession(caller.signIn);
  const who = { tenantCode: caller.tenant.code, userId: caller.signIn.user.id };
  const [sessions, apps] = await Promise.all([
    listSessions(db, { ...who, currentSessionId: caller.signIn.session.id }, now),
    listApps(db, who, now),
  ]);
  return { sessions, apps };
}

/**
 * DELETE /api/account/sessions/:id: signs one browser out. The id is the page's opaque one; an id
 * of another account's (or tenant's) session is simply not found. Ending this browser's own
 * session is a sign-out and needs no recent sign-in; ending another's does.
 */
export async function endAccountSession(
  db: Kysely<Database>,
  caller: AccountCaller,
  ref: string,
  now: number,
): Promise<{ current: boolean }> {
  assertAccountSession(caller.signIn);
  const who = { tenantCode: caller.tenant.code, userId: caller.signIn.user.id };
  const sessionId = await findSessionByRef(db, { ...who, ref });
  if (!sessionId) throw new AppError(accountErrors.notFound);
  const current = sessionId === caller.signIn.session.id;
  if (!current) assertRecentSignIn(caller.signIn, now);
  if (!(await endSession(db, { ...who, sessionId }))) throw new AppError(accountErrors.notFound);
  await audit(db, caller, accountAuditActions.sessionEnded, { current }, now);
  return { current };
}

/** DELETE /api/account/sessions: "sign out everywhere" but here — other sessions and every app. */
export async function endOtherAccountSessions(
  db: Kysely<Database>,
  caller: AccountCaller,
  now: number,
): Promise<{ ended: number }> {
  assertAccountSession(caller.signIn);
  assertRecentSignIn(caller.signIn, now);
  const ended = await db.transaction().execute(async (trx) => {
    const count = await endOtherAccess(
      trx,
      {
        tenantCode: caller.tenant.code,
        userId: caller.signIn.user.id,
        keepSessionId: caller.signIn.session.id,
      },
      now,
    );
    await audit(trx, caller, accountAuditActions.otherSessionsEnded, { ended: count }, now);
    return count;
  });
  return { ended };
}

/** DELETE /api/account/apps/:clientId: the app's grants and tokens for this account end. */
export async function signOutOfApp(
  db: Kysely<Database>,
  caller: AccountCaller,
  clientId: string,
  now: number,
): Promise<void> {
  assertAccountSession(caller.signIn);
  assertRecentSignIn(caller.signIn, now);
  const revoked = await db.transaction().execute(async (trx) => {
    const found = await revokeAppAccess(trx, {
      tenantCode: caller.tenant.code,
      userId: caller.signIn.user.id,
      clientId,
    });
    if (found) await audit(trx, caller, accountAuditActions.appSignedOut, { clientId }, now);
    return found;
  });
  if (!revoked) throw new AppError(accountErrors.notFound);
}

/** The page's opaque name for a trusted browser: a digest of its id (itself a token's digest). */
export function trustedBrowserRef(deviceId: string): string {
  return createHash('sha256').update(`keycard.device-ref\0${deviceId}`).digest('base64url').slice(0, 32);
}

/** GET /api/account/trusted-browsers: browsers that skip MFA, newest first; `deviceToken` is this one's. */
export async function listTrustedBrowsers(
  db: Kysely<Database>,
  caller: AccountCaller,
  deviceToken: string | undefined,
  now: number,
): Promise<TrustedBrowser[]> {
  assertAccountSession(caller.signIn);
  const rows = await db
    .selectFrom('mfa_devices')
    .selectAll()
    .where('tenant_code', '=', caller.tenant.code)
    .where('user_id', '=', caller.signIn.user.id)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .execute();
  const currentId = deviceToken && deviceToken.length <= 256 ? hashToken(deviceToken) : null;
  return rows.map((row) => ({
    id: trustedBrowserRef(row.id),
    current: row.id === currentId,
    createdAt: Number(row.created_at),
    lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
    expiresAt: Number(row.expires_at),
  }));
}

/** DELETE /api/account/trusted-browsers/:id: that browser asks for the factor again. */
export async function forgetTrustedBrowser(
  db: Kysely<Database>,
  caller: AccountCaller,
  ref: string,
  now: number,
): Promise<void> {
  assertAccountSession(caller.signIn);
  assertRecentSignIn(caller.signIn, now);
  const who = { tenantCode: caller.tenant.code, userId: caller.signIn.user.id };
  const rows = await db
    .selectFrom('mfa_devices')
    .select('id')
    .where('tenant_code', '=', who.tenantCode)
    .where('user_id', '=', who.userId)
    .execute();
  const id = rows.find((row) => trustedBrowserRef(row.id) === ref)?.id;
  if (!id) throw new AppError(accountErrors.notFound);
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('mfa_devices')
      .where('id', '=', id)
      .where('tenant_code', '=', who.tenantCode)
      .where('user_id', '=', who.userId)
      .execute();
    await audit(trx, caller, accountAuditActions.trustedBrowserForgotten, {}, now);
  });
}

/** DELETE /api/account/trusted-browsers: every browser asks for the factor again. */
export async function forgetTrustedBrowsers(
  db: Kysely<Database>,
  caller: AccountCaller,
  now: number,
): Promise<{ forgotten: number }> {
  assertAccountSession(caller.signIn);
  assertRecentSignIn(caller.signIn, now);
  const who = { tenantCode: caller.tenant.code, userId: caller.signIn.user.id };
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('mfa_devices')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('tenant_code', '=', who.tenantCode)
      .where('user_id', '=', who.userId)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    await removeDevices(trx, who.tenantCode, who.userId);
    const forgotten = Number(row?.n ?? 0);
    await audit(trx, caller, accountAuditActions.trustedBrowsersForgotten, { forgotten }, now);
    return { forgotten };
  });
}
