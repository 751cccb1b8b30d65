import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { loginDomainResponse, overridableTextKeys, type Theme } from '@keycard/contract';
import { de } from '@keycard/texts/de';
import { en } from '@keycard/texts/en';
import { th } from '@keycard/texts/th';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeHtml } from '../../platform/shared/html.ts';
import { call, engines, type TestApp } from '../../test/helper.ts';
import { Browser } from '../../test/http-client.ts';
import { discoverIssuer, listeningTestApp, startAuthorization } from '../../test/oidc.ts';
import { acceptedLanguages, choosePageLocale } from './first-paint.ts';

// The portal's real page template (Vite only adds its script and stylesheet links to it).
const template = readFileSync(
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../portal/index.html'),
  'utf8',
).replace(
  '</head>',
  '<script type="module" src="/assets/index-test.js"></script><link rel="stylesheet" crossorigin href="/assets/index-test.css"></head>',
);

describe('choosing the page language', () => {
  it('reads Accept-Language by weight, keeping the order of equal weights', () => {
    expect(acceptedLanguages('fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5')).toEqual([
      'fr-CH',
      'fr',
      'en',
      'de',
      '*',
    ]);
    expect(acceptedLanguages('de;q=0, th')).toEqual(['th']);
    expect(acceptedLanguages('en;q=abc, ;;;, it')).toEqual(['it']);
  });

  it('takes langCode, then ui_locales, then Accept-Language, then English', () => {
    const choose = (langCode: string | null, uiLocales?: string, acceptLanguage?: string) =>
      choosePageLocale({ langCode, uiLocales, acceptLanguage });
    expect(choose('pt', 'th', 'de')).toBe('pt');
    expect(choose('xx', 'zz th-TH', 'de')).toBe('th');
    expect(choose(null, undefined, 'ja, es-MX;q=0.8')).toBe('es');
    expect(choose(null, undefined, 'ja')).toBe('en');
  });

  it("puts the language menu's choice before a link's langCode (issue 19 item 14)", () => {
    const base = { uiLocales: undefined, acceptLanguage: 'de' };
    expect(choosePageLocale({ ...base, menu: 'it', langCode: 'fr', chosen: 'fr' })).toBe('it');
    expect(choosePageLocale({ ...base, menu: undefined, langCode: 'fr', chosen: 'th' })).toBe('fr');
    expect(choosePageLocale({ ...base, menu: 'xx', langCode: null })).toBe('de');
  });
});

