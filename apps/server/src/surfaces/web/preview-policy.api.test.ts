import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { paths } from '@keycard/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTenantSettings } from '../../features/accounts/test-support.ts';
import { buildTestApp, call, engines, type TestApp } from '../../test/helper.ts';

/** A policy as its directives: name → sources. */
function directives(csp: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const directive of csp
    .split(';')
    .map((d) => d.trim())
    .filter(Boolean)) {
    const [name = '', ...sources] = directive.split(/\s+/);
    found.set(name, sources);
  }
  return found;
}

/**
 * The theme preview's own policy (security.ts): it reaches nothing, and what widens the
 * operator tenant's sign-in pages (a captcha, a chat widget) does not widen it. Here the
 * operator host is a demo tenant's login domain, with both configured.
 */
describe.each(engines)('the theme preview’s policy on %s', (engine) => {
  let t: TestApp;
  let root: string;
  const host = 'grand-hotel.localhost:3000';
  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'keycard-preview-policy-'));
    // The portal's real page template, so the preview is rendered with its style nonce.
    const dist = path.join(root, 'portal');
    mkdirSync(path.join(dist, 'assets'), { recursive: true });
    const template = readFileSync(
      path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../portal/index.html'),
      'utf8',
    );
    writeFileSync(path.join(dist, 'index.html'), template);
    t = await buildTestApp(engine, { env: { ADMIN_DOMAIN: 'grand-hotel.localhost' }, portalDist: dist });
    await setTenantSettings(t, {
      captcha: {
        siteKey: 'site-key-123',
        secret: 'captcha-secret',
        verifyUrl: 'https://captcha.example/verify',
        scriptUrl: 'https://captcha.example/api.js',
      } as never,
      messenger: {
        provider: 'intercom',
        appId: 'abc123xy',
        domains: ['grand-hotel.localhost'],
        scriptUrl: null,
      },
    });
  });
  afterAll(async () => {
    await t.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('allows no requests and no form posts, only drawing, whatever widens the sign-in pages', async () => {
    // The operator tenant's sign-in page is widened for its captcha and its chat widget.
    const login = await call(t.app, 'GET', paths.login, { host, origin: null });
    expect(login.statusCode).toBe(200);
    const loginCsp = directives(String(login.headers['content-security-policy']));
    expect(loginCsp.get('script-src')).toContain('https://captcha.example');
    expect(loginCsp.get('connect-src')?.join(' ')).toMatch(/intercom/);

    for (const screen of ['login', 'password', 'reset', 'mfa', 'error']) {
      const preview = await call(t.app, 'GET', paths.preview.replace(':screen', screen), {
        host,
        origin: null,
      });
      expect(preview.statusCode, screen).toBe(200);
      expect(preview.headers['x-frame-options'], screen).toBe('SAMEORIGIN');
      const csp = String(preview.headers['content-security-policy']);
      expect(csp, screen).not.toMatch(/captcha\.example|intercom/);
      const nonce = /<style nonce="([^"]+)"/.exec(preview.body)?.[1];
      expect(nonce, screen).toBeTruthy();
      expect(Object.fromEntries(directives(csp)), screen).toEqual({
        'default-src': ["'none'"],
        'script-src': ["'self'"],
        'style-src': ["'self'", `'nonce-${nonce}'`],
        'img-src': ["'self'", 'https:'],
        'font-src': ["'self'"],
        'connect-src': ["'none'"],
        'form-action': ["'none'"],
        'object-src': ["'none'"],
        'base-uri': ["'none'"],
        'frame-ancestors': ["'self'"],
      });
    }
  });
});
