import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { messengerConfigResponse } from '@keycard/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { securityHeaders } from '../../platform/http/security.ts';
import { buildTestApp, call, demo, engines, type TestApp } from '../../test/helper.ts';
import { runCliOn, setTenantSettings } from '../accounts/test-support.ts';
import type { TenantSettings } from '../tenants/tenant.types.ts';
import { intercomCsp } from './messenger.ts';

const intercom: TenantSettings['messenger'] = {
  provider: 'intercom',
  appId: 'abc123xy',
  domains: ['seaside.localhost'],
  scriptUrl: null,
};

/** The directive of a policy by name, as its list of sources. */
function directive(csp: string, name: string): string[] {
  const found = csp
    .split(';')
    .map((d) => d.trim())
    .find((d) => d.startsWith(`${name} `));
  return found ? found.split(/\s+/).slice(1) : [];
}

describe.each(engines)('messenger widget on %s', (engine) => {
  let t: TestApp;
  let dist: string;

  beforeAll(async () => {
    // A built portal of its own, so pages are rendered per host with their style nonce.
    dist = mkdtempSync(path.join(tmpdir(), 'keycard-messenger-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(
      path.join(dist, 'index.html'),
      '<!doctype html><html lang="en"><head><title>Keycard</title></head><body><div id="root"></div></body></html>',
    );
    t = await buildTestApp(engine, { portalDist: dist });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dist, { recursive: true, force: true });
  });

  const run = (...argv: string[]) => runCliOn(t, ...argv);
  const page = (host: string, url = '/login') => call(t.app, 'GET', url, { host, origin: null });
  const baseCsp = () => securityHeaders(t.config, '/login')['content-security-policy']!;

  it('is set by the CLI, shown back, and bad values are refused', async () => {
    try {
      const changed = await run(
        'tenant-settings',
        '--tenant',
        'seaside',
        '--set',
        'messenger.provider=intercom',
        '--set',
        'messenger.appId=abc123xy',
        '--set',
        'messenger.domains=Seaside.localhost, sea.localhost',
      );
      expect(changed.code, changed.err).toBe(0);
      expect(JSON.parse(changed.out).messenger).toEqual({
        provider: 'intercom',
        appId: 'abc123xy',
        domains: ['seaside.localhost', 'sea.localhost'],
        scriptUrl: null,
      });
      t.services.tenants.invalidate();
      expect((await t.services.tenants.byCode('seaside'))!.settings.messenger.domains).toEqual([
        'seaside.localhost',
        'sea.localhost',
      ]);
      for (const bad of [
        'messenger.provider=drift',
        'messenger.appId=two words',
        'messenger.domains=https://seaside.localhost',
        'messenger.domains=seaside.localhost:3000',
        'messenger.scriptUrl=not a url',
      ]) {
        const refused = await run('tenant-settings', '--tenant', 'seaside', '--set', bad);
        expect(refused.code, bad).toBe(2);
      }
      const off = await run('tenant-settings', '--tenant', 'seaside', '--set', 'messenger.domains=none');
      expect(JSON.parse(off.out).messenger.domains).toEqual([]);
    } finally {
      await setTenantSettings(t, {}, 'seaside');
    }
    // A tenant without a widget reads as before.
    const shown = await run('tenant-settings', '--tenant', 'seaside');
    expect(JSON.parse(shown.out)).not.toHaveProperty('messenger');
  });

  it('is set by keycard apply and comes back in keycard export; a bad domain is refused', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'keycard-messenger-apply-'));
    try {
      const exported = await run('export', '--tenant', 'seaside');
      expect(exported.code, exported.err).toBe(0);
      const file = parse(exported.out) as { tenants: Array<{ settings: Record<string, unknown> }> };
      file.tenants[0]!.settings.messenger = {
        provider: 'intercom',
        appId: 'abc123xy',
        domains: ['seaside.localhost'],
      };
      const good = path.join(dir, 'good.yaml');
      writeFileSync(good, stringify(file));
      const applied = await run('apply', '-f', good);
      expect(applied, applied.err).toMatchObject({ code: 0 });
      expect((await t.services.tenants.byCode('seaside'))!.settings.messenger).toEqual(intercom);
      const again = parse((await run('export', '--tenant', 'seaside')).out) as typeof file;
      expect(again.tenants[0]!.settings.messenger).toEqual(intercom);

      file.tenants[0]!.settings.messenger = { provider: 'intercom', domains: ['https://seaside.localhost/'] };
      const bad = path.join(dir, 'bad.yaml');
      writeFileSync(bad, stringify(file));
      const refused = await run('apply', '-f', bad);
      expect(refused.code).not.toBe(0);
      expect(refused.err + refused.out).toContain('messenger.domains');
    } finally {
      await setTenantSettings(t, {}, 'seaside');
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("answers each tenant's runtime configuration, and nothing for a tenant without one", async () => {
    await setTenantSettings(t, { messenger: intercom }, 'seaside');
    try {
      const seaside = await call(t.app, 'GET', '/api/messenger', { host: demo.seaside.host });
      expect(seaside.statusCode).toBe(200);
      expect(messengerConfigResponse.parse(seaside.json())).toEqual({
        provider: 'intercom',
        appId: 'abc123xy',
        domains: ['seaside.localhost'],
        scriptUrl: 'https://widget.intercom.io/widget/abc123xy',
      });
      const grand = await call(t.app, 'GET', '/api/messenger', { host: demo.grandHotel.host });
      expect(messengerConfigResponse.parse(grand.json())).toEqual({
        provider: null,
        appId: null,
        domains: [],
        scriptUrl: null,
      });
      // Incomplete settings (Intercom without an app id) are no widget at all.
      await setTenantSettings(t, { messenger: { ...intercom, appId: null } }, 'seaside');
      const incomplete = await call(t.app, 'GET', '/api/messenger', { host: demo.seaside.host });
      expect(incomplete.json().provider).toBeNull();
    } finally {
      await setTenantSettings(t, {}, 'seaside');
    }
  });

  it("widens the page's CSP only for the tenant's domains and only by Intercom's origins, keeping the style nonce", async () => {
    await setTenantSettings(t, { messenger: intercom }, 'seaside');
    try {
      const seaside = await page(demo.seaside.host);
      expect(seaside.statusCode).toBe(200);
      const csp = String(seaside.headers['content-security-policy']);
      const nonce = /<style nonce="([^"]+)">/.exec(seaside.body)?.[1];
      expect(nonce).toBeTruthy();
      expect(directive(csp, 'style-src')).toEqual(["'self'", `'nonce-${nonce}'`]);
      expect(directive(csp, 'script-src')).toEqual(["'self'", ...intercomCsp['script-src']!]);
      expect(directive(csp, 'connect-src')).toEqual(["'self'", ...intercomCsp['connect-src']!]);
      expect(directive(csp, 'connect-src')).toContain('wss://nexus-websocket-a.intercom.io');
      expect(directive(csp, 'frame-src')).toEqual(["'self'", ...intercomCsp['frame-src']!]);
      expect(directive(csp, 'form-action')).toEqual(["'self'", ...intercomCsp['form-action']!]);
      // Everything else is as strict as before: no wildcard, no inline script or style.
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).not.toContain('*');
      expect(directive(csp, 'object-src')).toEqual(["'none'"]);
      expect(directive(csp, 'frame-ancestors')).toEqual(["'none'"]);
      for (const source of csp.split(/[\s;]+/).filter((s) => /^(https|wss):\/\//.test(s))) {
        expect(new URL(source).hostname, source).toMatch(
          /(^|\.)(intercom\.io|intercomcdn\.com|intercomcdn\.eu|intercomusercontent\.com|intercom\.help|intercom-sheets\.com|intercom-reporting\.com)$/,
        );
      }

      // Another tenant's page, and the API, keep the portal's policy.
      const grand = await page(demo.grandHotel.host);
      const grandNonce = /<style nonce="([^"]+)">/.exec(grand.body)?.[1];
      expect(String(grand.headers['content-security-policy'])).toBe(
        baseCsp().replace("style-src 'self'", `style-src 'self' 'nonce-${grandNonce}'`),
      );
      const api = await call(t.app, 'GET', '/api/messenger', { host: demo.seaside.host });
      expect(String(api.headers['content-security-policy'])).toBe(baseCsp());

      // The tenant's own host that is not in the list is not widened either.
      await setTenantSettings(
        t,
        { messenger: { ...intercom, domains: ['login.seaside.example'] } },
        'seaside',
      );
      const elsewhere = await page(demo.seaside.host);
      expect(String(elsewhere.headers['content-security-policy'])).not.toContain('intercom');
    } finally {
      await setTenantSettings(t, {}, 'seaside');
    }
  });

  it('keeps each page to its own tenant under 24 parallel requests, with a fresh nonce each', async () => {
    await setTenantSettings(t, { messenger: intercom }, 'seaside');
    try {
      const hosts = Array.from({ length: 24 }, (_, i) => (i % 2 ? demo.seaside.host : demo.grandHotel.host));
      const answers = await Promise.all(hosts.map((host) => page(host)));
      const nonces = new Set<string>();
      answers.forEach((answer, i) => {
        const csp = String(answer.headers['content-security-policy']);
        const nonce = /<style nonce="([^"]+)">/.exec(answer.body)?.[1] ?? '';
        nonces.add(nonce);
        expect(directive(csp, 'style-src')).toEqual(["'self'", `'nonce-${nonce}'`]);
        if (hosts[i] === demo.seaside.host)
          expect(directive(csp, 'script-src')).toContain('https://widget.intercom.io');
        else expect(csp).not.toContain('intercom');
      });
      expect(nonces.size).toBe(hosts.length);
    } finally {
      await setTenantSettings(t, {}, 'seaside');
    }
  });

  it("keeps the captcha's origins beside the messenger's when a tenant uses both", async () => {
    await setTenantSettings(
      t,
      {
        messenger: intercom,
        captcha: { siteKey: 'site-key', secret: null, verifyUrl: null },
      },
      'seaside',
    );
    try {
      const csp = String(
        (await page(demo.seaside.host, '/reset-password/')).headers['content-security-policy'],
      );
      expect(directive(csp, 'script-src')).toEqual(
        expect.arrayContaining([
          "'self'",
          'https://www.google.com',
          'https://www.gstatic.com',
          'https://widget.intercom.io',
        ]),
      );
      expect(directive(csp, 'style-src')).toHaveLength(2);
      expect(directive(csp, 'style-src')[1]).toMatch(/^'nonce-/);
    } finally {
      await setTenantSettings(t, {}, 'seaside');
    }
  });

  it("allows only the stand-in's own origin, outside production", async () => {
    await setTenantSettings(
      t,
      {
        messenger: {
          provider: 'standin',
          appId: null,
          domains: ['seaside.localhost'],
          scriptUrl: 'http://127.0.0.1:4999/messenger.js',
        },
      },
      'seaside',
    );
    try {
      const config = await call(t.app, 'GET', '/api/messenger', { host: demo.seaside.host });
      expect(messengerConfigResponse.parse(config.json())).toEqual({
        provider: 'standin',
        appId: 'standin',
        domains: ['seaside.localhost'],
        scriptUrl: 'http://127.0.0.1:4999/messenger.js',
      });
      const csp = String((await page(demo.seaside.host)).headers['content-security-policy']);
      expect(directive(csp, 'script-src')).toEqual(["'self'", 'http://127.0.0.1:4999']);
      expect(directive(csp, 'connect-src')).toEqual([
        "'self'",
        'http://127.0.0.1:4999',
        'ws://127.0.0.1:4999',
      ]);
      expect(csp).not.toContain('intercom');
    } finally {
      await setTenantSettings(t, {}, 'seaside');
    }
  });
});
