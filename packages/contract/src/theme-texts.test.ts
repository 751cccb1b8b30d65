import { describe, expect, it } from 'vitest';
import { isThemeImageUrl, isThemeLinkUrl, themeSchema } from './api.ts';
import { themeConfigSchema } from './configuration.ts';
import { overridableTextKeys, themeTextsSchema } from './theme-texts.ts';

const theme = {
  name: 'Lakeside Lodges',
  images: { logo: '/brand/logo.svg', favicon: 'https://cdn.lakeside.example/favicon.ico' },
  colours: {
    primaryBackground: '#123c4a',
    primaryForeground: '#ffffff',
    secondaryBackground: '#eef5f7',
    secondaryForeground: '#10262e',
    tertiaryBackground: '#8a3b12',
    tertiaryForeground: '#ffffff',
  },
  links: { loginHelpUrl: null, contactSupportUrl: null },
};

/** The field paths a failed parse names, as the API's validation error reports them. */
function failedPaths(schema: typeof themeConfigSchema | typeof themeSchema, value: unknown): string[] {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => issue.path.join('.'));
}

describe('theme text overrides', () => {
  it('takes an override per language for each listed key, and a theme without any', () => {
    const texts = {
      de: {
        'login.email.heading': 'Willkommen bei Lakeside',
        'lifecycle.resetRequest.intro': 'Neues Passwort?',
      },
      th: { 'login.password.heading': 'ใส่รหัสผ่านของคุณ' },
    };
    for (const schema of [themeSchema, themeConfigSchema]) {
      expect(schema.parse({ ...theme, texts }).texts).toEqual(texts);
      expect(schema.parse(theme).texts).toBeUndefined();
      expect(schema.parse({ ...theme, texts: {} }).texts).toEqual({});
    }
    expect(
      overridableTextKeys.every((key) => themeTextsSchema.safeParse({ en: { [key]: 'x' } }).success),
    ).toBe(true);
  });

  it('refuses an unknown key or language, and text that is not one plain line', () => {
    const refused: [unknown, string][] = [
      [{ de: { 'login.email.label': 'Adresse' } }, 'texts.de'],
      [{ de: { constructor: 'x' } }, 'texts.de'],
      [{ nl: { 'login.email.heading': 'Inloggen' } }, 'texts'],
      [{ de: { 'login.email.heading': '' } }, 'texts.de.login.email.heading'],
      [{ de: { 'login.email.heading': '   ' } }, 'texts.de.login.email.heading'],
      [{ de: { 'login.email.heading': 'x'.repeat(301) } }, 'texts.de.login.email.heading'],
      [{ de: { 'login.email.heading': 'Zwei\nZeilen' } }, 'texts.de.login.email.heading'],
      [{ de: { 'login.email.heading': 'Hallo {{name}}' } }, 'texts.de.login.email.heading'],
      [{ de: { 'login.email.heading': 42 } }, 'texts.de.login.email.heading'],
    ];
    for (const [texts, path] of refused) {
      expect(failedPaths(themeConfigSchema, { ...theme, texts }), JSON.stringify(texts)).toContain(path);
      expect(failedPaths(themeSchema, { ...theme, texts }), JSON.stringify(texts)).toContain(path);
    }
    expect(themeTextsSchema.safeParse({ de: { 'login.email.heading': 'x'.repeat(300) } }).success).toBe(true);
  });

  it('keeps markup as text: it is valid, and never interpreted (the renderers escape it)', () => {
    const markup = '<img src=x onerror=alert(1)><script>alert(1)</script>';
    expect(
      themeConfigSchema.parse({ ...theme, texts: { en: { 'login.email.intro': markup } } }).texts,
    ).toEqual({
      en: { 'login.email.intro': markup },
    });
  });
});

describe('theme image addresses', () => {
  it('allows https and http URLs, root-relative paths such as uploads, and empty for none', () => {
    for (const url of [
      'https://cdn.example.com/logo.svg',
      'http://localhost:3000/brand/logo.svg',
      '/brand/grand-hotel-logo.svg',
      '/_keycard/assets/lakeside/0f343b0931126a20f133d67c2b018a3b1e4f1f2c5a1a6a3d8c3f2d1e0a9b8c7d.png',
      // Dots that are not a whole segment, and dots after the path.
      '/brand/v1.2/logo..svg',
      '/brand/.../logo.svg',
      '/brand/logo.svg?from=/../x',
      'https://cdn.example.com/a/../logo.svg',
      '',
    ]) {
      expect(isThemeImageUrl(url), url).toBe(true);
      expect(failedPaths(themeConfigSchema, { ...theme, images: { logo: url, favicon: url } })).toEqual([]);
    }
  });

  it('refuses every other kind of address, naming the field', () => {
    for (const url of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      'HTTPS://cdn.example.com/logo.svg',
      'data:image/svg+xml,<svg onload=alert(1)>',
      'file:///etc/passwd',
      '//evil.example/logo.svg',
      '/\\evil.example/logo.svg',
      'ftp://files.example/logo.svg',
      'logo.svg',
      'https:logo.svg',
      ' https://cdn.example.com/logo.svg',
      'https://cdn.example.com/lo go.svg',
      'https://',
      // Dot segments: each resolves to a path that starts with //host.
      '/..//evil.example/logo.svg',
      '/.//evil.example/logo.svg',
      '/%2e%2e//evil.example/logo.svg',
      '/%2E//evil.example/logo.svg',
      '/brand/../logo.svg',
      '/brand/./logo.svg',
      '/brand/..',
    ]) {
      expect(isThemeImageUrl(url), url).toBe(false);
      expect(failedPaths(themeConfigSchema, { ...theme, images: { logo: url, favicon: '' } }), url).toEqual([
        'images.logo',
      ]);
      expect(failedPaths(themeSchema, { ...theme, images: { logo: '', favicon: url } }), url).toEqual([
        'images.favicon',
      ]);
    }
  });
});

describe('theme links (help and support)', () => {
  const withLinks = (links: Record<string, string | null>) => ({
    ...theme,
    links: { ...theme.links, ...links },
  });

  it('allows https and http addresses, and none', () => {
    for (const url of [
      'https://help.lakeside.example/login?lang=de',
      'http://localhost:3002/support',
      null,
    ]) {
      for (const schema of [themeSchema, themeConfigSchema]) {
        expect(
          failedPaths(schema, withLinks({ loginHelpUrl: url, contactSupportUrl: url })),
          String(url),
        ).toEqual([]);
      }
      if (url) expect(isThemeLinkUrl(url), url).toBe(true);
    }
  });

  it('refuses an address a click would run or draw in the portal, or that is not a web address', () => {
    for (const url of [
      'javascript:alert(document.domain)',
      'JAVASCRIPT:alert(1)',
      'javascript://help.example/%0aalert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      'file:///etc/passwd',
      'ftp://files.example/help',
      'mailto:help@lakeside.example',
      'https:help.lakeside.example',
      '//help.lakeside.example',
      '/help',
    ]) {
      expect(isThemeLinkUrl(url), url).toBe(false);
      for (const schema of [themeSchema, themeConfigSchema]) {
        expect(failedPaths(schema, withLinks({ loginHelpUrl: url })), url).toEqual(['links.loginHelpUrl']);
        expect(failedPaths(schema, withLinks({ contactSupportUrl: url })), url).toEqual([
          'links.contactSupportUrl',
        ]);
      }
    }
  });
});
