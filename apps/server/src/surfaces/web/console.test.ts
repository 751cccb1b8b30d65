import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { apiErrorSchema, errorCodes, paths } from '@keycard/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTenantSettings } from '../../features/accounts/test-support.ts';
import { buildTestApp, call, engines, type TestApp } from '../../test/helper.ts';
import { listeningTestApp } from '../../test/oidc.ts';

const admin = 'admin.localhost:3000';
const tenant = 'grand-hotel.localhost:3000';
const script = 'console.log("console")';
const consoleIndex =
  '<!doctype html><title>Keycard console</title><script type="module" src="/console/assets/index-c0ns0le.js"></script>';
// Outside the dist directory: no address under /console may ever answer with it.
const secret = 'NOT-FOR-THE-WEB';

const consoleCsp =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; connect-src 'self'; font-src 'self'; frame-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";

/** The console as its Vite build lays it out: index.html, hashed assets with .br and .gz copies. */
function writeConsoleBuild(root: string): string {
  const dist = path.join(root, 'dist');
  mkdirSync(path.join(dist, 'assets'), { recursive: true });
  writeFileSync(path.join(root, 'secret.txt'), secret);
  writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: secret }));
  writeFileSync(path.join(dist, 'index.html'), consoleIndex);
  writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(path.join(dist, '.env'), secret);
  writeFileSync(path.join(dist, 'assets', '.hidden.js'), secret);
  writeFileSync(path.join(dist, 'assets', 'index-c0ns0le.js'), script);
  writeFileSync(path.join(dist, 'assets', 'index-c0ns0le.js.br'), brotliCompressSync(script));
  writeFileSync(path.join(dist, 'assets', 'index-c0ns0le.js.gz'), gzipSync(script));
  writeFileSync(path.join(dist, 'assets', 'index-c0ns0le.css'), 'body{margin:0}');
  return dist;
}

/** The portal's real page template, so the preview route is rendered as the portal's pages are. */
function writePortalBuild(root: string): string {
  const dist = path.join(root, 'portal');
  mkdirSync(path.join(dist, 'assets'), { recursive: true });
  const template = readFileSync(
    path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../portal/index.html'),
    'utf8',
  );
  writeFileSync(path.join(dist, 'index.html'), template);
  return dist;
}

function expectNotFoundAnswer(answer: { statusCode: number; body: string }, url: string) {
  expect(answer.statusCode, url).toBe(404);
  const body = apiErrorSchema.parse(JSON.parse(answer.body));
  expect(body.code, url).toBe(errorCodes.notFound);
}

