import type { AdminUser, Locale, UserType } from '@keycard/contract';
import { adminErrors } from '@keycard/contract';
import { type Kysely, sql } from 'kysely';
import { recordAudit } from '../../platform/audit/audit.service.ts';
import type { Database } from '../../platform/db/schema.ts';
import { limitKeys } from '../../platform/security/limit-keys.ts';
import { AppError } from '../../platform/shared/errors.ts';
import {
  deleteAccount,
  disableAccount,
  enableAccount,
  findUserById,
  inviteUser,
  queueActivation,
  sendSecurityMail,
  type UserRow,
} from '../accounts/index.ts';
import { resetUserMfa as removeEveryFactor } from '../mfa/index.ts';
import { endUserAccess } from '../sessions/index.ts';
import type { TenantContext } from '../tenants/index.ts';
import type { AdminDeps } from './admin.deps.ts';

/**
 * A tenant's accounts (docs/admin-api.md#users): searched, invited, disabled and enabled,
 * unlocked, their MFA reset, their sessions ended, deleted. Each action reuses the account
 * services and writes its audit entry in the transaction of the change.
 */

/**
 * Accounts as the API shows them, with what decides which actions fit each (issue 19): its
 * sign-in lockout (read under the very key the sign-in fills), whether it has a second factor
 * or a passkey, and whether it chose a secret question.
 */
export async function usersOf(deps: AdminDeps, tenantCode: string, rows: UserRow[]): Promise<AdminUser[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const factors = await deps.db
    .selectFrom('mfa_factors')
    .select('user_id')
    .where('tenant_code', '=', tenantCode)
    .where('user_id', 'in', ids)
    .where('status', '=', 'active')
    .execute();
  const passkeys = await deps.db
    .selectFrom('passkey_credentials')
    .select('user_id')
    .where('tenant_code', '=', tenantCode)
    .where('user_id', 'in', ids)
    .execute();
  const enrolled = new Set([...factors, ...passkeys].map((row) => row.user_id));
  const locks = await Promise.all(
    rows.map((row) => deps.limiter.lockedUntil(limitKeys.loginEmail(tenantCode, row.email), deps.now)),
  );
  return rows.map((row, index) => ({
    id: row.id,
    email: row.email,
    type: row.type as UserType,
    locale: row.locale as Locale,
    status: row.status,
    emailVerified: row.email_verified === 1,
    createdAt: Number(row.created_at),
    lockedUntil: locks[index] ? locks[index] : null,
    mfaEnrolled: enrolled.has(row.id),
    hasSecretQuestion: row.secret_question !== null && row.secret_answer_hash !== null,
  }));
}

export async function userOf(deps: AdminDeps, tenantCode: string, row: UserRow): Promise<AdminUser> {
  const [user] = await usersOf(deps, tenantCode, [row]);
  if (!user) throw new Error('usersOf answered no account');
  return user;
}

export async function tenantContext(deps: AdminDeps, code: string): Promise<TenantContext> {
  const tenant = await deps.tenants.byCode(code);
  if (!tenant) {
    // The directory remembers an unknown code until told otherwise: forget it, so a tenant
    // created later (by apply, on another instance) is found at the next request.
    deps.tenants.invalidate(code);
    throw new AppError(adminErrors.tenantNotFound);
  }
  return tenant;
}

export async function userIn(deps: AdminDeps, tenant: TenantContext, userId: string): Promise<UserRow> {
  const user = await findUserById(deps.db, tenant.code, userId);
  if (!user) throw new AppError(adminErrors.userNotFound);
  return user;
}

/**
 * Accounts whose address starts with `email` (case-insensitive; every account without it), in
 * address order, one page of `limit` from `offset`, with how many match in all.
 */
export async function searchUsers(
  deps: AdminDeps,
  code: string,
  search: { email?: string | undefined; limit: number; offset: number },
) {
  const tenant = await tenantContext(deps, code);
  let query = deps.db.selectFrom('users').where('tenant_code', '=', tenant.code);
  if (search.email) {
    const prefix = search.email.replace(/[\\%_]/g, (c) => `\\${c}`);
    query = query.where(sql<boolean>`email like ${`${prefix}%`} escape '\\'`);
  }
  const rows = await query.selectAll().orderBy('email').limit(search.limit).offset(search.offset).execute();
  const counted = await query.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
  return { users: await usersOf(deps, tenant.code, rows), total: Number(counted.n) };
}

export async function getUser(deps: AdminDeps, code: string, userId: string) {
  const tenant = await tenantContext(deps, code);
  return userOf(deps, tenant.code, await userIn(deps, tenant, userId));
}

/** The audit entry of a user action, written with the transaction the change runs in. */
function auditUser(deps: AdminDeps, code: string, action: string, extra: object = {}) {
  return (trx: Kysely<Database>, user: { id: string }) =>
    recordAudit(
      trx,
      deps.actor,
      { tenant: code, action, target: { kind: 'user', id: user.id }, ...extra },
      deps.now,
    );
}

export async function inviteAccount(
  deps: AdminDeps,
  code: string,
  input: { email: string; type: UserType; locale: Locale },
) {
  const tenant = await tenantContext(deps, code);
  const { user, created } = await inviteUser(
    { db: deps.db, config: deps.config },
    tenant,
    input,
    deps.now,
    auditUser(deps, code, 'user.invite', { after: { type: input.type, locale: input.locale } }),
  );
  return { user: await userOf(deps, tenant.code, user), created };
}

