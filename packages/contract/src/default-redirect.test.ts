import { describe, expect, it } from 'vitest';
import { adminTenantCreateRequest, adminTenantPatchRequest } from './admin.ts';
import { configurationJsonSchema, defaultRedirectUriSchema, tenantConfigSchema } from './configuration.ts';

const tenant = {
  code: 'lakeside',
  loginDomain: 'lakeside.example',
  loginClientId: 'lakeside-app',
  theme: {
    name: 'Lakeside',
    images: { logo: '', favicon: '' },
    colours: {
      primaryBackground: '#1f3a5f',
      primaryForeground: '#ffffff',
      secondaryBackground: '#f5f7fa',
      secondaryForeground: '#1a1a1a',
      tertiaryBackground: '#1d4ed8',
      tertiaryForeground: '#ffffff',
    },
    links: { loginHelpUrl: null, contactSupportUrl: null },
  },
};

type SchemaNode = { properties?: Record<string, unknown>; required?: string[] };

/** The first object in a JSON Schema that `matches`, depth first. */
function findObject(node: unknown, matches: (node: SchemaNode) => boolean): SchemaNode | null {
  if (node === null || typeof node !== 'object') return null;
  if (matches(node as SchemaNode)) return node as SchemaNode;
  for (const child of Object.values(node)) {
    const found = findObject(child, matches);
    if (found) return found;
  }
  return null;
}

/** Issue 19, item 13: a tenant's default redirect is optional; when given it is a safe target. */
describe("a tenant's default redirect", () => {
  it('may be left out or empty in a file, the admin API and a patch', () => {
    expect(tenantConfigSchema.safeParse(tenant).success).toBe(true);
    expect(tenantConfigSchema.safeParse({ ...tenant, defaultRedirectUri: '' }).success).toBe(true);
    const create = { ...tenant, clients: [{ clientId: 'lakeside-app', redirectUris: [] }] };
    expect(adminTenantCreateRequest.safeParse(create).success).toBe(true);
    for (const cleared of [null, '']) {
      expect(adminTenantPatchRequest.safeParse({ defaultRedirectUri: cleared }).success).toBe(true);
    }
    // Editors are told so too: the JSON Schema's tenant does not require it.
    const tenantSchema = findObject(
      configurationJsonSchema(),
      (node) => 'loginClientId' in (node.properties ?? {}),
    );
    expect(tenantSchema?.required).toContain('loginDomain');
    expect(tenantSchema?.required).not.toContain('defaultRedirectUri');
  });

  it('refuses an unsafe target with the redirect rule, wherever it is given', () => {
    for (const uri of ['javascript:alert(1)', 'http://app.example.com/', 'https://app.example.com/#x', ' ']) {
      const problem = defaultRedirectUriSchema.safeParse(uri);
      expect(problem.success, uri).toBe(false);
      expect(problem.error?.issues[0]?.message, uri).toMatch(/\w/);
      expect(tenantConfigSchema.safeParse({ ...tenant, defaultRedirectUri: uri }).success, uri).toBe(false);
      expect(adminTenantPatchRequest.safeParse({ defaultRedirectUri: uri }).success, uri).toBe(false);
    }
    expect(defaultRedirectUriSchema.safeParse('https://app.example.com/home').success).toBe(true);
  });
});
