import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { de } from '@keycard/texts/de';
import { en } from '@keycard/texts/en';
import { fr } from '@keycard/texts/fr';
import { th } from '@keycard/texts/th';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displayedErrorCode } from '../../surfaces/oidc/pages.ts';
import { demo, engines, type TestApp } from '../../test/helper.ts';
import { Browser } from '../../test/http-client.ts';
import { demoRedirectUri, discoverIssuer, listeningTestApp } from '../../test/oidc.ts';
import { appSignIn, passwordStep, sessionExists } from '../../test/sign-in-flow.ts';

// The portal's real page template (Vite only adds its script and stylesheet links to it).
const template = readFileSync(
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../portal/index.html'),
  'utf8',
).replace(
  '</head>',
  '<script type="module" src="/assets/index-test.js"></script><link rel="stylesheet" crossorigin href="/assets/index-test.css"></head>',
);

const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

/** An authorization request's URL on a tenant's issuer, with these parameters. */
function authorizationUrl(origin: string, params: Record<string, string>): string {
  const query = new URLSearchParams({
    response_type: 'code',
    scope: 'openid',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...params,
  });
  return `${origin}/oidc/auth?${query}`;
}

/** The page's data block for the portal's provider screen. */
function providerData(html: string): unknown {
  const json = /<script type="application\/json" id="kc-provider-page">([^<]*)<\/script>/.exec(html)?.[1];
  return JSON.parse(json ?? 'null');
}

describe('the provider error code shown', () => {
  it('is the provider’s stable code, and nothing that is not one', () => {
    expect(displayedErrorCode('invalid_client')).toBe('invalid_client');
    expect(displayedErrorCode('<script>alert(1)</script>')).toBe('server_error');
    expect(displayedErrorCode(undefined)).toBe('server_error');
  });
});

