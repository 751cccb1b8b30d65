import type { Engine } from '../../platform/db/database.ts';
import type { TestApp } from '../../test/helper.ts';
import { listeningTestApp } from '../../test/oidc.ts';
import {
  addClients,
  exchangeClientMetadata,
  manyRequests,
  type PartnerKey,
  partnerApp,
  partnerKey,
  registerPartner,
} from '../../test/partners.ts';

/** The app the partner sign-in API tests run against. */
export interface PartnerSsoApp {
  t: TestApp;
  origin: (tenant: string) => string;
  /** The key every test partner signs with. */
  key: PartnerKey;
}

/**
 * A listening app whose tenants grand-hotel and summit each have the four test partners —
 * linker (links verified addresses), provider (provisions), closed (existing links only) and
 * trusted (skipMfa) — and the partner app as a client.
 */
export async function startPartnerSsoApp(engine: Engine): Promise<PartnerSsoApp> {
  const { t, origin } = await listeningTestApp(engine, manyRequests);
  const key = await partnerKey('key-1');
  const jwks = { keys: [key.publicJwk as { kty: 'EC' }] };
  for (const tenant of ['grand-hotel', 'summit']) {
    await registerPartner(t, tenant, { code: 'linker', jwks });
    await registerPartner(t, tenant, { code: 'provider', jwks, linking: 'provision' });
    await registerPartner(t, tenant, { code: 'closed', jwks, linking: 'existing-only' });
    await registerPartner(t, tenant, { code: 'trusted', jwks, skipMfa: true });
    await addClients(t, tenant, [exchangeClientMetadata(partnerApp)]);
  }
  return { t, origin, key };
}

/** The issuer of the test partner `code`. */
export const partnerIssuer = (code: string) => `https://${code}.partner.test`;
