/** Every console address, typed once (under /console/, where the server serves the console). */
export const consolePaths = {
  home: '/console/',
  callback: '/console/callback',
  newTenant: '/console/new-tenant',
  tenant: '/console/tenants/:code/:section?',
  audit: '/console/audit',
  operators: '/console/operators',
} as const;

export const tenantSections = [
  'overview',
  'theme',
  'clients',
  'partners',
  'users',
  'settings',
  'keys',
] as const;
export type TenantSection = (typeof tenantSections)[number];

export function tenantPath(code: string, section: TenantSection = 'overview'): string {
  return `/console/tenants/${encodeURIComponent(code)}/${section}`;
}
