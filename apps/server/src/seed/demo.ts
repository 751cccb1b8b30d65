import { type PartnerConfig, type Theme, tokenExchange } from '@keycard/contract';
import type { Kysely } from 'kysely';
import { createUser, findUserByEmail } from '../accounts/user.repository.ts';
import type { Database } from '../db/schema.ts';
import { findPartner, savePartner } from '../partners/partner.repository.ts';
import { type TenantDefinition, upsertTenant } from '../tenants/tenant.admin.ts';
import type { TenantSettings } from '../tenants/tenant.types.ts';

export const demoPassword = 'Keycard-demo-1';
export const demoAppOrigin = 'http://localhost:3001';
/** examples/partner-app: the demo partner's issuer, key set and hand-off address are under it. */
export const partnerAppOrigin = 'http://localhost:3002';

const demoClient = {
  client_id: 'demo-app',
  client_secret: 'demo-app-secret',
  redirect_uris: [`${demoAppOrigin}/callback`],
  post_logout_redirect_uris: [`${demoAppOrigin}/`],
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  token_endpoint_auth_method: 'client_secret_basic',
};

/**
 * The demo partner app as partner `demo-partner` of a tenant; tests that run the app on another
 * port register it with their origin.
 */
export function demoPartner(origin = partnerAppOrigin): PartnerConfig {
  return {
    code: 'demo-partner',
    displayName: 'Demo partner booking app',
    issuer: origin,
    jwksUri: `${origin}/.well-known/jwks.json`,
    jwks: null,
    algorithms: ['ES256'],
    linking: 'link-verified-email',
    redirectUris: [`${origin}/handoff`],
    helpUrlTemplate: null,
    skipMfa: false,
  };
}

/**
 * The demo partner app's OIDC client: it has no browser flow of its own and only redeems
 * hand-off codes (token exchange), so the code's bound address must be one of its redirect URIs.
 */
export function demoPartnerClient(origin = partnerAppOrigin) {
  return {
    client_id: 'demo-partner-app',
    client_secret: 'demo-partner-app-secret',
    redirect_uris: [`${origin}/handoff`],
    response_types: [],
    grant_types: [tokenExchange.grantType],
    token_endpoint_auth_method: 'client_secret_basic',
  };
}

function theme(name: string, slug: string, colours: Theme['colours'], help: string): Theme {
  return {
    name,
    images: { favicon: `/brand/${slug}-favicon.svg`, logo: `/brand/${slug}-logo.svg` },
    colours,
    links: { loginHelpUrl: `${help}/login-help`, contactSupportUrl: `${help}/support` },
  };
}

export type DemoTenant = TenantDefinition & {
  demoUser: string;
  settings?: Partial<TenantSettings>;
  partners?: PartnerConfig[];
};

export const demoTenants: DemoTenant[] = [
  {
    code: 'grand-hotel',
    aliasCode: 'gh',
    loginDomain: 'grand-hotel.localhost',
    aliasDomains: ['localhost'],
    loginClientId: 'demo-app',
    defaultRedirectUri: `${demoAppOrigin}/`,
    theme: theme(
      'Grand Hotel Group',
      'grand-hotel',
      {
        primaryBackground: '#1f3a5f',
        primaryForeground: '#ffffff',
        secondaryBackground: '#f5efe6',
        secondaryForeground: '#1a1a1a',
        tertiaryBackground: '#7a5c2e',
        tertiaryForeground: '#ffffff',
      },
      'https://help.grand-hotel.example',
    ),
    clients: [demoClient, demoPartnerClient()],
    partners: [demoPartner()],
    demoUser: 'demo@grand-hotel.test',
  },
  {
    code: 'seaside',
    aliasCode: 'sea',
    loginDomain: 'seaside.localhost',
    loginClientId: 'demo-app',
    defaultRedirectUri: `${demoAppOrigin}/`,
    theme: theme(
      'Seaside Resorts',
      'seaside',
      {
        primaryBackground: '#006d77',
        primaryForeground: '#ffffff',
        secondaryBackground: '#e6f4f1',
        secondaryForeground: '#0b2e33',
        tertiaryBackground: '#9c3d1a',
        tertiaryForeground: '#ffffff',
      },
      'https://help.seaside.example',
    ),
    clients: [demoClient],
    demoUser: 'demo@seaside.test',
  },
  {
    // MFA required: its demo user registers a second factor at the first sign-in.
    code: 'summit',
    aliasCode: 'sum',
    loginDomain: 'summit.localhost',
    loginClientId: 'demo-app',
    defaultRedirectUri: `${demoAppOrigin}/`,
    theme: theme(
      'Summit',
      'summit',
      {
        primaryBackground: '#233d2e',
        primaryForeground: '#ffffff',
        secondaryBackground: '#eef2ec',
        secondaryForeground: '#14241a',
        tertiaryBackground: '#8c3b12',
        tertiaryForeground: '#ffffff',
      },
      'https://help.summit.example',
    ),
    settings: {
      mfa: {
        mode: 'required',
        mandatoryFrom: null,
        trustedDeviceDays: 60,
        methods: ['totp', 'sms', 'voice', 'smmobile'],
      },
    },
    clients: [demoClient, demoPartnerClient()],
    partners: [demoPartner()],
    demoUser: 'demo@summit.test',
  },
];

/** The demo tenants, apps and users; safe to run on every start. */
export async function seedDemo(db: Kysely<Database>): Promise<void> {
  for (const tenant of demoTenants) {
    // Settings an operator changed on a demo tenant (keycard tenant-settings) survive restarts.
    const existing = await db
      .selectFrom('tenants')
      .select('settings')
      .where('code', '=', tenant.code)
      .executeTakeFirst();
    await upsertTenant(db, existing ? { ...tenant, settings: JSON.parse(existing.settings) } : tenant);
    if (!(await findUserByEmail(db, tenant.code, tenant.demoUser))) {
      await createUser(db, {
        tenantCode: tenant.code,
        email: tenant.demoUser,
        type: 'staff',
        locale: 'en',
        status: 'active',
        password: demoPassword,
        emailVerified: true,
      });
    }
    // Created once: a partner an operator changed (keycard partners update) survives restarts.
    for (const partner of tenant.partners ?? []) {
      if (!(await findPartner(db, tenant.code, partner.code))) {
        await savePartner(db, tenant.code, partner, Date.now());
      }
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
