import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PartnerConfig, TenantConfig } from '@keycard/contract';
import type { Kysely } from 'kysely';
import { createUser, findUserByEmail } from '../../features/accounts/index.ts';
import {
  applyConfigurationPlan,
  clientMetadata,
  hasChanges,
  planConfiguration,
  readConfigurationFile,
  settingsPatchOf,
} from '../../features/configuration/index.ts';
import { savePartner } from '../../features/partners/index.ts';
import type { ClientMetadata, TenantSettings } from '../../features/tenants/index.ts';
import { type TenantDefinition, upsertTenant } from '../../features/tenants/index.ts';
import type { Database } from '../../platform/db/schema.ts';

/**
 * The demo (README, "Quick start"). Its tenants, themes, clients and partners are the
 * configuration file beside this one, applied at start-up by the same service as
 * `keycard apply`. Only what the format cannot say is here: the demo users with a known
 * password, and the demo clients' known secrets. None of it is for production
 * (SEED_DEMO is off there).
 */

/** The configuration file of the demo tenants (docs/configuration.md, "The demo seed"). */
export const demoConfigurationFile = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  'demo.keycard.yaml',
);

/** The demo users' password, printed in the README; demo only. */
export const demoPassword = 'Keycard-demo-1';
export const demoAppOrigin = 'http://localhost:3001';
/** examples/partner-app: the demo partner's issuer, key set and hand-off address are under it. */
export const partnerAppOrigin = 'http://localhost:3002';

/**
 * The demo clients' secrets, published in the README so the example apps work out of the box:
 * the environment the demo file's `secretEnv` names are read from. Demo only.
 */
export const demoClientSecretEnv: Readonly<Record<string, string>> = {
  DEMO_APP_SECRET: 'demo-app-secret',
  DEMO_PARTNER_APP_SECRET: 'demo-partner-app-secret',
};

/** One active demo user per tenant, signing in with demoPassword; not configuration. */
const demoUsers: Readonly<Record<string, string>> = {
  'grand-hotel': 'demo@grand-hotel.test',
  seaside: 'demo@seaside.test',
  summit: 'demo@summit.test',
};

const demoConfiguration = readConfigurationFile(demoConfigurationFile);

/** A client of the demo file as stored, with its demo secret. */
function demoClientMetadata(client: TenantConfig['clients'][number]): ClientMetadata {
  const metadata = clientMetadata(client, undefined);
  const secret = client.secretEnv ? demoClientSecretEnv[client.secretEnv] : undefined;
  return secret ? { ...metadata, client_secret: secret } : metadata;
}

const rebase = (uri: string, origin: string) =>
  uri.startsWith(partnerAppOrigin) ? `${origin}${uri.slice(partnerAppOrigin.length)}` : uri;

export type DemoTenant = TenantDefinition & {
  demoUser: string;
  settings?: Partial<TenantSettings>;
  partners?: PartnerConfig[];
};

/**
 * The demo file's tenants in the shape upsertTenant takes (clients with their demo secrets),
 * for tests that put a demo tenant back with other settings or clients.
 */
export const demoTenants: DemoTenant[] = demoConfiguration.tenants.map((tenant) => ({
  code: tenant.code,
  aliasCode: tenant.aliasCode,
  loginDomain: tenant.loginDomain,
  aliasDomains: tenant.aliasDomains,
  loginClientId: tenant.loginClientId,
  defaultRedirectUri: tenant.defaultRedirectUri,
  theme: tenant.theme,
  settings: settingsPatchOf(tenant.settings) as Partial<TenantSettings>,
  clients: tenant.clients.map(demoClientMetadata),
  partners: tenant.partners.map((partner) => ({
    ...partner,
    displayName: partner.displayName ?? partner.code,
  })),
  demoUser: demoUsers[tenant.code] ?? `demo@${tenant.code}.test`,
}));

/**
 * The demo partner app as partner `demo-partner` of a tenant; tests that run the app on another
 * port register it with their origin.
 */
export function demoPartner(origin = partnerAppOrigin): PartnerConfig {
  const partner = demoTenants
    .flatMap((tenant) => tenant.partners ?? [])
    .find((p) => p.code === 'demo-partner');
  if (!partner) throw new Error(`no partner demo-partner in ${demoConfigurationFile}`);
  return {
    ...partner,
    issuer: rebase(partner.issuer, origin),
    jwksUri: partner.jwksUri === null ? null : rebase(partner.jwksUri, origin),
    redirectUris: partner.redirectUris.map((uri) => rebase(uri, origin)),
  };
}

/**
 * The demo partner app's OIDC client: it has no browser flow of its own and only redeems
 * hand-off codes (token exchange), so the code's bound address must be one of its redirect URIs.
 */
export function demoPartnerClient(origin = partnerAppOrigin): ClientMetadata {
  const client = demoTenants
    .flatMap((tenant) => tenant.clients)
    .find((candidate) => candidate.client_id === 'demo-partner-app');
  if (!client) throw new Error(`no client demo-partner-app in ${demoConfigurationFile}`);
  return { ...client, redirect_uris: client.redirect_uris.map((uri) => rebase(uri, origin)) };
}

/**
 * The demo tenants, apps and users; safe to run on every start. The demo file is applied
 * through the configuration service, creating only what is missing: a restart changes nothing,
 * and what an operator changed on a demo tenant (settings, a partner, a client) stays.
 * `keycard apply -f` of the file puts the tenants back as the file says.
 */
export async function seedDemo(db: Kysely<Database>, now = Date.now()): Promise<void> {
  // Instances started together on one fresh database seed at once: a unique key lets one of
  // them create each row and refuses the others, which plan again and find the rows there.
  for (let attempt = 1; ; attempt++) {
    const plan = await planConfiguration(db, demoConfigurationFile, demoConfiguration, demoClientSecretEnv, {
      onlyMissing: true,
    });
    if (!hasChanges(plan)) break;
    try {
      await applyConfigurationPlan({ db }, plan, now);
      break;
    } catch (error) {
      if (attempt >= 5) throw error;
    }
  }
  for (const tenant of demoTenants) {
    if (await findUserByEmail(db, tenant.code, tenant.demoUser)) continue;
    try {
      await createUser(db, {
        tenantCode: tenant.code,
        email: tenant.demoUser,
        type: 'staff',
        locale: 'en',
        status: 'active',
        password: demoPassword,
        emailVerified: true,
      });
    } catch (error) {
      if (!(await findUserByEmail(db, tenant.code, tenant.demoUser))) throw error;
    }
  }
}

/**
 * Moves the demo partner app to another origin (tests run it on a free port): the partner's
 * issuer, key set and hand-off address follow, and its client accepts the new address beside
 * the default one. Only that client is written, so other clients' test addresses stay. Callers
 * drop their cached tenants and providers afterwards.
 */
export async function registerDemoPartnerApp(
  db: Kysely<Database>,
  origin: string,
  now: number,
): Promise<void> {
  const client = demoPartnerClient();
  for (const tenant of demoTenants.filter((candidate) => candidate.partners?.length)) {
    const stored = await db
      .selectFrom('tenants')
      .select('settings')
      .where('code', '=', tenant.code)
      .executeTakeFirstOrThrow();
    await upsertTenant(db, {
      ...tenant,
      settings: JSON.parse(stored.settings),
      clients: [{ ...client, redirect_uris: [...client.redirect_uris, `${origin}/handoff`] }],
    });
    await savePartner(db, tenant.code, demoPartner(origin), now);
  }
}
