import { accountErrors } from '@keycard/contract';
import type { Kysely } from 'kysely';
import type { Config } from '../../platform/config.ts';
import type { Database } from '../../platform/db/schema.ts';
import { AppError } from '../../platform/shared/errors.ts';
import { endUserAccess } from '../sessions/index.ts';
import type { TenantContext } from '../tenants/index.ts';
import { recordActivity } from './activity.ts';
import { hashPassword } from './password.service.ts';
import { assertPasswordAllowed, recordPasswordHistory } from './password-policy.ts';
import { sendSecurityMail } from './security-mail.ts';
import type { UserRow } from './user.repository.ts';

export interface PasswordChange {
  newPassword: string;
  /** The session that changes it: it stays signed in, every other one ends. */
  keepSessionId: string;
  /** The known browser that changes it, if any: its lockout lane stays its own. */
  keepBrowserId?: string | null | undefined;
  userAgent?: string | undefined;
  ip?: string | undefined;
}

/**
 * A signed-in owner's new password (the account page, the expired-password page), once the
 * caller has checked the current one: the same rules as activation and reset (format, leak
 * list, not one of the last four), then in one transaction the password is stored only if it is
 * still the one that was checked — of two changes racing with the same current password exactly
 * one wins, the other is told the current password is wrong — its history kept, every other
 * session, grant and code of the account ended (invariant 7), and the owner told by mail and in
 * the recent activity.
 */
export async function changePassword(
  db: Kysely<Database>,
  config: Config,
  tenant: TenantContext,
  user: UserRow,
  change: PasswordChange,
  now: number,
): Promise<{ changedAt: number; endedSessions: number }> {
  const checkedHash = user.password_hash;
  if (!checkedHash) throw new AppError(accountErrors.currentPasswordInvalid);
  await assertPasswordAllowed(db, user, change.newPassword);
  const passwordHash = await hashPassword(change.newPassword);
  const endedSessions = await db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('users')
      .set({ password_hash: passwordHash, password_changed_at: now, updated_at: now })
      .where('id', '=', user.id)
      .where('tenant_code', '=', tenant.code)
      .where('status', '=', 'active')
      .where('password_hash', '=', checkedHash)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw new AppError(accountErrors.currentPasswordInvalid);
    await recordPasswordHistory(trx, user.id, passwordHash, now);
    const ended = await endUserAccess(
      trx,
      {
        tenantCode: tenant.code,
        userId: user.id,
        keepSessionId: change.keepSessionId,
        keepBrowserId: change.keepBrowserId ?? null,
      },
      now,
    );
    // The password was just proven in this session: it counts as a recent sign-in again.
    await trx
      .updateTable('sessions')
      .set({ reauthenticated_at: now })
      .where('id', '=', change.keepSessionId)
      .where('tenant_code', '=', tenant.code)
      .execute();
    const seen = { userAgent: change.userAgent, ip: change.ip };
    await recordActivity(
      trx,
      { tenantCode: tenant.code, userId: user.id, kind: 'password-changed', ...seen },
      now,
    );
    await sendSecurityMail(trx, config, { tenant, user, event: 'password-changed', ...seen }, now);
    return ended.endedSessions;
  });
  return { changedAt: now, endedSessions };
}
