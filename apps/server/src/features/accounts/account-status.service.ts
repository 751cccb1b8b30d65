import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';
import { limitKeys } from '../../platform/security/limit-keys.ts';
import type { RateLimiter } from '../../platform/security/rate-limiter.ts';
import { endUserAccess } from '../sessions/index.ts';
import type { TenantContext } from '../tenants/index.ts';
import { findUserByEmail, type UserRow } from './user.repository.ts';

export type AccountChange = 'disabled' | 'enabled' | 'deleted' | 'unchanged';

/**
 * Runs in the change's own transaction, after the change, when there is one (the admin API's
 * audit entry): the change and what goes with it commit together or not at all.
 */
export type Alongside = (trx: Kysely<Database>, user: UserRow) => Promise<void>;

/**
 * Disables an account: it can no longer sign in, and every session, grant and token it holds
 * ends in the same transaction (invariant 7), so no app keeps it signed in. A pending account
 * stays pending (it has no sessions); only active accounts change.
 */
export async function disableAccount(
  db: Kysely<Database>,
  tenant: TenantContext,
  email: string,
  now: number,
  alongside?: Alongside,
) {
  return db
    .transaction()
    .execute(async (trx): Promise<{ user: UserRow | undefined; change: AccountChange }> => {
      const user = await findUserByEmail(trx, tenant.code, email);
      if (user?.status !== 'active') return { user, change: 'unchanged' };
      await trx
        .updateTable('users')
        .set({ status: 'disabled', updated_at: now })
        .where('id', '=', user.id)
        .where('tenant_code', '=', tenant.code)
        .execute();
      await endUserAccess(trx, { tenantCode: tenant.code, userId: user.id }, now);
      await alongside?.(trx, user);
      return { user, change: 'disabled' };
    });
}

/** Enables a disabled account again; it signs in afresh (nothing of before was kept). */
export async function enableAccount(
  db: Kysely<Database>,
  tenant: TenantContext,
  email: string,
  now: number,
  alongside?: Alongside,
) {
  return db.transaction().execute(async (trx) => {
    const user = await findUserByEmail(trx, tenant.code, email);
    if (user?.status !== 'disabled') return { user, change: 'unchanged' as AccountChange };
    const enabled = await trx
      .updateTable('users')
      .set({ status: 'active', updated_at: now })
      .where('id', '=', user.id)
      .where('tenant_code', '=', tenant.code)
      .where('status', '=', 'disabled')
      .executeTakeFirst();
    if (Number(enabled.numUpdatedRows) === 0) return { user, change: 'unchanged' as AccountChange };
    await alongside?.(trx, user);
    return { user, change: 'enabled' as AccountChange };
  });
}

/**
 * Deletes an account and what is kept for it: sessions, grants and tokens end first, then the
 * row goes with everything that references it (password history, one-time tokens, factors,
 * devices, codes), its mail in the outbox is removed, its analytics events lose their link to
 * it, and its attempt counters are forgotten.
 */
export async function deleteAccount(
  deps: { db: Kysely<Database>; limiter: RateLimiter },
  tenant: TenantContext,
  email: string,
  now: number,
  alongside?: Alongside,
): Promise<{ user: UserRow | undefined; change: AccountChange }> {
  const result = await deps.db.transaction().execute(async (trx) => {
    const user = await findUserByEmail(trx, tenant.code, email);
    if (!user) return { user, change: 'unchanged' as AccountChange };
    await endUserAccess(trx, { tenantCode: tenant.code, userId: user.id }, now);
    await trx.updateTable('analytics_events').set({ user_id: null }).where('user_id', '=', user.id).execute();
    const phones = await trx
      .selectFrom('mfa_factors')
      .select('phone')
      .where('user_id', '=', user.id)
      .where('phone', 'is not', null)
      .execute();
    const recipients = [user.email, ...phones.map((row) => row.phone as string)];
    await trx
      .deleteFrom('outbox')
      .where('tenant_code', '=', tenant.code)
      .where('recipient', 'in', recipients)
      .execute();
    await trx.deleteFrom('users').where('id', '=', user.id).where('tenant_code', '=', tenant.code).execute();
    await alongside?.(trx, user);
    return { user, change: 'deleted' as AccountChange };
  });
  if (result.user) await deps.limiter.clear(limitKeys.loginEmail(tenant.code, result.user.email));
  return result;
}
