import { operatorTenantCode } from '@keycard/contract';
import type { Kysely } from 'kysely';
import { type AuditActor, recordAudit } from '../../platform/audit/audit.service.ts';
import { type Config, publicOrigin } from '../../platform/config.ts';
import type { Database } from '../../platform/db/schema.ts';
import { applyConfigurationPlan, planConfiguration } from '../configuration/index.ts';
import { raiseTenantVersion } from '../tenants/index.ts';

/**
 * The operator tenant (docs/admin-api.md#operators), served on ADMIN_DOMAIN: operators sign in
 * there, to the admin console, its public client. Created when the first operator is, and
 * brought up to date at every start.
 */

/** The admin console's client in the operator tenant. */
export const consoleClientId = 'keycard-console';

/** The admin API's address, the audience of its access tokens. */
export function adminResource(config: Config): string {
  return `${publicOrigin(config, config.adminDomain)}/admin/api`;
}

/** Where the console lives on the operator host: its start page and its sign-in callback. */
function consoleAddresses(config: Config): { home: string; callback: string } {
  const origin = publicOrigin(config, config.adminDomain);
  return { home: `${origin}/console/`, callback: `${origin}/console/callback` };
}

/**
 * Brings an operator tenant made by an earlier version up to date: it sent operators to the
 * host's root (the portal, not the console) after signing out and by default. Only the old
 * default is replaced, so an address an owner chose stays; run by create-owner, by the other
 * operator commands and at every start, idempotent and safe on several instances at once
 * (each update applies only to the old value, and only the instance that changed it writes
 * the audit entry). Answers whether anything changed.
 */
export async function repairOperatorTenant(
  deps: { db: Kysely<Database>; config: Config; actor: AuditActor },
  now: number,
): Promise<boolean> {
  const rootAddress = `${publicOrigin(deps.config, deps.config.adminDomain)}/`;
  const { home } = consoleAddresses(deps.config);
  return deps.db.transaction().execute(async (trx) => {
    let changed = false;
    const tenant = await trx
      .updateTable('tenants')
      .set({ default_redirect_uri: home })
      .where('code', '=', operatorTenantCode)
      .where('default_redirect_uri', '=', rootAddress)
      .executeTakeFirst();
    if (Number(tenant.numUpdatedRows) > 0) {
      changed = true;
      await recordAudit(
        trx,
        deps.actor,
        {
          tenant: operatorTenantCode,
          action: 'tenant.update',
          target: { kind: 'tenant', id: operatorTenantCode },
          before: { defaultRedirectUri: rootAddress },
          after: { defaultRedirectUri: home },
        },
        now,
      );
    }
    const client = await trx
      .selectFrom('oidc_clients')
      .select('metadata')
      .where('tenant_code', '=', operatorTenantCode)
      .where('client_id', '=', consoleClientId)
      .executeTakeFirst();
    const metadata = client
      ? (JSON.parse(client.metadata) as { post_logout_redirect_uris?: string[] })
      : null;
    const old = metadata?.post_logout_redirect_uris;
    if (client && old?.length === 1 && old[0] === rootAddress) {
      const updated = await trx
        .updateTable('oidc_clients')
        .set({ metadata: JSON.stringify({ ...metadata, post_logout_redirect_uris: [home] }) })
        .where('tenant_code', '=', operatorTenantCode)
        .where('client_id', '=', consoleClientId)
        .where('metadata', '=', client.metadata)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) > 0) {
        changed = true;
        await recordAudit(
          trx,
          deps.actor,
          {
            tenant: operatorTenantCode,
            action: 'client.update',
            target: { kind: 'client', id: consoleClientId },
            before: { postLogoutRedirectUris: [rootAddress] },
            after: { postLogoutRedirectUris: [home] },
          },
          now,
        );
      }
    }
    // Every instance drops its cached provider for the operator tenant within a second.
    if (changed) {
      await raiseTenantVersion(trx, operatorTenantCode);
    }
    return changed;
  });
}

/**
 * Creates the operator tenant on ADMIN_DOMAIN if it is missing: MFA required, a public client
 * for the console (code + PKCE). Answers whether it was created.
 */
export async function ensureOperatorTenant(
  deps: { db: Kysely<Database>; config: Config; actor: AuditActor },
  now: number,
): Promise<boolean> {
  const { db, config } = deps;
  const exists = await db
    .selectFrom('tenants')
    .select('code')
    .where('code', '=', operatorTenantCode)
    .executeTakeFirst();
  if (exists) {
    await repairOperatorTenant(deps, now);
    return false;
  }
  const addresses = consoleAddresses(config);
  const plan = await planConfiguration(
    db,
    'operator tenant',
    {
      tenants: [
        {
          code: operatorTenantCode,
          aliasCode: null,
          loginDomain: config.adminDomain,
          aliasDomains: [],
          defaultRedirectUri: addresses.home,
          loginClientId: consoleClientId,
          theme: {
            name: 'Keycard operators',
            images: { logo: '', favicon: '' },
            colours: {
              primaryBackground: '#1f2937',
              primaryForeground: '#ffffff',
              secondaryBackground: '#f3f4f6',
              secondaryForeground: '#111827',
              tertiaryBackground: '#1d4ed8',
              tertiaryForeground: '#ffffff',
            },
            links: { loginHelpUrl: null, contactSupportUrl: null },
          },
          // Operators prove a second factor daily, and with an app (an authenticator or the
          // mobile app), not a text or call a SIM swap can take over.
          settings: {
            mfa: {
              mode: 'required',
              mandatoryFrom: null,
              trustedDeviceDays: 1,
              methods: ['totp', 'smmobile'],
            },
          },
          clients: [
            {
              clientId: consoleClientId,
              redirectUris: [addresses.callback],
              postLogoutRedirectUris: [addresses.home],
              // No refresh token for a public client: it would outlive the operators' MFA.
              grantTypes: ['authorization_code'],
              authMethod: 'none',
            },
          ],
          partners: [],
          invitations: [],
        },
      ],
    },
    {},
  );
  await applyConfigurationPlan({ db, config, actor: deps.actor }, plan, now);
  return true;
}
