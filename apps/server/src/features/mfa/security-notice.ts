import type { AccountFactorKind } from '@keycard/contract';
import type { Kysely } from 'kysely';
import type { Config } from '../../platform/config.ts';
import type { Database } from '../../platform/db/schema.ts';
import { recordActivity, sendSecurityMail, type UserRow } from '../accounts/index.ts';
import type { TenantContext } from '../tenants/index.ts';

/** The request an MFA change came from: its host, browser (User-Agent) and address. */
export interface MfaSeen {
  host: string;
  userAgent?: string | undefined;
  ip?: string | undefined;
}

/** The account page's name of a factor type. */
function factorKindOf(type: string): AccountFactorKind {
  if (type === 'totp') return 'authenticator-app';
  if (type === 'smmobile') return 'mobile-app';
  return 'phone';
}

/**
 * Tells the account's owner of a change to its factors (issue 18): a security mail and an
 * entry of the recent activity, in the change's transaction, so they exist if and only if it
 * does. Kick the outbox after the commit (kickOutbox).
 */
export async function tellOwner(
  trx: Kysely<Database>,
  deps: { config: Config; seen: MfaSeen },
  tenant: TenantContext,
  user: Pick<UserRow, 'id' | 'email' | 'locale'>,
  change:
    | { event: 'factor-added' | 'factor-removed'; factorType: string }
    | { event: 'recovery-codes-renewed' },
  now: number,
): Promise<void> {
  const factor = 'factorType' in change ? factorKindOf(change.factorType) : undefined;
  const seen = { userAgent: deps.seen.userAgent, ip: deps.seen.ip };
  await recordActivity(
    trx,
    {
      tenantCode: tenant.code,
      userId: user.id,
      kind: change.event,
      ...seen,
      detail: factor ? { factor } : {},
    },
    now,
  );
  await sendSecurityMail(trx, deps.config, { tenant, user, event: change.event, factor, ...seen }, now);
}

/** Delivers what tellOwner enqueued, once its transaction committed. */
export function kickOutbox(deps: { outbox: object }): void {
  const { outbox } = deps;
  if ('kick' in outbox && typeof outbox.kick === 'function') {
    void Promise.resolve(outbox.kick()).catch(() => undefined);
  }
}
