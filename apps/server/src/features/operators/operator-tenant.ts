import { operatorTenantCode } from '@keycard/contract';
import type { Kysely } from 'kysely';
import { type AuditActor, recordAudit } from '../../platform/audit/audit.service.ts';
import { type Config, publicOrigin } from '../../platform/config.ts';
import type { Database } from '../../platform/db/schema.ts';
import { applyConfigurationPlan, planConfiguration } from '../configuration/index.ts';
import { raiseTenantVersion } from '../tenants/index.ts';
import { recordServerOrigin } from './server-origin.ts';

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
 * The console's address an operator tenant should have in place of `address`, or null when
 * `address` is right or not the console's: an address on the operator host that differs only in
 * scheme or port (a CLI run without the server's PORT wrote another), and, for the start page,
 * the host's root that an earlier version wrote.
 */
function consoleAddressFor(config: Config, address: string, kind: 'home' | 'callback'): string | null {
  const wanted = consoleAddresses(config)[kind];
  if (address === wanted) return null;
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return null;
  }
  if (url.hostname !== config.adminDomain || url.search || url.hash) return null;
  const paths = kind === 'home' ? ['/', '/console/'] : ['/console/callback'];
  return paths.includes(url.pathname) ? wanted : null;
}

/**
 * Brings the operator tenant's console addresses in line with the origin the operator host is
 * served on: its default redirect, the console client's redirect and post-logout URIs. An
 * address another origin's port or scheme wrote (create-owner run without the server's PORT),
 * or the host's root an earlier version wrote, is replaced; an address an owner chose for
 * anything else stays. Run by the operator commands (with the origin they chose, see
 * server-origin.ts) and at every start of the server; idempotent and safe on several instances
 * at once (each update applies only to the value read, and only the instance that changed it
 * writes the audit entry). Answers whether anything changed.
 */
async function alignOperatorTenant(
  deps: { db: Kysely<Database>; config: Config; actor: AuditActor },
  now: number,
): Promise<boolean> {
  const { home } = consoleAddresses(deps.config);
  return deps.db.transaction().execute(async (trx) => {
    let changed = false;
    const row = await trx
      .selectFrom('tenants')
      .select('default_redirect_uri')
      .where('code', '=', operatorTenantCode)
      .executeTakeFirst();
    if (!row) return false;
    if (consoleAddressFor(deps.config, row.default_redirect_uri, 'home') !== null) {
      const tenant = await trx
        .updateTable('tenants')
        .set({ default_redirect_uri: home })
        .where('code', '=', operatorTenantCode)
        .where('default_redirect_uri', '=', row.default_redirect_uri)
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
            before: { defaultRedirectUri: row.default_redirect_uri },
            after: { defaultRedirectUri: home },
          },
          now,
        );
      }
    }
    const client = await trx
      .selectFrom('oidc_clients')
      .select('metadata')
      .where('tenant_code', '=', operatorTenantCode)
      .where('client_id', '=', consoleClientId)
      .executeTakeFirst();
    if (client) {
      const metadata = JSON.parse(client.metadata) as {
        redirect_uris?: string[];
        post_logout_redirect_uris?: string[];
      };
      const align = (list: string[] | undefined, kind: 'home' | 'callback') => {
        const next = (list ?? []).map((address) => consoleAddressFor(deps.config, address, kind) ?? address);
        return [...new Set(next)];
      };
      const before = {
        redirectUris: metadata.redirect_uris ?? [],
        postLogoutRedirectUris: metadata.post_logout_redirect_uris ?? [],
      };
      const after = {
        redirectUris: align(metadata.redirect_uris, 'callback'),
        postLogoutRedirectUris: align(metadata.post_logout_redirect_uris, 'home'),
      };
      if (JSON.stringify(before) !== JSON.stringify(after)) {
        const updated = await trx
          .updateTable('oidc_clients')
          .set({
            metadata: JSON.stringify({
              ...metadata,
              redirect_uris: after.redirectUris,
              post_logout_redirect_uris: after.postLogoutRedirectUris,
            }),
          })
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
              before,
              after,
            },
            now,
          );
        }
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
 * At every start of the server: records the origin it serves the operator host on (for the
 * CLI, server-origin.ts) and aligns the operator tenant's console addresses with it.
 */
export async function repairOperatorTenant(
  deps: { db: Kysely<Database>; config: Config; actor: AuditActor },
  now: number,
): Promise<boolean> {
  await recordServerOrigin(deps.config, now);
  return alignOperatorTenant(deps, now);
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
    await alignOperatorTenant(deps, now);
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
