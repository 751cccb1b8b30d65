import {
  adminTenantSchema,
  apiErrorSchema,
  errorCodes,
  loginDomainResponse,
  type Theme,
  type ThemeTexts,
} from '@keycard/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCall, operatorToken } from '../../surfaces/admin/admin.test-support.ts';
import { buildTestApp, call, engines, type TestApp } from '../../test/helper.ts';
import { runCliOn } from '../accounts/test-support.ts';

/**
 * A theme's text overrides, links and image addresses through the admin API's theme route: what it
 * takes, what it refuses with a coded validation error naming the field, and what the portal
 * then gets from the theme endpoint.
 */
describe.each(engines)('theme texts, links and image addresses through the admin API on %s', (engine) => {
  let t: TestApp;
  let owner: string;
  let theme: Theme;
  beforeAll(async () => {
    t = await buildTestApp(engine);
    owner = await operatorToken(t, 'theme-texts-owner', 'owner');
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

  it('stores overrides given with the theme, and the portal gets them from the theme endpoint', async () => {
    const texts: ThemeTexts = {
      de: {
        'login.email.heading': 'Willkommen <b>am Meer</b>',
        'lifecycle.resetRequest.intro': 'Neues Passwort?',
      },
      th: { 'login.password.heading': 'ใส่รหัสผ่าน' },
    };
    const answer = await putTheme({ ...theme, texts });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(adminTenantSchema.parse(answer.json()).theme.texts).toEqual(texts);
    expect((await served()).texts).toEqual(texts);

    // The theme is replaced whole: without texts, the overrides are gone.
    const { texts: _texts, ...plain } = theme;
    expect((await putTheme(plain)).statusCode).toBe(200);
    expect((await served()).texts).toBeUndefined();
  });

  it.each([
    ['an unknown key', { texts: { de: { 'login.email.label': 'Adresse' } } }, 'texts.de'],
    ['an unknown language', { texts: { nl: { 'login.email.heading': 'Inloggen' } } }, 'texts'],
    [
      'a placeholder',
      { texts: { de: { 'login.email.heading': 'Hallo {{name}}' } } },
      'texts.de.login.email.heading',
    ],
    [
      'an over-long text',
      { texts: { de: { 'login.email.intro': 'x'.repeat(301) } } },
      'texts.de.login.email.intro',
    ],
    ['a javascript: logo', { images: { logo: 'javascript:alert(1)', favicon: '' } }, 'images.logo'],
    ['a data: favicon', { images: { logo: '', favicon: 'data:image/png;base64,AAAA' } }, 'images.favicon'],
    ['a protocol-relative logo', { images: { logo: '//evil.example/x.svg', favicon: '' } }, 'images.logo'],
    ['a file: logo', { images: { logo: 'file:///etc/passwd', favicon: '' } }, 'images.logo'],
  ])(
    'refuses %s with a coded validation error naming the field, changing nothing',
    async (_name, change, field) => {
      const before = await served();
      const answer = await putTheme({ ...theme, ...change });
      expect(answer.statusCode).toBe(400);
      const error = apiErrorSchema.parse(answer.json());
      expect(error.code).toBe(errorCodes.validationFailed);
      expect(Object.keys(error.fields ?? {})).toContain(field);
      expect(await served()).toEqual(before);
    },
  );

  it('keeps a tenant working whose stored image predates the rule: the image reads as none', async () => {
    const stored = { ...theme, images: { logo: 'javascript:alert(1)', favicon: '//evil.example/icon.svg' } };
    await t.services.db
      .updateTable('tenants')
      .set((eb) => ({ theme: JSON.stringify(stored), version: eb('version', '+', 1) }))
      .where('code', '=', 'seaside')
      .execute();
    expect((await served()).images).toEqual({ logo: '', favicon: '' });
    // What the first paint and mails draw with: the same theme, without the image.
    expect((await t.services.tenants.resolveHost('seaside.localhost:3000'))?.theme.images).toEqual({
      logo: '',
      favicon: '',
    });
    // The export and the admin API read it the same way, so the tenant can be repaired.
    const exported = await runCliOn(t, 'export', '--tenant', 'seaside');
    expect(exported, exported.err).toMatchObject({ code: 0 });
    expect(exported.out).not.toContain('javascript:');
    expect((await putTheme(theme)).statusCode).toBe(200);
    expect((await served()).images).toEqual(theme.images);
  });

  it('takes every allowed kind of image address: https, http, a root-relative upload path, and none', async () => {
    for (const images of [
      {
        logo: 'https://cdn.seaside.example/logo.svg',
        favicon: 'http://localhost:3000/brand/seaside-favicon.svg',
      },
      { logo: '/_keycard/assets/seaside/0123abcd.svg', favicon: '' },
    ]) {
      const answer = await putTheme({ ...theme, images });
      expect(answer.statusCode, answer.body).toBe(200);
      expect((await served()).images).toEqual(images);
    }
    expect((await putTheme(theme)).statusCode).toBe(200);
  });

  // Help and support links are web addresses only, and an image path has no dot segments; a
  // theme stored before these rules keeps its tenant working, the bad address read as none.
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
