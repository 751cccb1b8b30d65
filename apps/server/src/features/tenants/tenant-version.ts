import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';

/**
 * How a change reaches every instance (docs/architecture.md, "One decision"): tenants are
 * cached per process without a time-to-live, and every instance polls the tenants' versions
 * each second, dropping the tenant and its provider when its version moved
 * (`TenantDirectory`). So every change to a tenant, its domains, clients, keys or settings
 * raises the version, in the transaction of the change, through this module only.
 */

/** The tenant's next version, for a statement that also writes the tenant's own row. */
export function nextTenantVersion(): RawBuilder<number> {
  return sql<number>`tenants.version + 1`;
}

/** Raises a tenant's version after a change to what hangs off it (clients, keys, domains). */
export async function raiseTenantVersion(db: Kysely<Database>, tenantCode: string): Promise<void> {
  await db
    .updateTable('tenants')
    .set({ version: nextTenantVersion() })
    .where('code', '=', tenantCode)
    .execute();
}
