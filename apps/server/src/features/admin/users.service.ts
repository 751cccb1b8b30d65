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
  type UserRow,
} from '../accounts/index.ts';
import { removeUserFactors } from '../mfa/index.ts';
import { endUserAccess } from '../sessions/index.ts';
import type { TenantContext } from '../tenants/index.ts';
import type { AdminDeps } from './admin.deps.ts';

/**
 * A tenant's accounts (docs/admin-api.md#users): searched, invited, disabled and enabled,
 * unlocked, their MFA reset, their sessions ended, deleted. Each action reuses the account
 * services and writes its audit entry in the transaction of the change.
 */

export function userOf(row: UserRow): AdminUser {
  return {
    id: row.id,
    email: row.email,
    type: row.type as UserType,
    locale: row.locale as Locale,
    status: row.status,
    emailVerified: row.email_verified === 1,
    createdAt: Number(row.created_at),
  };
}

async function tenantContext(deps: AdminDeps, code: string): Promise<TenantContext> {
  const tenant = await deps.tenants.byCode(code);
  if (!tenant) {
    // The directory remembers an unknown code until told otherwise: forget it, so a tenant
    // created later (by apply, on another instance) is found at the next request.
    deps.tenants.invalidate(code);
    throw new AppError(adminErrors.tenantNotFound);
  }
  return tenant;
}

async function userIn(deps: AdminDeps, tenant: TenantContext, userId: string): Promise<UserRow> {
  const user = await findUserById(deps.db, tenant.code, userId);
  if (!user) throw new AppError(adminErrors.userNotFound);
  return user;
}

/** Accounts whose address starts with `email` (case-insensitive), in address order. */
export async function searchUsers(deps: AdminDeps, code: string, email: string | undefined, limit: number) {
  const tenant = await tenantContext(deps, code);
  let query = deps.db.selectFrom('users').selectAll().where('tenant_code', '=', tenant.code);
  if (email) {
    const prefix = email.replace(/[\\%_]/g, (c) => `\\${c}`);
    query = query.where(sql<boolean>`email like ${`${prefix}%`} escape '\\'`);
  }
  const rows = await query.orderBy('email').limit(limit).execute();
  return rows.map(userOf);
}

export async function getUser(deps: AdminDeps, code: string, userId: string) {
  return userOf(await userIn(deps, await tenantContext(deps, code), userId));
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
  return { user: userOf(user), created };
}

/** A new activation link for a pending account (the older one stops working). */
export async function resendActivation(deps: AdminDeps, code: string, userId: string) {
  const tenant = await tenantContext(deps, code);
  const user = await userIn(deps, tenant, userId);
  if (user.status !== 'pending') return { outcome: 'unchanged' as const, user: userOf(user) };
  await deps.db.transaction().execute(async (trx) => {
    await queueActivation(trx, deps.config, tenant, user, deps.now);
    await auditUser(deps, code, 'user.resend_activation')(trx, user);
  });
  return { outcome: 'done' as const, user: userOf(user) };
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
  if (change === 'unchanged') return { outcome: 'unchanged' as const, user: userOf(user) };
  return { outcome: 'done' as const, user: userOf(await userIn(deps, tenant, userId)) };
}

/** Lifts a sign-in lockout: the account's failed attempts are forgotten. */
export async function unlockUser(deps: AdminDeps, code: string, userId: string) {
  const tenant = await tenantContext(deps, code);
  const user = await userIn(deps, tenant, userId);
  // The attempt counters may live in Redis, outside any database transaction: the entry is
  // written first, so no lockout is ever lifted without one.
  await auditUser(deps, code, 'user.unlock')(deps.db, user);
  await deps.limiter.clear(limitKeys.loginEmail(tenant.code, user.email));
  return { outcome: 'done' as const, user: userOf(user) };
}

/**
 * Removes every MFA factor of the account (factors, recovery codes, pending codes, trusted
 * devices, the partner app) and ends its sessions and grants: the next sign-in sets a factor
 * up again, as the tenant's policy asks.
 */
export async function resetUserMfa(deps: AdminDeps, code: string, userId: string) {
  const tenant = await tenantContext(deps, code);
  const user = await userIn(deps, tenant, userId);
  await deps.db.transaction().execute(async (trx) => {
    await removeUserFactors(trx, { tenantCode: tenant.code, userId: user.id }, deps.now);
    await recordAudit(
      trx,
      deps.actor,
      { tenant: code, action: 'user.reset_mfa', target: { kind: 'user', id: user.id } },
      deps.now,
    );
  });
  return { outcome: 'done' as const, user: userOf(user) };
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
  return { outcome: 'done' as const, user: userOf(user) };
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
