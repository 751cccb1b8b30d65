export interface DemoTenant {
  /** Keycard tenant code; also the `<slug>.localhost` sub-domain. */
  slug: string;
  /** Theme name shown on the sign-in buttons. */
  name: string;
}

/** Tenants the demo knows the theme name of; add a line here to offer another one. */
export const knownTenants: readonly DemoTenant[] = [
  { slug: 'grand-hotel', name: 'Grand Hotel Group' },
  { slug: 'seaside', name: 'Seaside Resorts' },
  { slug: 'summit', name: 'Summit' },
];

export const defaultTenantSlugs: readonly string[] = knownTenants.map((tenant) => tenant.slug);

const slugPattern = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** Parses a comma-separated list such as `DEMO_TENANTS`; an empty or missing value means the defaults. */
export function parseTenantSlugs(value: string | undefined): string[] {
  const slugs = (value ?? '')
    .split(',')
    .map((slug) => slug.trim().toLowerCase())
    .filter((slug) => slug !== '');
  if (slugs.length === 0) return [...defaultTenantSlugs];
  const invalid = slugs.filter((slug) => !slugPattern.test(slug));
  if (invalid.length > 0) throw new Error(`Invalid tenant slug(s): ${invalid.join(', ')}`);
  return [...new Set(slugs)];
}

/** The known tenant, or one named after its slug so an extra `DEMO_TENANTS` entry still works. */
export function describeTenant(slug: string): DemoTenant {
  const known = knownTenants.find((tenant) => tenant.slug === slug);
  if (known) return known;
  const name = slug
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
  return { slug, name };
}

export function buildIssuerUrl(slug: string, scheme: 'http' | 'https', port: number): URL {
  return new URL(`${scheme}://${slug}.localhost:${port}/oidc`);
}
