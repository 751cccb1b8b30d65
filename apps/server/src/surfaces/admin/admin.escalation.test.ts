import {
  adminErrors,
  adminTenantListResponse,
  apiErrorSchema,
  auditSearchResponse,
  operatorTenantCode,
} from '@keycard/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliOn } from '../../features/accounts/test-support.ts';
import { buildTestApp, engines, type TestApp } from '../../test/helper.ts';
import { adminCall, operatorToken } from './admin.test-support.ts';

/**
 * The escalations a security review of the admin API found (docs/admin-api.md, "Who may do
 * what"): an operator who is not an owner must never reach the operator tenant, whatever its
 * tenant scope; its clients, partners, settings, domains and accounts change through
 * /operators and `keycard apply`, not the tenant routes; addresses the server sends secrets to
 * are set by owners.
 */
describe.each(engines)('admin API against escalation on %s', (engine) => {
  let t: TestApp;
  let owner: string;
  let tenantAdmin: string;
  let helpDesk: string;
  let auditor: string;
  beforeAll(async () => {
    t = await buildTestApp(engine);
    owner = await operatorToken(t, 'esc-owner', 'owner');
    // No tenant list: every customer tenant, and still not the operator tenant.
    tenantAdmin = await operatorToken(t, 'esc-tenant-admin', 'tenant_admin');
    helpDesk = await operatorToken(t, 'esc-help-desk', 'help_desk');
    auditor = await operatorToken(t, 'esc-auditor', 'auditor');
  });
  afterAll(() => t.close());

  const code = (answer: { json(): unknown }) => apiErrorSchema.parse(answer.json()).code;

  it("refuses a non-owner anything on the operator tenant: an owner machine's secret, its accounts", async () => {
    const attempts: Array<[string, string, 'POST' | 'GET' | 'DELETE', object | undefined]> = [
      [tenantAdmin, `/tenants/${operatorTenantCode}/clients/esc-owner/secret`, 'POST', {}],
      [tenantAdmin, `/tenants/${operatorTenantCode}`, 'GET', undefined],
      [helpDesk, `/tenants/${operatorTenantCode}/users?email=owner`, 'GET', undefined],
      [
        helpDesk,
        `/tenants/${operatorTenantCode}/users`,
        'POST',
        { email: 'mallory@evil.example', type: 'staff' },
      ],
      [auditor, `/tenants/${operatorTenantCode}/signing-keys`, 'GET', undefined],
    ];
    for (const [token, url, method, body] of attempts) {
      const refused = await adminCall(t.app, method, url, { token, ...(body ? { body } : {}) });
      expect(refused.statusCode, `${method} ${url}`).toBe(403);
      expect(code(refused)).toBe(adminErrors.forbidden);
    }
    // The owner machine's secret still works: nothing was rotated.
    expect((await adminCall(t.app, 'GET', '/tenants', { token: owner })).statusCode).toBe(200);
  });

  it('lists and audits only customer tenants to a non-owner without a tenant list', async () => {
    const listed = await adminCall(t.app, 'GET', '/tenants', { token: tenantAdmin });
    const codes = adminTenantListResponse.parse(listed.json()).tenants.map((tenant) => tenant.code);
    expect(codes).toContain('grand-hotel');
    expect(codes).not.toContain(operatorTenantCode);
    const ownerCodes = adminTenantListResponse
      .parse((await adminCall(t.app, 'GET', '/tenants', { token: owner })).json())
      .tenants.map((tenant) => tenant.code);
    expect(ownerCodes).toContain(operatorTenantCode);

    // An owner's change on the operator tenant (its theme) is in the log, for owners only.
    const current = await adminCall(t.app, 'GET', `/tenants/${operatorTenantCode}`, { token: owner });
    const theme = (current.json() as { theme: Record<string, unknown> }).theme;
    const changed = await adminCall(t.app, 'PUT', `/tenants/${operatorTenantCode}/theme`, {
      token: owner,
      body: { ...theme, name: 'Keycard operators (audited)' },
    });
    expect(changed.statusCode).toBe(200);
    const seen = (token: string) =>
      adminCall(t.app, 'GET', '/audit?limit=100', { token }).then((answer) =>
        auditSearchResponse.parse(answer.json()).entries.map((entry) => entry.tenant),
      );
    expect(await seen(owner)).toContain(operatorTenantCode);
    expect(await seen(auditor)).not.toContain(operatorTenantCode);
  });

  it('never gives a non-owner the operator tenant in its tenant list, through the API or the CLI', async () => {
    const refused = await adminCall(t.app, 'POST', '/operators/clients', {
      token: owner,
      body: { clientId: 'esc-scoped', role: 'tenant_admin', tenants: [operatorTenantCode] },
    });
    expect(refused.statusCode).toBe(400);
    expect(code(refused)).toBe('common.validation_failed');
    const cli = await runCliOn(
      t,
      'operators',
      'create-client',
      '--client-id',
      'esc-cli',
      '--role',
      'help_desk',
      '--tenant',
      operatorTenantCode,
    );
    expect(cli.code).toBe(2);
    expect(cli.err).toContain('the operator tenant is for owners only');
  });

  it("keeps the operator tenant's clients, partners, settings and accounts out of the tenant routes, even for an owner", async () => {
    const base = `/tenants/${operatorTenantCode}`;
    const attempts: Array<['POST' | 'PUT' | 'PATCH', string, object]> = [
      [
        'POST',
        `${base}/clients`,
        { clientId: 'phish', redirectUris: ['https://evil.example/cb'], authMethod: 'none' },
      ],
      ['POST', `${base}/clients/esc-owner/secret`, {}],
      [
        'PUT',
        `${base}/partners/evil`,
        {
          code: 'evil',
          issuer: 'https://evil.example',
          jwksUri: 'https://evil.example/jwks',
          skipMfa: true,
          linking: 'link-verified-email',
        },
      ],
      ['PATCH', `${base}/settings`, { mfa: { mode: 'required', methods: ['sms'], trustedDeviceDays: 365 } }],
      ['POST', `${base}/users`, { email: 'mallory@evil.example', type: 'staff' }],
    ];
    for (const [method, url, body] of attempts) {
      const refused = await adminCall(t.app, method, url, { token: owner, body });
      expect(refused.statusCode, `${method} ${url}`).toBe(403);
      expect(code(refused)).toBe(adminErrors.operatorTenantManaged);
    }
    const clients = await t.services.db
      .selectFrom('oidc_clients')
      .select('client_id')
      .where('tenant_code', '=', operatorTenantCode)
      .execute();
    expect(clients.map((row) => row.client_id)).not.toContain('phish');
  });

  it('lets only owners set where the captcha secret is sent or scripts are loaded from', async () => {
    const verifyUrl = 'http://169.254.169.254/latest/meta-data';
    for (const body of [
      { captcha: { verifyUrl } },
      { captcha: { scriptUrl: 'https://evil.example/captcha.js' } },
      { messenger: { scriptUrl: 'https://evil.example/widget.js' } },
    ]) {
      const refused = await adminCall(t.app, 'PATCH', '/tenants/seaside/settings', {
        token: tenantAdmin,
        body,
      });
      expect(refused.statusCode, JSON.stringify(body)).toBe(403);
      expect(code(refused)).toBe(adminErrors.forbidden);
    }
    const stored = await t.services.tenants.byCode('seaside');
    expect(stored?.settings.captcha.verifyUrl).not.toBe(verifyUrl);
    // Other settings stay the tenant admin's to change.
    const allowed = await adminCall(t.app, 'PATCH', '/tenants/seaside/settings', {
      token: tenantAdmin,
      body: { analyticsId: 'G-ESCALATION' },
    });
    expect(allowed.statusCode).toBe(200);
    // A partner's key set address is fetched by Keycard too.
    const partner = {
      code: 'esc-partner',
      issuer: 'https://partner.example',
      jwksUri: 'http://169.254.169.254/jwks.json',
      linking: 'link-verified-email',
    };
    const keys = await adminCall(t.app, 'PUT', '/tenants/seaside/partners/esc-partner', {
      token: tenantAdmin,
      body: partner,
    });
    expect(keys.statusCode).toBe(403);
    expect(code(keys)).toBe(adminErrors.forbidden);
    const byOwner = await adminCall(t.app, 'PUT', '/tenants/seaside/partners/esc-partner', {
      token: owner,
      body: { ...partner, jwksUri: 'https://partner.example/jwks.json' },
    });
    expect(byOwner.statusCode).toBe(200);
    // A partner decides whom Keycard signs in: none of its fields is a tenant admin's to change
    // (admin.partner-roles.test.ts tries each field and the sign-in it would open).
    const renamed = await adminCall(t.app, 'PUT', '/tenants/seaside/partners/esc-partner', {
      token: tenantAdmin,
      body: { ...partner, jwksUri: 'https://partner.example/jwks.json', displayName: 'Partner' },
    });
    expect(renamed.statusCode).toBe(403);
    expect(code(renamed)).toBe(adminErrors.forbidden);
    // And a domain claim, which has no proof of ownership yet, is an owner's.
    const domain = await adminCall(t.app, 'PUT', '/tenants/seaside/domains', {
      token: tenantAdmin,
      body: { loginDomain: 'seaside.localhost', aliasDomains: ['another-customer.example'] },
    });
    expect(domain.statusCode).toBe(403);
  });
});
