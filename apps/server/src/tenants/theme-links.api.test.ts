import {
  adminTenantSchema,
  apiErrorSchema,
  errorCodes,
  loginDomainResponse,
  type Theme,
} from '@keycard/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliOn } from '../accounts/test-support.ts';
import { adminCall, operatorToken } from '../admin/admin.test-support.ts';
import { buildTestApp, call, engines, type TestApp } from '../test/helper.ts';

/**
 * A theme's help and support links are web addresses only, and an image path has no dot
 * segments: the admin API refuses anything else, and a theme stored before these rules keeps
 * its tenant working, the bad address read as none.
 */
describe.each(engines)('theme links and image paths through the admin API on %s', (engine) => {
  let t: TestApp;
  let owner: string;
  let theme: Theme;
  beforeAll(async () => {
    t = await buildTestApp(engine);
    owner = await operatorToken(t, 'theme-links-owner', 'owner');
    theme = loginDomainResponse.parse(
      (
        await call(t.app, 'GET', '/api/login-domains/seaside.localhost', { host: 'seaside.localhost:3000' })
      ).json(),
    ).theme;
  });
  afterAll(async () => {
    await t?.close();
  });

  const putTheme = (body: unknown) =>
    adminCall(t.app, 'PUT', '/tenants/seaside/theme', { token: owner, body });
  const served = async () => {
    await t.services.tenants.refresh();
    const answer = await call(t.app, 'GET', '/api/login-domains/seaside.localhost', {
      host: 'seaside.localhost:3000',
    });
    return loginDomainResponse.parse(answer.json()).theme;
  };
  const store = async (stored: unknown) => {
    await t.services.db
      .updateTable('tenants')
      .set((eb) => ({ theme: JSON.stringify(stored), version: eb('version', '+', 1) }))
      .where('code', '=', 'seaside')
      .execute();
  };

  it.each([
    ['a javascript: help link', { loginHelpUrl: 'javascript:alert(document.domain)' }, 'links.loginHelpUrl'],
    [
      'a data: support link',
      { contactSupportUrl: 'data:text/html,<script>alert(1)</script>' },
      'links.contactSupportUrl',
    ],
    ['a vbscript: help link', { loginHelpUrl: 'vbscript:msgbox(1)' }, 'links.loginHelpUrl'],
    [
      'an http link without //',
      { contactSupportUrl: 'https:help.seaside.example' },
      'links.contactSupportUrl',
    ],
  ])(
    'refuses %s with a coded validation error naming the field, changing nothing',
    async (_name, links, field) => {
      const before = await served();
      const answer = await putTheme({ ...theme, links: { ...theme.links, ...links } });
      expect(answer.statusCode).toBe(400);
      const error = apiErrorSchema.parse(answer.json());
      expect(error.code).toBe(errorCodes.validationFailed);
      expect(Object.keys(error.fields ?? {})).toContain(field);
      expect(await served()).toEqual(before);
    },
  );

  it.each([
    ['/..//evil.example/logo.svg', 'images.logo'],
    ['/.//evil.example/favicon.svg', 'images.favicon'],
  ])('refuses the image path %s', async (url, field) => {
    const slot = field === 'images.logo' ? 'logo' : 'favicon';
    const answer = await putTheme({ ...theme, images: { ...theme.images, [slot]: url } });
    expect(answer.statusCode).toBe(400);
    const error = apiErrorSchema.parse(answer.json());
    expect(error.code).toBe(errorCodes.validationFailed);
    expect(Object.keys(error.fields ?? {})).toContain(field);
  });

  it('takes https and http links, and none', async () => {
    for (const links of [
      {
        loginHelpUrl: 'https://help.seaside.example/login',
        contactSupportUrl: 'http://localhost:3002/support',
      },
      { loginHelpUrl: null, contactSupportUrl: null },
    ]) {
      const answer = await putTheme({ ...theme, links });
      expect(answer.statusCode, answer.body).toBe(200);
      expect(adminTenantSchema.parse(answer.json()).theme.links).toEqual(links);
      expect((await served()).links).toEqual(links);
    }
    expect((await putTheme(theme)).statusCode).toBe(200);
  });

  it('keeps a tenant working whose stored links or image path predate the rules: they read as none', async () => {
    await store({
      ...theme,
      images: { logo: '/..//evil.example/logo.svg', favicon: theme.images.favicon },
      links: { loginHelpUrl: 'javascript:alert(document.domain)', contactSupportUrl: 'data:text/html,hi' },
    });
    const expected = {
      ...theme,
      images: { ...theme.images, logo: '' },
      links: { loginHelpUrl: null, contactSupportUrl: null },
    };
    expect(await served()).toEqual(expected);
    // What the first paint and mails draw with: the same theme, without them.
    expect((await t.services.tenants.resolveHost('seaside.localhost:3000'))?.theme).toEqual(expected);
    // The admin API and the export read it the same way, so the tenant can be repaired.
    const tenant = await adminCall(t.app, 'GET', '/tenants/seaside', { token: owner });
    expect(tenant.statusCode, tenant.body).toBe(200);
    expect(adminTenantSchema.parse(tenant.json()).theme).toEqual(expected);
    const exported = await runCliOn(t, 'export', '--tenant', 'seaside');
    expect(exported, exported.err).toMatchObject({ code: 0 });
    expect(exported.out).not.toMatch(/javascript:|data:text|evil\.example/);
    expect((await putTheme(theme)).statusCode).toBe(200);
    expect(await served()).toEqual(theme);
  });
});
