import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  adminTenantSchema,
  apiErrorSchema,
  darkSchemeVariables,
  errorCodes,
  loginDomainResponse,
  type Theme,
  themeFontStacks,
} from '@keycard/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { adminCall, operatorToken } from '../../surfaces/admin/admin.test-support.ts';
import { call, engines, type TestApp } from '../../test/helper.ts';
import { Browser } from '../../test/http-client.ts';
import { listeningTestApp } from '../../test/oidc.ts';
import { runCliOn } from '../accounts/test-support.ts';

/**
 * Issue 19 item 11, deeper branding: font, corner radius, logo height, background image and a
 * dark scheme through the admin API and `keycard apply`/`export`, validated (the dark scheme
 * only when every pair it draws meets AA), and drawn by the server's first paint.
 */
const template = readFileSync(
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../portal/index.html'),
  'utf8',
);
// Every pair fails on a dark card: the palette has no light colour to write with.
const allGrey: Theme['colours'] = {
  primaryBackground: '#777777',
  primaryForeground: '#6a6a6a',
  secondaryBackground: '#808080',
  secondaryForeground: '#707070',
  tertiaryBackground: '#757575',
  tertiaryForeground: '#7a7a7a',
};
const tinyPng = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

describe.each(engines)('deeper branding on %s', (engine) => {
  let t: TestApp;
  let origin: (tenant: string) => string;
  let owner: string;
  let theme: Theme;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'keycard-theme-style-'));
    writeFileSync(path.join(dir, 'index.html'), template);
    mkdirSync(path.join(dir, 'assets'));
    ({ t, origin } = await listeningTestApp(engine, { portalDist: dir }));
    owner = await operatorToken(t, 'theme-style-owner', 'owner');
    theme = await served();
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const putTheme = (body: unknown) =>
    adminCall(t.app, 'PUT', '/tenants/seaside/theme', { token: owner, body });
  async function served(): Promise<Theme> {
    await t.services.tenants.refresh();
    const answer = await call(t.app, 'GET', '/api/login-domains/seaside.localhost', {
      host: 'seaside.localhost:3000',
    });
    return loginDomainResponse.parse(answer.json()).theme;
  }
  const firstPaint = async () => (await new Browser().fetch(`${origin('seaside')}/login`)).text();

  it('keeps a theme without the new fields as it was: the first paint sets the portal’s own values', async () => {
    expect(theme.font).toBeUndefined();
    expect(theme.darkScheme).toBeUndefined();
    const html = await firstPaint();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('--kc-radius:8px;');
    expect(html).toContain('--kc-logo-height:40px;');
    expect(html).toContain('--kc-background-image:none');
    expect(html).toContain(`--kc-font:${themeFontStacks.system}`);
    expect(html).not.toContain('--kc-dark-');
  });

  it('stores font, corners, logo height, background and dark scheme, serves them, and paints them first', async () => {
    const styled: Theme = {
      ...theme,
      images: { ...theme.images, background: '/brand/seaside-background.svg' },
      font: 'serif',
      cornerRadius: 16,
      logoHeight: 64,
      darkScheme: true,
    };
    const answer = await putTheme(styled);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(adminTenantSchema.parse(answer.json()).theme).toMatchObject({
      font: 'serif',
      cornerRadius: 16,
      logoHeight: 64,
      darkScheme: true,
      images: { background: '/brand/seaside-background.svg' },
    });
    expect(await served()).toMatchObject({
      font: 'serif',
      cornerRadius: 16,
      logoHeight: 64,
      darkScheme: true,
    });

    const html = await firstPaint();
    expect(html).toContain('<html lang="en" data-kc-dark data-kc-background>');
    expect(html).toContain('--kc-radius:16px;');
    expect(html).toContain('--kc-logo-height:64px;');
    expect(html).toContain('--kc-background-image:url("/brand/seaside-background.svg")');
    expect(html).toContain(`--kc-font:${themeFontStacks.serif}`);
    const dark = darkSchemeVariables(theme.colours);
    expect(html).toContain(`--kc-dark-card-bg:${dark['--kc-card-bg']}`);
    expect(html).toContain(`--kc-dark-text:${dark['--kc-text']}`);
    expect(html).toContain(`--kc-dark-link:${dark['--kc-link']}`);
  });

  it.each([
    ['a corner radius over 24', { cornerRadius: 25 }, 'cornerRadius'],
    ['a fractional corner radius', { cornerRadius: 4.5 }, 'cornerRadius'],
    ['a font not in the set', { font: 'Comic Sans MS' }, 'font'],
    ['a logo height under 24', { logoHeight: 12 }, 'logoHeight'],
    [
      'a javascript: background',
      { images: { logo: '', favicon: '', background: 'javascript:x' } },
      'images.background',
    ],
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

  it('refuses a dark scheme whose palette cannot pass AA, saying which pair and why', async () => {
    const before = await served();
    const answer = await putTheme({ ...theme, colours: allGrey, darkScheme: true });
    expect(answer.statusCode).toBe(400);
    const error = apiErrorSchema.parse(answer.json());
    expect(error.code).toBe(errorCodes.validationFailed);
    expect(error.fields?.darkScheme).toMatch(
      /^dark scheme: text #808080 on #[0-9a-f]{6} is \d\.\d\d:1, WCAG 2\.2 AA needs 4\.5:1/,
    );
    expect(await served()).toEqual(before);
    // The same palette without the dark scheme is the brand's to choose (the portal corrects it).
    expect((await putTheme({ ...theme, colours: allGrey, darkScheme: false })).statusCode).toBe(200);
    expect((await putTheme(before)).statusCode).toBe(200);
  });

  it('takes a background image upload as a logo’s: checked by content, set on the theme', async () => {
    const answer = await adminCall(t.app, 'PUT', '/tenants/seaside/theme/background', {
      token: owner,
      body: tinyPng,
      headers: { 'content-type': 'image/png' },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const background = adminTenantSchema.parse(answer.json()).theme.images.background ?? '';
    expect(background).toMatch(/^\/_keycard\/assets\/seaside\/[0-9a-f]+\.png$/);
    const image = await call(t.app, 'GET', background, { host: 'seaside.localhost:3000' });
    expect(image.statusCode).toBe(200);
    const wrong = await adminCall(t.app, 'PUT', '/tenants/seaside/theme/background', {
      token: owner,
      body: Buffer.from('not an image'),
      headers: { 'content-type': 'image/png' },
    });
    expect(wrong.statusCode).toBe(422);
    expect(apiErrorSchema.parse(wrong.json()).code).toBe('admin.image_invalid');
  });

  it('round-trips through apply and export, and refuses a failing dark scheme in the file with the reason', async () => {
    const exported = await runCliOn(t, 'export', '--tenant', 'seaside');
    expect(exported.code, exported.err).toBe(0);
    const config = parse(exported.out);
    const fileTheme = config.tenants[0].theme;
    Object.assign(fileTheme, { font: 'rounded', cornerRadius: 2, logoHeight: 80, darkScheme: true });
    fileTheme.images.background = 'https://cdn.seaside.example/sand.webp';
    const file = path.join(dir, 'styled.yaml');
    writeFileSync(file, stringify(config));
    const applied = await runCliOn(t, 'apply', '-f', file);
    expect(applied.code, applied.err + applied.out).toBe(0);
    expect(await served()).toMatchObject({
      font: 'rounded',
      cornerRadius: 2,
      logoHeight: 80,
      darkScheme: true,
      images: { background: 'https://cdn.seaside.example/sand.webp' },
    });
    const again = await runCliOn(t, 'export', '--tenant', 'seaside');
    expect(parse(again.out).tenants[0].theme).toMatchObject({
      font: 'rounded',
      cornerRadius: 2,
      darkScheme: true,
    });
    const againFile = path.join(dir, 'again.yaml');
    writeFileSync(againFile, again.out);
    expect((await runCliOn(t, 'apply', '-f', againFile)).out).toContain('No changes');

    fileTheme.colours = allGrey;
    writeFileSync(file, stringify(config));
    const refused = await runCliOn(t, 'apply', '-f', file);
    expect(refused.code).not.toBe(0);
    expect(refused.err + refused.out).toContain('dark scheme: text #808080');
    expect((await served()).colours).not.toEqual(allGrey);
  });
});
