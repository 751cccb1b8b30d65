import type { AccountActivityResponse } from '@keycard/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';
import { listActivity } from '../accounts/index.ts';
import { type AccountCaller, assertAccountSession } from './access.ts';

/** GET /api/account/activity: the signed-in account's last 30 days, newest first, a page at a time. */
export async function accountActivity(
  db: Kysely<Database>,
  caller: AccountCaller,
  page: { cursor?: string | undefined; limit: number },
  now: number,
): Promise<AccountActivityResponse> {
  assertAccountSession(caller.signIn);
  return listActivity(
    db,
    { tenantCode: caller.tenant.code, userId: caller.signIn.user.id, cursor: page.cursor, limit: page.limit },
    now,
  );
}
