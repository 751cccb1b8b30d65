import { randomUUID } from 'node:crypto';
import { errorCodes } from '@keycard/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';
import { AppError } from '../../platform/shared/errors.ts';

const leaseMs = 30_000;
const leaseWaitMs = 10_000;

/**
 * Runs `change` while this request holds the tenant's change lease, so two changes to one
 * tenant never interleave (the planner reads the tenant, then writes it whole: interleaved, a
 * theme change could put back settings another request had just changed). The lease is a row
 * only one insert can create, on every instance; one left by a crashed process expires.
 */
export async function withTenantLease<T>(
  db: Kysely<Database>,
  code: string,
  change: () => Promise<T>,
): Promise<T> {
  const holder = randomUUID();
  const deadline = Date.now() + leaseWaitMs;
  for (let attempt = 0; ; attempt++) {
    const now = Date.now();
    await db
      .deleteFrom('tenant_change_leases')
      .where('tenant_code', '=', code)
      .where('expires_at', '<', now)
      .execute();
    const taken = await db
      .insertInto('tenant_change_leases')
      .values({ tenant_code: code, holder, expires_at: now + leaseMs })
      .onConflict((oc) => oc.column('tenant_code').doNothing())
      .executeTakeFirst();
    if (Number(taken.numInsertedOrUpdatedRows ?? 0) === 1) break;
    if (now > deadline) throw new AppError(errorCodes.unavailable);
    await new Promise((resolve) => setTimeout(resolve, Math.min(200, 5 + attempt * 10)));
  }
  try {
    return await change();
  } finally {
    await db
      .deleteFrom('tenant_change_leases')
      .where('tenant_code', '=', code)
      .where('holder', '=', holder)
      .execute();
  }
}