describe.each(engines)("the provider's own pages as portal pages on %s", (engine) => {
  let t: TestApp;
  let origin: (tenant: string) => string;
  let dist: string;

  beforeAll(async () => {
    dist = mkdtempSync(path.join(tmpdir(), 'keycard-provider-pages-'));
    writeFileSync(path.join(dist, 'index.html'), template);
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'assets', 'index-test.css'), '.kc-card{padding:2rem}');
    ({ t, origin } = await listeningTestApp(engine, { portalDist: dist }));
  });
  afterAll(async () => {
    await t.close();
    rmSync(dist, { recursive: true, force: true });
  });

  async function themeOf(code: string) {
    const tenant = await t.services.tenants.resolveHost(`${code}.localhost`);
    if (!tenant) throw new Error(`no demo tenant ${code}`);
    return tenant.theme;
  }

  /** What every page of the tenant carries: colours, logo, favicon, the page's nonce. */
  async function expectBranded(code: string, response: Response, html: string) {
    const theme = await themeOf(code);
    expect(html).toContain(`--kc-primary-bg:${theme.colours.primaryBackground}`);
    expect(html).toContain(`--kc-secondary-bg:${theme.colours.secondaryBackground}`);
    expect(html).toContain(`src="${theme.images.logo}"`);
    expect(html).toContain(`<link rel="icon" href="${theme.images.favicon}">`);
    // The portal's stylesheet inline, allowed by the page's nonce and nothing wider.
    const nonce = /<style nonce="([^"]+)">/.exec(html)?.[1];
    expect(nonce).toBeTruthy();
    expect(html).toContain(`<style nonce="${nonce}">.kc-card{padding:2rem}</style>`);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain(`style-src 'self' 'nonce-${nonce}'`);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    return theme;
  }

  it("refuses an unknown client on one tenant, in its colours and the app's ui_locales", async () => {
    const response = await new Browser().fetch(
      authorizationUrl(origin('grand-hotel'), {
        client_id: 'no-such-app',
        redirect_uri: demoRedirectUri,
        ui_locales: 'de-CH en',
      }),
      { headers: { 'accept-language': 'fr' } },
    );
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    const theme = await expectBranded('grand-hotel', response, html);
    expect(html).toContain('<html lang="de"');
    expect(html).toContain(`<title>${de.titles.requestRefused} | ${theme.name}</title>`);
    expect(html).toContain(`<h1 id="kc-heading" tabindex="-1">${de.titles.requestRefused}</h1>`);
    expect(html).toContain(`<p>${de.errors.provider.reasons.invalid_client}</p>`);
    expect(html).toContain(`${de.errors.provider.codeLabel}: <code>invalid_client</code>`);
    // The provider's English description is not shown.
    expect(html).not.toContain('client is invalid');
    expect(providerData(html)).toEqual({ kind: 'error', code: 'invalid_client', request: 'sign-in' });
  });

  it("refuses an unregistered redirect_uri on another tenant, in its colours and the browser's language", async () => {
    const response = await new Browser().fetch(
      authorizationUrl(origin('seaside'), {
        client_id: 'demo-app',
        redirect_uri: 'https://evil.example/cb',
        state: 'abc',
      }),
      { headers: { 'accept-language': 'th-TH,th;q=0.9,en;q=0.5' } },
    );
    // Shown, never redirected to the unregistered address.
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    const html = await response.text();
    const theme = await expectBranded('seaside', response, html);
    expect(theme.name).not.toBe((await themeOf('grand-hotel')).name);
    expect(html).toContain('<html lang="th"');
    expect(html).toContain(`<title>${th.titles.requestRefused} | ${theme.name}</title>`);
    expect(html).toContain(`<p>${th.errors.provider.reasons.invalid_redirect_uri}</p>`);
    expect(html).toContain('<code>invalid_redirect_uri</code>');
    expect(html).not.toContain('evil.example');
    expect(providerData(html)).toMatchObject({ code: 'invalid_redirect_uri' });
  });

  it('takes ui_locales over Accept-Language, the language this browser chose over both, and langCode over all', async () => {
    const url = authorizationUrl(origin('seaside'), {
      client_id: 'demo-app',
      redirect_uri: 'https://evil.example/cb',
      ui_locales: 'fr',
    });
    const french = await (await new Browser().fetch(url, { headers: { 'accept-language': 'de' } })).text();
    expect(french).toContain('<html lang="fr"');
    expect(french).toContain(`<p>${fr.errors.provider.reasons.invalid_redirect_uri}</p>`);
    const chosen = await (
      await new Browser().fetch(url, { headers: { 'accept-language': 'de', cookie: 'AUTH_X_LANG=th' } })
    ).text();
    expect(chosen).toContain('<html lang="th"');
    const langCode = await (
      await new Browser().fetch(`${url}&langCode=it`, { headers: { cookie: 'AUTH_X_LANG=th' } })
    ).text();
    expect(langCode).toContain('<html lang="it"');
  });

  it('reflects nothing of the request: markup in its parameters is neither run nor shown', async () => {
    const attack = '<script>alert(1)</script>';
    const requests: Record<string, string>[] = [
      { client_id: attack, redirect_uri: demoRedirectUri, state: attack },
      {
        client_id: 'demo-app',
        redirect_uri: `https://evil.example/${attack}`,
        state: attack,
        ui_locales: attack,
      },
    ];
    for (const params of requests) {
      const response = await new Browser().fetch(authorizationUrl(origin('grand-hotel'), params));
      expect(response.status).toBe(400);
      const html = await response.text();
      expect(html).not.toContain('<script>alert');
      expect(html).not.toContain('alert(1)');
      expect(html).toContain('<html lang="en"');
      expect(html).toMatch(/<code>invalid_(client|redirect_uri)<\/code>/);
    }
  });

  for (const code of ['grand-hotel', 'seaside'] as const) {
    it(`shows RP-initiated logout in ${code}'s branding and still ends the session`, async () => {
      const email = code === 'grand-hotel' ? demo.grandHotel.email : demo.seaside.email;
      const config = await discoverIssuer(origin(code));
      const browser = new Browser();
      await passwordStep(browser, origin(code), code, email);
      const tokens = await appSignIn(config, browser, origin(code));
      const endSession = client.buildEndSessionUrl(config, {
        id_token_hint: tokens.id_token!,
        post_logout_redirect_uri: 'http://localhost:3001/',
        ui_locales: 'de',
      });
      const page = await browser.fetch(endSession.href, { headers: { 'accept-language': 'th' } });
      expect(page.status).toBe(200);
      const html = await page.text();
      const theme = await expectBranded(code, page, html);
      expect(html).toContain('<html lang="de"');
      expect(html).toContain(`<title>${de.titles.logout} | ${theme.name}</title>`);
      expect(html).toContain(`<p>${de.logout.provider.body}</p>`);
      // The provider's form (with its CSRF token) sits outside what the portal script
      // replaces; the script submits it, and without JavaScript the card's button does.
      expect(html).toMatch(
        /<\/div><form id="op\.logoutForm" method="post" action="[^"]+"><input type="hidden" name="xsrf" value="[^"]+"\/><\/form><script src="\/_keycard\/logout\.js"><\/script>/,
      );
      expect(html).toContain(
        `<button class="kc-button" type="submit" form="op.logoutForm" name="logout" value="yes">${de.logout.provider.submit}</button>`,
      );
      expect(providerData(html)).toEqual({ kind: 'logout' });

      const action = html.match(/<form id="op\.logoutForm"[^>]*action="([^"]+)"/)?.[1];
      const xsrf = html.match(/name="xsrf" value="([^"]+)"/)?.[1];
      const confirmed = await browser.fetch(new URL(action!, origin(code)).href, {
        method: 'POST',
        form: { xsrf: xsrf!, logout: 'yes' },
      });
      expect(confirmed.status).toBe(303);
      expect(confirmed.headers.get('location')).toBe('http://localhost:3001/');
      expect(await sessionExists(browser, origin(code))).toBe(false);
    });
  }

  it('refuses a forged logout confirmation on a branded page, and the session stays', async () => {
    const browser = new Browser();
    await passwordStep(browser, origin('seaside'), 'seaside', demo.seaside.email);
    await appSignIn(await discoverIssuer(origin('seaside')), browser, origin('seaside'));
    const forged = await browser.fetch(`${origin('seaside')}/oidc/session/end/confirm`, {
      method: 'POST',
      form: { xsrf: 'forged', logout: 'yes' },
      headers: { accept: 'text/html', 'accept-language': 'en' },
    });
    expect(forged.status).toBe(400);
    const html = await forged.text();
    await expectBranded('seaside', forged, html);
    expect(html).toContain(`<h1 id="kc-heading" tabindex="-1">${en.titles.logoutRefused}</h1>`);
    expect(html).toContain('<code>invalid_request</code>');
    expect(providerData(html)).toEqual({ kind: 'error', code: 'invalid_request', request: 'log-out' });
    expect(await sessionExists(browser, origin('seaside'))).toBe(true);
  });
});
