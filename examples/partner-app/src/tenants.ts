/** A booking-app user as the partner knows them; the e-mail is the hotel's demo user (demo seed). */
export interface PartnerUser {
  /** The partner's own, stable id for the user: Keycard links it to an account once. */
  sub: string;
  email: string;
  givenName: string;
  familyName: string;
  locale: string;
}

export interface PartnerTenant {
  /** Keycard tenant code; also the `<slug>.localhost` sub-domain. */
  slug: string;
  /** Theme name shown on the page. */
  name: string;
  user: PartnerUser;
}

/** The hotels the demo seed registers this app with, as partner `demo-partner`. */
export const knownTenants: readonly PartnerTenant[] = [
  {
    slug: 'grand-hotel',
    name: 'Grand Hotel Group',
    user: {
      sub: 'booker-1001',
      email: 'demo@grand-hotel.test',
      givenName: 'Dana',
      familyName: 'Demo',
      locale: 'en',
    },
  },
  {
    slug: 'summit',
    name: 'Summit',
    user: {
      sub: 'booker-1002',
      email: 'demo@summit.test',
      givenName: 'Sam',
      familyName: 'Summit',
      locale: 'en',
    },
  },
];

export const defaultTenantSlugs: readonly string[] = knownTenants.map((tenant) => tenant.slug);

export function findTenant(slug: string): PartnerTenant | undefined {
  return knownTenants.find((tenant) => tenant.slug === slug);
}

/** The tenant's public origin, e.g. http://grand-hotel.localhost:3000. */
export function buildTenantOrigin(slug: string, scheme: 'http' | 'https', port: number): string {
  const defaultPort = scheme === 'https' ? 443 : 80;
  return `${scheme}://${slug}.localhost${port === defaultPort ? '' : `:${port}`}`;
}
