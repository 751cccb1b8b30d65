import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, demo, engines, signIn, type TestApp } from '../../test/helper.ts';

// The portal's real page template (Vite only adds its script and stylesheet links to it).
const template = readFileSync(
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../portal/index.html'),
  'utf8',
);

/** A page's Content-Security-Policy with its per-page nonce taken out, to compare kinds. */
const policyOf = (headers: Record<string, unknown>) =>
  String(headers['content-security-policy']).replace(/'nonce-[^']+'/g, "'nonce'");

describe.each(engines)('the account page on every login domain (%s)', (engine) => {
  let t: TestApp;
  let dist: string;

  beforeAll(async () => {
    dist = mkdtempSync(path.join(tmpdir(), 'keycard-account-page-'));
    writeFileSync(path.join(dist, 'index.html'), template);
    mkdirSync(path.join(dist, 'assets'));
    t = await buildTestApp(engine, { portalDist: dist });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it("is a portal page on each tenant's login domain and alias, with the portal's page policy", async () => {
    for (const [host, name] of [
      ['grand-hotel.localhost:3000', 'Grand Hotel Group'],
      ['localhost:3000', 'Grand Hotel Group'],
      ['seaside.localhost:3000', 'Seaside Resorts'],
      ['summit.localhost:3000', 'Summit'],
    ] as const) {
      const page = await call(t.app, 'GET', '/account', { host, origin: null });
      expect(page.statusCode, host).toBe(200);
      expect(page.headers['content-type'], host).toContain('text/html');
      expect(page.headers['cache-control'], host).toBe('no-cache');
      expect(page.body, host).toContain(`<title>Your account | ${name}</title>`);
      const login = await call(t.app, 'GET', '/login', { host, origin: null });
      expect(policyOf(page.headers), host).toBe(policyOf(login.headers));
      expect(page.headers['x-frame-options'], host).toBe(login.headers['x-frame-options']);
    }
    const german = await call(t.app, 'GET', '/account?langCode=de', { origin: null });
    expect(german.body).toContain('<title>Ihr Konto | Grand Hotel Group</title>');
  });

  it("takes the portal's own /account as the target after a sign-in, and nothing like it elsewhere", async () => {
    const { cookie } = await signIn(t.app, demo.grandHotel);
    const own = await call(t.app, 'POST', '/api/authorize', {
      cookie,
      body: { redirectUri: 'http://grand-hotel.localhost:3000/account' },
    });
    expect(own.json()).toEqual({ location: 'http://grand-hotel.localhost:3000/account' });

    for (const redirectUri of [
      // Another tenant's account page, and look-alikes of this one's.
      'http://seaside.localhost:3000/account',
      'https://grand-hotel.localhost:3000/account',
      'http://grand-hotel.localhost:3001/account',
      'http://grand-hotel.localhost:3000.evil.example/account',
      'http://grand-hotel.localhost:3000@evil.example/account',
      'https://evil.example/account',
      '//evil.example/account',
      '/account',
      'javascript://grand-hotel.localhost:3000/account',
    ]) {
      const refused = await call(t.app, 'POST', '/api/authorize', { cookie, body: { redirectUri } });
      expect(refused.statusCode, redirectUri).toBe(400);
      expect(refused.json().code, redirectUri).toBe('redirect.not_allowed');
    }
  });
});
