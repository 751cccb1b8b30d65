import { adminErrors } from '@keycard/contract';
import type { Kysely } from 'kysely';
import type { AuditActor } from '../../platform/audit/audit.service.ts';
import type { Config } from '../../platform/config.ts';
import type { Engine } from '../../platform/db/database.ts';
import type { Database } from '../../platform/db/schema.ts';
import type { RateLimiter } from '../../platform/security/rate-limiter.ts';
import { AppError } from '../../platform/shared/errors.ts';
import type { TenantDirectory } from '../tenants/index.ts';

/**
 * What the admin API does (docs/admin-api.md), without HTTP, one module per resource:
 * `tenants.service.ts`, `clients.service.ts`, `users.service.ts`, `partners.service.ts`,
 * `signing-keys.service.ts`. Tenant, domain, theme, settings and client changes go through the
 * same planner as `keycard apply` (the same checks, the same diff in the audit log, the
 * tenant's version raised so every instance applies the change within about a second); user
 * actions reuse the account services.
 *
 * Every admin service takes these dependencies.
 */
export interface AdminDeps {
  db: Kysely<Database>;
  engine: Engine;
  /** Seals new signing keys. */
  encryptionKey: Buffer;
  config: Config;
  tenants: TenantDirectory;
  limiter: RateLimiter;
  actor: AuditActor;
  now: number;
}

export type TenantRow = Database['tenants'];

/** The tenant's row; admin.tenant_not_found for an unknown code. */
export async function tenantRow(db: Kysely<Database>, code: string): Promise<TenantRow> {
  const row = await db.selectFrom('tenants').selectAll().where('code', '=', code).executeTakeFirst();
  if (!row) throw new AppError(adminErrors.tenantNotFound);
  return row;
}