/** A new activation link for a pending account (the older one stops working). */
export async function resendActivation(deps: AdminDeps, code: string, userId: string) {
  const tenant = await tenantContext(deps, code);
  const user = await userIn(deps, tenant, userId);
  if (user.status !== 'pending') {
    return { outcome: 'unchanged' as const, user: await userOf(deps, tenant.code, user) };
  }
  await deps.db.transaction().execute(async (trx) => {
    await queueActivation(trx, deps.config, tenant, user, deps.now);
    await auditUser(deps, code, 'user.resend_activation')(trx, user);
  });
  return { outcome: 'done' as const, user: await userOf(deps, tenant.code, user) };
}

export async function setUserDisabled(deps: AdminDeps, code: string, userId: string, disabled: boolean) {
  const tenant = await tenantContext(deps, code);
  const user = await userIn(deps, tenant, userId);
  const audit = auditUser(deps, code, disabled ? 'user.disable' : 'user.enable', {
    before: { status: user.status },
    after: { status: disabled ? 'disabled' : 'active' },
  });
  const { change } = disabled
    ? await disableAccount(deps.db, tenant, user.email, deps.now, audit)
    : await enableAccount(deps.db, tenant, user.email, deps.now, audit);
  if (change === 'unchanged') {
    return { outcome: 'unchanged' as const, user: await userOf(deps, tenant.code, user) };
  }
  return {
    outcome: 'done' as const,
    user: await userOf(deps, tenant.code, await userIn(deps, tenant, userId)),
  };
}

/**
 * Lifts a sign-in lockout: the account's failed attempts are forgotten. An account that is not
 * locked answers `unchanged`, and nothing is touched (its failures so far still count).
 */
export async function unlockUser(deps: AdminDeps, code: string, userId: string) {
  const tenant = await tenantContext(deps, code);
  const user = await userIn(deps, tenant, userId);
  const key = limitKeys.loginEmail(tenant.code, user.email);
  const locked = (await deps.limiter.lockedUntil(key, deps.now)) > 0;
  // The attempt counters may live in Redis, outside any database transaction: the entry is
  // written first, so no lockout is ever lifted without one.
  if (!locked) return { outcome: 'unchanged' as const, user: await userOf(deps, tenant.code, user) };
  await auditUser(deps, code, 'user.unlock')(deps.db, user);
  await deps.limiter.clear(key);
  return { outcome: 'done' as const, user: await userOf(deps, tenant.code, user) };
}

/**
 * Removes every MFA factor of the account (factors, passkeys, recovery codes, pending codes,
 * trusted devices, the partner app) and ends its sessions and grants, through the same
 * resetUserMfa as the user's own reset, and mails the owner: the next sign-in sets a factor up
 * again, as the tenant's policy asks. An account with no factor and no passkey answers
 * `unchanged`.
 */
export async function resetUserMfa(deps: AdminDeps, code: string, userId: string) {
  const tenant = await tenantContext(deps, code);
  const user = await userIn(deps, tenant, userId);
  // Nothing to reset: said so, and the account's sessions are left alone.
  const before = await userOf(deps, tenant.code, user);
  if (!before.mfaEnrolled) return { outcome: 'unchanged' as const, user: before };
  await deps.db.transaction().execute(async (trx) => {
    await removeEveryFactor(trx, { tenantCode: tenant.code, userId: user.id }, deps.now);
    await recordAudit(
      trx,
      deps.actor,
      { tenant: code, action: 'user.reset_mfa', target: { kind: 'user', id: user.id } },
      deps.now,
    );
    // The owner learns of it, with the "this wasn't me" link, as after their own reset.
    await sendSecurityMail(trx, deps.config, { tenant, user, event: 'factor-removed' }, deps.now);
  });
  return { outcome: 'done' as const, user: await userOf(deps, tenant.code, user) };
}

/** Ends every session, grant and token of the account: apps signed in with it sign out. */
export async function endUserSessions(deps: AdminDeps, code: string, userId: string) {
  const tenant = await tenantContext(deps, code);
  const user = await userIn(deps, tenant, userId);
  await deps.db.transaction().execute(async (trx) => {
    await endUserAccess(trx, { tenantCode: tenant.code, userId: user.id }, deps.now);
    await recordAudit(
      trx,
      deps.actor,
      { tenant: code, action: 'user.end_sessions', target: { kind: 'user', id: user.id } },
      deps.now,
    );
  });
  return { outcome: 'done' as const, user: await userOf(deps, tenant.code, user) };
}

/** Deletes the account with everything kept for it (account-status.service.ts deleteAccount). */
export async function deleteUser(deps: AdminDeps, code: string, userId: string) {
  const tenant = await tenantContext(deps, code);
  const user = await userIn(deps, tenant, userId);
  const { change } = await deleteAccount(
    { db: deps.db, limiter: deps.limiter },
    tenant,
    user.email,
    deps.now,
    auditUser(deps, code, 'user.delete'),
  );
  if (change === 'unchanged') return { outcome: 'unchanged' as const, user: null };
  return { outcome: 'done' as const, user: null };
}
