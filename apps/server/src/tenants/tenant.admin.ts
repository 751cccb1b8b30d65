import type { Theme } from '@keycard/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { ClientMetadata, TenantSettings } from './tenant.types.ts';

export interface TenantDefinition {
  code: string;
  aliasCode?: string | null;
  loginDomain: string;
  aliasDomains?: string[];
  loginClientId: string;
  theme: Theme;
  defaultRedirectUri: string;
  settings?: Partial<TenantSettings>;
  clients: ClientMetadata[];
}

/** Creates or updates a tenant with its domains and clients (idempotent). */
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
      default_redirect_uri: def.defaultRedirectUri,
      settings: JSON.stringify(def.settings ?? {}),
    };
    await trx
      .insertInto('tenants')
      .values({ code: def.code, created_at: now, ...values })
      .onConflict((oc) => oc.column('code').doUpdateSet(values))
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
