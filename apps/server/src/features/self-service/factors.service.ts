import { accountAuditActions, accountErrors } from '@keycard/contract';
import type { Kysely } from 'kysely';
import { recordAudit, systemActor } from '../../platform/audit/audit.service.ts';
import type { Config } from '../../platform/config.ts';
import type { Database } from '../../platform/db/schema.ts';
import { AppError } from '../../platform/shared/errors.ts';
import { lockAccount, recordActivity, sendSecurityMail } from '../accounts/index.ts';
import { removeUserFactors } from '../mfa/index.ts';
import { countCredentials } from '../passkeys/index.ts';
import { type AccountCaller, assertAccountSession, assertRecentSignIn } from './access.ts';
import { activeFactors, factorKindOf, mayRemoveFactor } from './overview.service.ts';

/**
 * DELETE /api/account/factors/:id: removes the authenticator app, phone or mobile app, as the
 * tenant's policy allows: not the last factor of a 'required' tenant's account (passkeys count
 * as factors; account.factor_required). Like an MFA reset it takes the recovery codes, trusted
 * browsers and the partner app with it and ends every other session and grant (invariant 7);
 * the owner is told by mail and in the recent activity.
 */
export async function removeAccountFactor(
  deps: { db: Kysely<Database>; config: Config },
  caller: AccountCaller,
  factorId: string,
  now: number,
): Promise<void> {
  const { db, config } = deps;
  const { tenant, signIn } = caller;
  assertAccountSession(signIn);
  assertRecentSignIn(signIn, now);
  const who = { tenantCode: tenant.code, userId: signIn.user.id };
  await db.transaction().execute(async (trx) => {
    await lockAccount(trx, who.tenantCode, who.userId);
    const factors = await activeFactors(trx, who.tenantCode, who.userId);
    const factor = factors.find((candidate) => candidate.id === factorId);
    if (!factor) throw new AppError(accountErrors.notFound);
    const passkeys = await countCredentials(trx, who.tenantCode, who.userId);
    if (!mayRemoveFactor(tenant, { factors: factors.length, passkeys }, now)) {
      throw new AppError(accountErrors.factorRequired);
    }
    await removeUserFactors(trx, { ...who, keepSessionId: signIn.session.id }, now);
    const kind = factorKindOf(factor.type);
    const seen = { userAgent: caller.userAgent, ip: caller.ip };
    await recordActivity(trx, { ...who, kind: 'factor-removed', ...seen, detail: { factor: kind } }, now);
    await sendSecurityMail(
      trx,
      config,
      { tenant, user: signIn.user, event: 'factor-removed', factor: kind, ...seen },
      now,
    );
    await recordAudit(
      trx,
      systemActor,
      {
        tenant: tenant.code,
        action: accountAuditActions.factorRemoved,
        target: { kind: 'user', id: who.userId },
        before: { factor: factor.type },
      },
      now,
    );
  });
}
