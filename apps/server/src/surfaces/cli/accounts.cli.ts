import { deleteAccount, disableAccount, enableAccount } from '../../features/accounts/index.ts';
import type { TenantContext } from '../../features/tenants/index.ts';
import { cliActor, recordAudit } from '../../platform/audit/audit.service.ts';
import type { Config } from '../../platform/config.ts';
import type { Db } from '../../platform/db/database.ts';
import { SqlRateLimiter } from '../../platform/security/rate-limiter.ts';
import { RedisRateLimiter } from '../../platform/security/redis-rate-limiter.ts';

/** keycard disable-user, enable-user and delete-user: an existing account's status. */
export const accountsUsage = `  keycard disable-user --tenant <code> --email <address>
      Disables the account: it cannot sign in, and every session, grant and token it holds
      ends at once (apps signed in with it are signed out).

  keycard enable-user --tenant <code> --email <address>
      Lets a disabled account sign in again.

  keycard delete-user --tenant <code> --email <address>
      Deletes the account and what is kept for it: sessions, grants and tokens end, its
      factors, devices, codes and queued mail are removed.
`;

export const accountCommands = ['disable-user', 'enable-user', 'delete-user'];

/** disable-user, enable-user, delete-user: what was done, in the operator's terms. */
export async function changeAccount(
  command: string,
  deps: { db: Db['kysely']; config: Config },
  tenant: TenantContext,
  email: string,
  now: number,
): Promise<string> {
  if (command === 'disable-user') {
    const { user, change } = await disableAccount(deps.db, tenant, email, now, (trx, changed) =>
      auditAccount(trx, tenant.code, 'user.disable', changed.id, now),
    );
    if (change === 'disabled')
      return `Disabled ${email} on ${tenant.code}: its sessions, grants and tokens have ended.`;
    return user
      ? `${email} is ${user.status} on ${tenant.code}; nothing changed.`
      : `No account ${email} on ${tenant.code}.`;
  }
  if (command === 'enable-user') {
    const { user, change } = await enableAccount(deps.db, tenant, email, now, (trx, changed) =>
      auditAccount(trx, tenant.code, 'user.enable', changed.id, now),
    );
    if (change === 'enabled') return `Enabled ${email} on ${tenant.code}.`;
    return user
      ? `${email} is ${user.status} on ${tenant.code}; nothing changed.`
      : `No account ${email} on ${tenant.code}.`;
  }
  const limiter = deps.config.redisUrl
    ? new RedisRateLimiter(deps.config.redisUrl)
    : new SqlRateLimiter(deps.db);
  try {
    const { change } = await deleteAccount({ db: deps.db, limiter }, tenant, email, now, (trx, changed) =>
      auditAccount(trx, tenant.code, 'user.delete', changed.id, now),
    );
    return change === 'deleted'
      ? `Deleted ${email} from ${tenant.code}, with its sessions, grants, tokens, factors and queued mail.`
      : `No account ${email} on ${tenant.code}.`;
  } finally {
    await limiter.close();
  }
}

/** The audit log names the account by id (so its address is erased with it). */
function auditAccount(db: Db['kysely'], tenantCode: string, action: string, userId: string, now: number) {
  return recordAudit(db, cliActor, { tenant: tenantCode, action, target: { kind: 'user', id: userId } }, now);
}