describe.each(engines)('the branded first paint on %s', (engine) => {
  let t: TestApp;
  let origin: (tenant: string) => string;
  let dist: string;

  beforeAll(async () => {
    dist = mkdtempSync(path.join(tmpdir(), 'keycard-first-paint-'));
    writeFileSync(path.join(dist, 'index.html'), template);
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'assets', 'index-test.css'), '.kc-card{padding:2rem}');
    ({ t, origin } = await listeningTestApp(engine, { portalDist: dist }));
  });
  afterAll(async () => {
    await t.close();
    rmSync(dist, { recursive: true, force: true });
  });

  const page = (tenant: string, pathAndQuery: string, headers: Record<string, string> = {}) =>
    new Browser().fetch(`${origin(tenant)}${pathAndQuery}`, { headers });

  it("renders each demo tenant's colours, title, favicon, language and e-mail form without scripts", async () => {
    for (const code of ['grand-hotel', 'seaside', 'summit']) {
      const tenant = await t.services.tenants.resolveHost(`${code}.localhost`);
      if (!tenant) throw new Error(`no demo tenant ${code}`);
      const { theme } = tenant;
      const response = await page(code, '/login?iid=abc&redirectUri=http%3A%2F%2Flocalhost%3A3001%2F');
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(html).toContain('<html lang="en"');
      expect(html).toContain(`<title>${en.titles.login} | ${theme.name}</title>`);
      expect(html).toContain(`<link rel="icon" href="${theme.images.favicon}">`);
      expect(html).toContain(`--kc-primary-bg:${theme.colours.primaryBackground}`);
      expect(html).toContain(`--kc-secondary-bg:${theme.colours.secondaryBackground}`);
      expect(html).toContain(`--kc-tertiary-fg:${theme.colours.tertiaryForeground}`);
      expect(html).toContain(`src="${theme.images.logo}"`);
      // The e-mail step works before the script: a GET form keeping the flow's query values.
      expect(html).toMatch(/<form method="get" action="\/login\/password"[^>]*>/);
      expect(html).toContain('<input type="hidden" name="iid" value="abc">');
      expect(html).toMatch(/<input id="kc-fp-email" type="email" name="email"[^>]*required/);
      expect(html).toContain(`>${en.login.email.submit}</button>`);
      // The inline styles (theme, and the build's stylesheet put inline: no round trip before
      // the first paint) are allowed by the page's nonce, and only by it.
      const nonce = /<style nonce="([^"]+)">/.exec(html)?.[1];
      expect(nonce).toBeTruthy();
      expect(html).toContain(`<style nonce="${nonce}">.kc-card{padding:2rem}</style>`);
      expect(html).not.toContain('rel="stylesheet"');
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp).toContain(`style-src 'self' 'nonce-${nonce}'`);
      expect(csp).not.toContain('unsafe-inline');
      // The script starts from the same data instead of asking again.
      const bootstrap = /<script type="application\/json" id="kc-bootstrap">([^<]*)<\/script>/.exec(
        html,
      )?.[1];
      expect(JSON.parse(bootstrap ?? '{}')).toMatchObject({
        locale: 'en',
        branding: { tenantCode: code, theme: { name: theme.name } },
      });
    }
  });

  it('compresses the page for browsers that take Brotli or gzip', async () => {
    const url = `${origin('grand-hotel')}/login`;
    const raw = (encoding: string) =>
      t.app.inject({
        method: 'GET',
        url: '/login',
        headers: { host: new URL(url).host, 'accept-encoding': encoding },
      });
    const br = await raw('gzip, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(String(br.headers.vary)).toContain('Accept-Encoding');
    expect(brotliDecompressSync(br.rawPayload).toString()).toContain('kc-fp-email');
    const gzip = await raw('gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toContain('kc-fp-email');
    const identity = await raw('identity');
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body).toContain('kc-fp-email');
  });

  it('renders in the language of langCode, then of Accept-Language', async () => {
    const german = await (
      await page('grand-hotel', '/login', { 'accept-language': 'de-DE,de;q=0.9' })
    ).text();
    expect(german).toContain('<html lang="de"');
    expect(german).toContain(`>${de.login.email.submit}</button>`);
    expect(german).toContain(`<title>${de.titles.login} |`);
    const thai = await (await page('grand-hotel', '/login?langCode=th', { 'accept-language': 'de' })).text();
    expect(thai).toContain('<html lang="th"');
    expect(thai).toContain(`<label for="kc-fp-email">${th.login.email.label}</label>`);
  });

  it('keeps a langCode the browser arrived with, for its later pages, until it chooses another', async () => {
    const arrived = await page('grand-hotel', '/activate/?token=x&langCode=th-TH', {
      'accept-language': 'de',
    });
    const cookie = arrived.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^AUTH_X_LANG=th;/);
    expect(cookie).toContain('Max-Age=31536000');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).not.toContain('HttpOnly');
    // The next page, without langCode: the remembered language beats Accept-Language.
    const later = await (
      await page('grand-hotel', '/login?activateSuccess=true', {
        'accept-language': 'de',
        cookie: 'AUTH_X_LANG=th',
      })
    ).text();
    expect(later).toContain('<html lang="th"');
    // A langCode still wins; an unknown remembered value is ignored.
    const explicit = await (
      await page('grand-hotel', '/login?langCode=fr', { cookie: 'AUTH_X_LANG=th' })
    ).text();
    expect(explicit).toContain('<html lang="fr"');
    const bogus = await (
      await page('grand-hotel', '/login', { cookie: 'AUTH_X_LANG=<x>', 'accept-language': 'es' })
    ).text();
    expect(bogus).toContain('<html lang="es"');
    expect((await page('grand-hotel', '/login')).headers.get('set-cookie')).toBeNull();
  });

  it("keeps a language picked in the menu over a mail link's langCode, and leaves its cookie be", async () => {
    const headers = { 'accept-language': 'de', cookie: 'AUTH_X_LANG_MENU=it; AUTH_X_LANG=it' };
    const link = await page('grand-hotel', '/reset-password/update?token=x&langCode=fr', headers);
    expect(await link.text()).toContain('<html lang="it"');
    expect(link.headers.get('set-cookie')).toBeNull();
    // Without a menu choice the link's langCode still beats Accept-Language.
    const plain = await page('grand-hotel', '/login?langCode=fr', { 'accept-language': 'de' });
    expect(await plain.text()).toContain('<html lang="fr"');
  });

  it("honours the app's ui_locales for the sign-in it asked for", async () => {
    const browser = new Browser();
    const config = await discoverIssuer(origin('grand-hotel'));
    const { location } = await startAuthorization(config, browser, { ui_locales: 'xx th de' });
    expect(location).toMatch(/^\/login\?iid=/);
    const html = await (
      await browser.fetch(`${origin('grand-hotel')}${location}`, {
        headers: { 'accept-language': 'de' },
      })
    ).text();
    expect(html).toContain('<html lang="th"');
    // An unknown or foreign interaction id changes nothing.
    const unknown = await (
      await page('grand-hotel', '/login?iid=unknown-id', { 'accept-language': 'it' })
    ).text();
    expect(unknown).toContain('<html lang="it"');
  });

  it('keeps every injected value inert: markup in query values is escaped', async () => {
    const html = await (
      await page(
        'grand-hotel',
        `/login?email=${encodeURIComponent('"><script>alert(1)</script>')}&x=%3C%2Fscript%3E`,
      )
    ).text();
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(html).not.toMatch(/<\/script>"/);
  });

  it("shows the tenant's text overrides of the page's language as text, never as markup", async () => {
    const attack = (label: string) => `<img src=x onerror=alert('${label}')><script>alert(1)</script>`;
    const texts: Theme['texts'] = {
      de: Object.fromEntries(overridableTextKeys.map((key) => [key, `Hallo ${attack(key)}`])),
      en: { 'login.email.heading': `Welcome ${attack('en')}` },
    };
    const row = await t.services.db
      .selectFrom('tenants')
      .select('theme')
      .where('code', '=', 'seaside')
      .executeTakeFirstOrThrow();
    const theme = JSON.parse(row.theme) as Theme;
    const setTheme = async (next: Theme) => {
      await t.services.db
        .updateTable('tenants')
        .set((eb) => ({ theme: JSON.stringify(next), version: eb('version', '+', 1) }))
        .where('code', '=', 'seaside')
        .execute();
      t.services.tenants.invalidate('seaside');
    };
    await setTheme({ ...theme, texts });
    try {
      // The theme endpoint hands the overrides to the portal as its contract says.
      const answer = await call(t.app, 'GET', '/api/login-domains/seaside.localhost', {
        host: 'seaside.localhost:3000',
      });
      expect(loginDomainResponse.parse(answer.json()).theme.texts).toEqual(texts);

      const german = await (await page('seaside', '/login', { 'accept-language': 'de' })).text();
      expect(german).toContain(
        `<h1 id="kc-heading" tabindex="-1">${escapeHtml(texts.de?.['login.email.heading'] ?? '')}</h1>`,
      );
      expect(german).toContain(`<p>${escapeHtml(texts.de?.['login.email.intro'] ?? '')}</p>`);
      expect(german).not.toContain(`>${de.login.email.heading}</h1>`);
      // No override's markup anywhere: not in the form, not in the script's bootstrap data.
      expect(german).not.toContain('<img src=x');
      expect(german).not.toContain('<script>alert');
      const bootstrap = /<script type="application\/json" id="kc-bootstrap">([^<]*)<\/script>/.exec(
        german,
      )?.[1];
      expect(JSON.parse(bootstrap ?? '{}').branding.theme.texts).toEqual(texts);
      // The title stays the catalogue's.
      expect(german).toContain(`<title>${de.titles.login} | ${theme.name}</title>`);

      const english = await (await page('seaside', '/login?langCode=en')).text();
      expect(english).toContain(`${escapeHtml(texts.en?.['login.email.heading'] ?? '')}</h1>`);
      // English overrides the heading only: the intro is the catalogue's, not German's.
      expect(english).toContain(`<p>${escapeHtml(en.login.email.intro)}</p>`);
      expect(english).not.toContain('<img src=x');

      // A language without overrides shows its own catalogue, never another language's override.
      // (The bootstrap data in the head carries every language's, for the language menu.)
      const thai = await (await page('seaside', '/login?langCode=th')).text();
      const thaiBody = thai.slice(thai.indexOf('<body'));
      expect(thaiBody).toContain(`>${th.login.email.heading}</h1>`);
      expect(thaiBody).toContain(`<p>${th.login.email.intro}</p>`);
      expect(thaiBody).not.toContain('Hallo');
      expect(thaiBody).not.toContain('Welcome');
    } finally {
      await setTheme(theme);
    }
  });

  it("names the tenant in the card's band when its theme has no logo, never a broken image", async () => {
    const row = await t.services.db
      .selectFrom('tenants')
      .select('theme')
      .where('code', '=', 'seaside')
      .executeTakeFirstOrThrow();
    const theme = JSON.parse(row.theme) as Theme;
    const setTheme = async (next: Theme) => {
      await t.services.db
        .updateTable('tenants')
        .set((eb) => ({ theme: JSON.stringify(next), version: eb('version', '+', 1) }))
        .where('code', '=', 'seaside')
        .execute();
      t.services.tenants.invalidate('seaside');
    };
    await setTheme({ ...theme, name: 'Seaside <Resorts>', images: { ...theme.images, logo: '' } });
    try {
      const html = await (await page('seaside', '/login')).text();
      expect(html).toContain(
        '<header class="kc-card-brand"><span class="kc-logo-text">Seaside &lt;Resorts&gt;</span></header>',
      );
      expect(html).not.toContain('class="kc-logo"');
    } finally {
      await setTheme(theme);
    }
  });

  it('answers an unknown host with the plain page: no theme, no form, the portal shows its error', async () => {
    const response = await new Browser().fetch(
      `${origin('grand-hotel').replace('grand-hotel.', 'nobody.')}/login`,
    );
    const html = await response.text();
    expect(html).not.toContain('kc-fp-email');
    expect(html).toContain('"branding":null');
  });
});
