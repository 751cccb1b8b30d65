import type { Theme } from '@keycard/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';
import type { ClientMetadata, TenantSettings } from './tenant.types.ts';
import { nextTenantVersion } from './tenant-version.ts';

export interface TenantDefinition {
  code: string;
  aliasCode?: string | null;
  loginDomain: string;
  aliasDomains?: string[];
  loginClientId: string;
  theme: Theme;
  /** None (or ''): a sign-in no app asked for ends on the tenant's signed-in page. */
  defaultRedirectUri?: string;
  settings?: Partial<TenantSettings>;
  clients: ClientMetadata[];
}

/**
 * Creates or updates a tenant with its domains and clients (idempotent). Raises the tenant's
 * version, so every running instance drops what it cached of it within about a second.
 */
export async function upsertTenant(
  db: Kysely<Database>,
  def: TenantDefinition,
  now = Date.now(),
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const values = {
      alias_code: def.aliasCode ?? null,
      login_domain: def.loginDomain,
      login_client_id: def.loginClientId,
      theme: JSON.stringify(def.theme),
      default_redirect_uri: def.defaultRedirectUri ?? '',
      settings: JSON.stringify(def.settings ?? {}),
    };
    await trx
      .insertInto('tenants')
      .values({ code: def.code, created_at: now, version: 1, ...values })
      .onConflict((oc) => oc.column('code').doUpdateSet({ ...values, version: nextTenantVersion() }))
      .execute();
    for (const domain of [def.loginDomain, ...(def.aliasDomains ?? [])]) {
      await trx
        .insertInto('tenant_domains')
        .values({ domain, tenant_code: def.code })
        .onConflict((oc) => oc.column('domain').doUpdateSet({ tenant_code: def.code }))
        .execute();
    }
    for (const client of def.clients) {
      await trx
        .insertInto('oidc_clients')
        .values({
          tenant_code: def.code,
          client_id: client.client_id,
          metadata: JSON.stringify(client),
          created_at: now,
        })
        .onConflict((oc) =>
          oc.columns(['tenant_code', 'client_id']).doUpdateSet({ metadata: JSON.stringify(client) }),
        )
        .execute();
    }
  });
}

/**
 * Merges a patch into a tenant's stored settings (an object value is merged into the object
 * it replaces, one level deep, so `{ captcha: { siteKey } }` keeps the secret). Answers the
 * stored settings after the change, or null for an unknown tenant. The tenant's version is
 * raised in the same statement: running instances apply the change within about a second
 * (TenantDirectory polls the versions), and security decisions use it from then on.
 */
export async function updateTenantSettings(
  db: Kysely<Database>,
  code: string,
  patch: Record<string, unknown>,
): Promise<Record<string, unknown> | null> {
  const isObject = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value);
  // Optimistic: the merge is written only over the version it was made from, so two
  // concurrent changes cannot lose one another; the loser merges again.
  for (;;) {
    const row = await db
      .selectFrom('tenants')
      .select(['settings', 'version'])
      .where('code', '=', code)
      .executeTakeFirst();
    if (!row) return null;
    const current = JSON.parse(row.settings) as Record<string, unknown>;
    const next = { ...current };
    for (const [key, value] of Object.entries(patch)) {
      const before = current[key];
      next[key] = isObject(value) && isObject(before) ? { ...before, ...value } : value;
    }
    const written = await db
      .updateTable('tenants')
      .set({ settings: JSON.stringify(next), version: nextTenantVersion() })
      .where('code', '=', code)
      .where('version', '=', row.version)
      .executeTakeFirst();
    if (Number(written.numUpdatedRows) === 1) return next;
  }
}
