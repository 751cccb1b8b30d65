import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  adminTenantSchema,
  type ServedFont,
  servedFontFamilies,
  servedFontStylesheet,
  type Theme,
  type ThemeFont,
  themeFontStacks,
} from '@keycard/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, engines, type TestApp } from '../../test/helper.ts';
import { adminCall, operatorToken } from '../admin/admin.test-support.ts';

/**
 * Issue 19 item 11: a font from a small set served by Keycard itself. A tenant's pages name the
 * @font-face rules of its pick and of nothing else (none for `system`), and the files are
 * answered from Keycard's own origin as woff2, cached for good.
 */
const template = readFileSync(
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../portal/index.html'),
  'utf8',
);
const require = createRequire(import.meta.url);
const host = 'seaside.localhost:3000';
const served = Object.keys(servedFontFamilies) as ServedFont[];

/** The families a page's @font-face rules name, and the URLs of their files. */
function fontFaces(css: string): { families: string[]; urls: string[] } {
  const faces = [...css.matchAll(/@font-face\{([^}]*)\}/g)].map((match) => match[1] ?? '');
  return {
    families: faces.map((face) => /font-family:"([^"]+)"/.exec(face)?.[1] ?? '?'),
    urls: faces.map((face) => /src:url\(([^)]+)\)/.exec(face)?.[1] ?? '?'),
  };
}

describe.each(engines)('served fonts on %s', (engine) => {
  let t: TestApp;
  let owner: string;
  let theme: Theme;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'keycard-fonts-'));
    writeFileSync(path.join(dir, 'index.html'), template);
    mkdirSync(path.join(dir, 'assets'));
    t = await buildTestApp(engine, { portalDist: dir });
    owner = await operatorToken(t, 'fonts-owner', 'owner');
    const tenant = await adminCall(t.app, 'GET', '/tenants/seaside', { token: owner });
    theme = adminTenantSchema.parse(tenant.json()).theme;
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function pick(font: ThemeFont) {
    const { font: _old, ...rest } = theme;
    const answer = await adminCall(t.app, 'PUT', '/tenants/seaside/theme', {
      token: owner,
      body: font === 'system' ? rest : { ...rest, font },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(adminTenantSchema.parse(answer.json()).theme.font).toBe(font === 'system' ? undefined : font);
    await t.services.tenants.refresh();
  }
  const firstPaint = async () => (await call(t.app, 'GET', '/login', { host })).body;

  it('names no @font-face at all for a tenant on the system’s fonts', async () => {
    await pick('system');
    const html = await firstPaint();
    expect(html).toContain(`--kc-font:${themeFontStacks.system}`);
    // The portal's own stylesheet declares Noto Sans Thai (Thai pages only); nothing else.
    expect(fontFaces(html).families.every((family) => family === 'Noto Sans Thai')).toBe(true);
    expect(html).not.toContain('/_keycard/fonts/');
  });

  it.each(served)('names exactly the picked font’s faces in the first paint (%s)', async (font) => {
    await pick(font);
    const html = await firstPaint();
    const family = servedFontFamilies[font];
    expect(html).toContain(`--kc-font:${themeFontStacks[font]}`);
    const { families, urls } = fontFaces(html);
    const own = urls.filter((url) => url.startsWith('/_keycard/fonts/'));
    // Latin, Latin Extended and Vietnamese, each its own file, all of the picked family.
    expect(own).toHaveLength(3);
    expect(families.filter((name) => name !== 'Noto Sans Thai')).toEqual([family, family, family]);
    for (const other of served.filter((name) => name !== font)) {
      expect(html).not.toContain(servedFontFamilies[other]);
    }
    expect(html).toContain('font-display:swap');
    expect(html).not.toContain('rel="preload"');

    const packageName = /^([a-z0-9-]+)-latin\./.exec(path.basename(own[0] ?? ''))?.[1];
    for (const url of own) {
      const file = await call(t.app, 'GET', url, { host });
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toBe('font/woff2');
      expect(file.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(file.headers['x-content-type-options']).toBe('nosniff');
      expect(file.rawPayload.subarray(0, 4).toString('latin1')).toBe('wOF2');
      // The package's own file, byte for byte.
      const [, name, subset] = /^([a-z0-9-]+)-(latin|latin-ext|vietnamese)\./.exec(path.basename(url)) ?? [];
      expect(name).toBe(packageName);
      const original = readFileSync(
        require.resolve(`@fontsource-variable/${name}/files/${name}-${subset}-wght-normal.woff2`),
      );
      expect(file.rawPayload.equals(original)).toBe(true);
      // Every host serves them (the operator host's preview draws any tenant's pick).
      expect((await call(t.app, 'GET', url, { host: 'localhost:3000' })).statusCode).toBe(200);
    }
  });

  it('serves one font’s rules for the theme preview, revalidated by their ETag', async () => {
    await pick('serif');
    const paint = fontFaces(await firstPaint());
    const answer = await call(t.app, 'GET', servedFontStylesheet('serif'), { host });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('public, no-cache');
    expect(fontFaces(answer.body)).toEqual({
      families: paint.families.filter((name) => name !== 'Noto Sans Thai'),
      urls: paint.urls.filter((url) => url.startsWith('/_keycard/fonts/')),
    });
    const etag = String(answer.headers.etag);
    const again = await call(t.app, 'GET', servedFontStylesheet('serif'), {
      host,
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it.each([
    '/_keycard/fonts/system.css',
    '/_keycard/fonts/comic.css',
    '/_keycard/fonts/nunito-latin.0000000000000000.woff2',
    '/_keycard/fonts/..%2F..%2Fpackage.json',
    '/_keycard/fonts/',
  ])('answers 404 for %s', async (url) => {
    const answer = await call(t.app, 'GET', url, { host });
    expect(answer.statusCode).toBe(404);
    expect(answer.headers['content-type']).not.toBe('font/woff2');
  });
});
