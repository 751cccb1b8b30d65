import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { de } from '@keycard/texts/de';
import { en } from '@keycard/texts/en';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, demo, engines, signIn, type TestApp } from '../../test/helper.ts';

const template = readFileSync(
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../portal/index.html'),
  'utf8',
);

const signedInBlock = /<script type="application\/json" id="kc-signed-in">([^<]*)<\/script>/;

/** Issue 19, item 13: /login with a live session says who is signed in, from the first paint. */
describe.each(engines)('the login page with a live session on %s', (engine) => {
  let t: TestApp;
  let dist: string;
  let cookie: string;

  beforeAll(async () => {
    dist = mkdtempSync(path.join(tmpdir(), 'keycard-live-session-'));
    writeFileSync(path.join(dist, 'index.html'), template);
    mkdirSync(path.join(dist, 'assets'));
    t = await buildTestApp(engine, { portalDist: dist });
    ({ cookie } = await signIn(t.app));
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  const loginPage = async (pathAndQuery: string, options: { host?: string; cookie?: string } = {}) => {
    const response = await call(t.app, 'GET', pathAndQuery, { origin: null, ...options });
    expect(response.statusCode).toBe(200);
    return response.body;
  };

  it('names the session, with the way on and the way out, in the page and for the script', async () => {
    const html = await loginPage('/login', { cookie });
    expect(html).toContain(en.login.signedIn.notice.replace('{{email}}', demo.grandHotel.email));
    expect(html).toContain(`<a class="kc-button" href="/authenticated">${en.login.signedIn.continue}</a>`);
    expect(html).toContain(`href="/logout">${en.login.signedIn.logOut}</a>`);
    expect(JSON.parse(signedInBlock.exec(html)?.[1] ?? 'null')).toEqual({ email: demo.grandHotel.email });
    const response = await call(t.app, 'GET', '/login', { origin: null, cookie });
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect((await call(t.app, 'GET', '/login', { origin: null })).headers['cache-control']).toBe('no-cache');
    // In the page's language.
    const german = await loginPage('/login?langCode=de', { cookie });
    expect(german).toContain(de.login.signedIn.notice.replace('{{email}}', demo.grandHotel.email));
  });

  it('says nothing without a session, on another tenant, on other pages, or when an app asks', async () => {
    for (const html of [
      await loginPage('/login'),
      await loginPage('/login', { cookie: 'AUTH_X_TOKEN=not-a-session' }),
      // The same cookie on another tenant's host is no session there.
      await loginPage('/login', { cookie, host: demo.seaside.host }),
      await loginPage('/login/password', { cookie }),
      await loginPage('/login?iid=abc', { cookie }),
      await loginPage('/login?loggedOut=true', { cookie }),
    ]) {
      expect(html).not.toMatch(signedInBlock);
      expect(html).not.toContain('kc-live-session');
    }
  });

  it('stops naming a session once it is logged out', async () => {
    const session = await signIn(t.app);
    expect(await loginPage('/login', { cookie: session.cookie })).toMatch(signedInBlock);
    const logout = await call(t.app, 'POST', '/api/logout', { cookie: session.cookie, body: {} });
    expect(logout.statusCode).toBe(200);
    expect(await loginPage('/login', { cookie: session.cookie })).not.toMatch(signedInBlock);
  });
});