describe.each(engines)('the admin console on the operator host, on %s', (engine) => {
  let t: TestApp;
  let port: number;
  let root: string;
  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'keycard-console-'));
    const dist = writeConsoleBuild(root);
    ({ t } = await listeningTestApp(engine, {
      env: { CONSOLE_DIST: dist },
      portalDist: writePortalBuild(root),
    }));
    port = t.config.port;
  });
  afterAll(async () => {
    await t.close();
    rmSync(root, { recursive: true, force: true });
  });

  const get = (url: string, host = admin, headers: Record<string, string> = {}) =>
    call(t.app, 'GET', url, { host, origin: null, headers });

  /** A request as it leaves a client that does not tidy up its path (no `..` resolved). */
  function rawGet(rawPath: string, host = admin): Promise<{ statusCode: number; body: string }> {
    return new Promise((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: rawPath, headers: { host } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ statusCode: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
        );
      });
      req.on('error', reject);
      req.end();
    });
  }

  it('serves hashed assets with their type, cached for good', async () => {
    const js = await get('/console/assets/index-c0ns0le.js');
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(js.headers['x-content-type-options']).toBe('nosniff');
    expect(js.body).toBe(script);
    const css = await get('/console/assets/index-c0ns0le.css');
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    expect(css.body).toBe('body{margin:0}');
  });

  it('sends the Brotli or gzip copy the browser accepts, the file itself to others', async () => {
    const br = await get('/console/assets/index-c0ns0le.js', admin, {
      'accept-encoding': 'gzip, deflate, br',
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);
    const gzip = await get('/console/assets/index-c0ns0le.js', admin, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(script);
    const plain = await get('/console/assets/index-c0ns0le.js', admin, { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('answers every console screen with index.html, never cached, under a strict policy', async () => {
    for (const url of [
      '/console/',
      '/console/index.html',
      '/console/tenants/grand-hotel/theme',
      '/console/callback?code=abc&state=xyz',
    ]) {
      const page = await get(url);
      expect(page.statusCode, url).toBe(200);
      expect(page.headers['content-type'], url).toBe('text/html; charset=utf-8');
      expect(page.body, url).toBe(consoleIndex);
      expect(page.headers['cache-control'], url).toBe('no-store');
      expect(page.headers['content-security-policy'], url).toBe(consoleCsp);
      expect(page.headers['x-frame-options'], url).toBe('DENY');
      expect(page.headers['referrer-policy'], url).toBe('no-referrer');
      expect(page.headers['x-content-type-options'], url).toBe('nosniff');
    }
  });

  it('leads /console and the operator host itself to /console/, keeping the query', async () => {
    for (const [url, location] of [
      ['/console', '/console/'],
      ['/console?lang=de', '/console/?lang=de'],
      ['/', '/console/'],
    ] as const) {
      const answer = await get(url);
      expect(answer.statusCode, url).toBe(302);
      expect(answer.headers.location, url).toBe(location);
    }
  });

  it('answers a missing file or a dotfile with a 404, not with the page', async () => {
    for (const url of [
      '/console/assets/missing-0000.js',
      '/console/robots.txt',
      '/console/assets/.hidden.js',
    ]) {
      const answer = await get(url);
      expectNotFoundAnswer(answer, url);
      expect(answer.body).not.toContain(secret);
    }
    // No extension: a screen's address, so the page, never the file.
    const dotfile = await get('/console/.env');
    expect(dotfile.body).toBe(consoleIndex);
    const favicon = await get('/console/favicon.svg');
    expect(favicon.statusCode).toBe(200);
    expect(favicon.headers['cache-control']).toBe('no-cache');
  });

  it('gives no file outside the build, however the way out is spelled', async () => {
    for (const raw of [
      '/console/assets/../../package.json',
      '/console/assets/../../secret.txt',
      '/console/../secret.txt',
      '/console/assets/%2e%2e/%2e%2e/secret.txt',
      '/console/assets/..%2f..%2fsecret.txt',
      '/console/assets/%2E%2E%2F%2E%2E%2Fpackage.json',
      '/console/assets/..%5c..%5csecret.txt',
      '/console/assets/%252e%252e%252f%252e%252e%252fsecret.txt',
      '/console/%2e%2e/secret.txt',
    ]) {
      const answer = await rawGet(raw);
      expect(answer.body, raw).not.toContain(secret);
      expect(answer.statusCode, raw).toBe(404);
    }
  });

  it('does not exist on a tenant host: /console and its assets are the ordinary 404', async () => {
    for (const url of ['/console/assets/index-c0ns0le.js', '/console/favicon.svg']) {
      expectNotFoundAnswer(await get(url, tenant), url);
    }
    for (const url of ['/console', '/console/', '/console/tenants']) {
      const answer = await get(url, tenant);
      expect(answer.statusCode, url).toBe(404);
      expect(answer.body, url).not.toContain('Keycard console');
      // The portal's not-found page, with the portal's headers.
      expect(answer.headers['content-security-policy'], url).toContain("frame-ancestors 'none'");
      expect(answer.headers['content-security-policy'], url).not.toContain('frame-src');
    }
    const home = await get('/', tenant);
    expect(home.statusCode).toBe(200);
    expect(home.headers['content-type']).toContain('text/html');
  });

  it('lets the console frame the theme preview on the operator host, and nothing else', async () => {
    const preview = await get(paths.preview.replace(':screen', 'login'));
    expect(preview.statusCode).toBe(200);
    expect(preview.headers['content-type']).toContain('text/html');
    expect(preview.headers['x-frame-options']).toBe('SAMEORIGIN');
    const csp = String(preview.headers['content-security-policy']);
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).not.toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self';");
    // The operator tenant's own sign-in pages stay unframeable.
    for (const url of ['/login', '/login/password', '/mfa']) {
      const page = await get(url);
      expect(page.statusCode, url).toBe(200);
      expect(page.headers['x-frame-options'], url).toBe('DENY');
      expect(page.headers['content-security-policy'], url).toContain("frame-ancestors 'none'");
    }
  });

  it('never serves the preview on a tenant host', async () => {
    for (const url of ['/preview/login', '/preview/password', '/preview/', '/preview']) {
      const answer = await get(url, tenant);
      expectNotFoundAnswer(answer, url);
      expect(answer.headers['x-frame-options'], url).toBe('DENY');
      expect(answer.headers['content-security-policy'], url).toContain("frame-ancestors 'none'");
    }
  });
});

describe('the admin console before it is built', () => {
  let t: TestApp;
  let empty: string;
  beforeAll(async () => {
    empty = mkdtempSync(path.join(tmpdir(), 'keycard-console-unbuilt-'));
    t = await buildTestApp('sqlite', { env: { CONSOLE_DIST: empty } });
  });
  afterAll(async () => {
    await t.close();
    rmSync(empty, { recursive: true, force: true });
  });

  it('says how to build it, on the operator host only', async () => {
    for (const url of ['/console/', '/console/tenants']) {
      const answer = await call(t.app, 'GET', url, { host: admin, origin: null });
      expect(answer.statusCode, url).toBe(503);
      expect(answer.headers['content-type'], url).toBe('text/plain; charset=utf-8');
      expect(answer.body, url).toContain('npm run build');
    }
    expectNotFoundAnswer(
      await call(t.app, 'GET', '/console/assets/index-c0ns0le.js', { host: admin, origin: null }),
      'asset',
    );
    expect((await call(t.app, 'GET', '/console/', { host: tenant, origin: null })).statusCode).toBe(404);
  });
});

describe.each(engines)(
  'the console when the tenant of the operator host widens its pages, on %s',
  (engine) => {
    let t: TestApp;
    let root: string;
    // A tenant's captcha widens its pages' policy; here the operator host is that tenant's domain.
    const host = 'grand-hotel.localhost:3000';
    beforeAll(async () => {
      root = mkdtempSync(path.join(tmpdir(), 'keycard-console-captcha-'));
      t = await buildTestApp(engine, {
        env: { ADMIN_DOMAIN: 'grand-hotel.localhost', CONSOLE_DIST: writeConsoleBuild(root) },
        portalDist: writePortalBuild(root),
      });
      await setTenantSettings(t, {
        captcha: {
          siteKey: 'site-key-123',
          secret: 'captcha-secret',
          verifyUrl: 'https://captcha.example/verify',
          scriptUrl: 'https://captcha.example/api.js',
        } as never,
      });
    });
    afterAll(async () => {
      await t.close();
      rmSync(root, { recursive: true, force: true });
    });

    it("keeps the console's own policy, and the preview framed by its own origin only", async () => {
      const login = await call(t.app, 'GET', '/login', { host, origin: null });
      expect(login.headers['content-security-policy']).toContain('https://captcha.example');
      const page = await call(t.app, 'GET', '/console/', { host, origin: null });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-security-policy']).toBe(consoleCsp);
      const preview = await call(t.app, 'GET', '/preview/login', { host, origin: null });
      expect(preview.statusCode).toBe(200);
      expect(preview.headers['content-security-policy']).toContain("frame-ancestors 'self'");
      expect(preview.headers['x-frame-options']).toBe('SAMEORIGIN');
    });
  },
);
