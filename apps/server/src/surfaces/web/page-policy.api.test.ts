import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTenantSettings } from '../../features/accounts/test-support.ts';
import type { TenantSettings } from '../../features/tenants/tenant.types.ts';
import { buildTestApp, call, type TestApp } from '../../test/helper.ts';

/**
 * The page policy each answer gets, pinned as it was before it became one function
 * (platform/http/page-policy.ts): for every kind of page (portal, provider, console, preview,
 * API and file answers) and every combination of what widens a tenant's pages (its captcha,
 * its messenger widget). Nonces vary per answer and are written as 'nonce-…'. The policy does
 * not depend on the database engine, so this runs on SQLite only.
 */
describe('the page policy of every kind of answer', () => {
  let t: TestApp;
  let root: string;
  const admin = 'summit.localhost:3000';

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'keycard-page-policy-'));
    const dist = path.join(root, 'portal');
    mkdirSync(path.join(dist, 'assets'), { recursive: true });
    writeFileSync(
      path.join(dist, 'index.html'),
      '<!doctype html><html lang="en"><head><title>Keycard</title></head><body><div id="root"></div></body></html>',
    );
    t = await buildTestApp('sqlite', { env: { ADMIN_DOMAIN: 'summit.localhost' }, portalDist: dist });
  });
  afterAll(async () => {
    await t.close();
    rmSync(root, { recursive: true, force: true });
  });

  const captcha = (scriptUrl: string) =>
    ({
      siteKey: 'site-key-123',
      secret: 'captcha-secret',
      verifyUrl: 'https://captcha.example/verify',
      scriptUrl,
    }) as TenantSettings['captcha'];
  const intercom = {
    provider: 'intercom',
    appId: 'abc123xy',
    domains: ['grand-hotel.localhost'],
    scriptUrl: null,
  } as TenantSettings['messenger'];
  const standin = {
    provider: 'standin',
    appId: 'standin',
    domains: ['grand-hotel.localhost'],
    scriptUrl: 'http://localhost:4010/widget.js',
  } as TenantSettings['messenger'];

  /** What a tenant's host answers, one line per request: x-frame-options, then the CSP. */
  async function policies(host: string, requests: Array<[method: string, url: string]>) {
    const seen: Record<string, string> = {};
    for (const [method, url] of requests) {
      const response = await call(t.app, method, url, { host, origin: null });
      const csp = String(response.headers['content-security-policy'] ?? '(none)').replace(
        /'nonce-[^']+'/g,
        "'nonce-…'",
      );
      seen[`${method} ${url}`] = `${response.headers['x-frame-options'] ?? '(none)'} | ${csp}`;
    }
    return seen;
  }

  const tenantPages: Array<[string, string]> = [
    ['GET', '/login'],
    ['HEAD', '/login'],
    ['POST', '/login'],
    ['GET', '/partners/demo-partner/sso/a.b.c'],
    ['GET', '/no-such-page'],
    ['GET', '/assets/missing.js'],
    ['GET', '/api/session'],
    ['GET', '/_keycard/provider.css'],
    ['GET', '/oidc/.well-known/openid-configuration'],
    ['GET', '/oidc/auth?client_id=no-such-app'],
  ];

  it('gives a tenant without captcha or widget the base policies', async () => {
    await setTenantSettings(t, {});
    expect(await policies('grand-hotel.localhost:3000', tenantPages)).toMatchInlineSnapshot(`
      {
        "GET /_keycard/provider.css": "DENY | default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
        "GET /api/session": "DENY | default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
        "GET /assets/missing.js": "DENY | default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
        "GET /login": "DENY | default-src 'self'; script-src 'self'; style-src 'self' 'nonce-…'; img-src 'self' data: https:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
        "GET /no-such-page": "DENY | default-src 'self'; script-src 'self'; style-src 'self' 'nonce-…'; img-src 'self' data: https:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
        "GET /oidc/.well-known/openid-configuration": "DENY | default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
        "GET /oidc/auth?client_id=no-such-app": "DENY | default-src 'self'; script-src 'self'; style-src 'self' 'nonce-…'; img-src 'self' data: https:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
        "GET /partners/demo-partner/sso/a.b.c": "DENY | default-src 'self'; script-src 'self'; style-src 'self' 'nonce-…'; img-src 'self' data: https:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
        "HEAD /login": "DENY | default-src 'self'; script-src 'self'; style-src 'self' 'nonce-…'; img-src 'self' data: https:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
        "POST /login": "DENY | default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
      }
    `);
  });

  it("widens a tenant's pages for its captcha (reCAPTCHA also from gstatic)", async () => {
    await setTenantSettings(t, { captcha: captcha('https://captcha.example/api.js') });
    expect(await policies('grand-hotel.localhost:3000', tenantPages)).toMatchInlineSnapshot(`
      {
        "GET /_keycard/provider.css": "DENY | default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
        "GET /api/session": "DENY | default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
        "GET /assets/missing.js": "DENY | default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
        "GET /login": "DENY | default-src 'self'; script-src 'self' https://captcha.example; style-src 'self' 'nonce-…'; img-src 'self' data: https:; connect-src 'self' https://captcha.example; font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'; frame-src https://captcha.example",
        "GET /no-such-page": "DENY | default-src 'self'; script-src 'self' https://captcha.example; style-src 'self' 'nonce-…'; img-src 'self' data: https:; connect-src 'self' https://captcha.example; font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'; frame-src https://captcha.example",
        "GET /oidc/.well-known/openid-configuration": "DENY | default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
        "GET /oidc/auth?client_id=no-such-app": "DENY | default-src 'self'; script-src 'self'; style-src 'self' 'nonce-…'; img-src 'self' data: https:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
        "GET /partners/demo-partner/sso/a.b.c": "DENY | default-src 'self'; script-src 'self'; style-src 'self' 'nonce-…'; img-src 'self' data: https:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
        "HEAD /login": "DENY | default-src 'self'; script-src 'self' https://captcha.example; style-src 'self' 'nonce-…'; img-src 'self' data: https:; connect-src 'self' https://captcha.example; font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'; frame-src https://captcha.example",
        "POST /login": "DENY | default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
      }
    `);
    await setTenantSettings(t, { captcha: captcha('https://www.google.com/recaptcha/api.js') });
    expect(await policies('grand-hotel.localhost:3000', [['GET', '/login']])).toMatchInlineSnapshot(`
      {
        "GET /login": "DENY | default-src 'self'; script-src 'self' https://www.google.com https://www.gstatic.com; style-src 'self' 'nonce-…'; img-src 'self' data: https:; connect-src 'self' https://www.google.com https://www.gstatic.com; font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'; frame-src https://www.google.com https://www.gstatic.com",
      }
    `);
  });

  it("widens a tenant's pages for its messenger widget, on the widget's domains only", async () => {
    await setTenantSettings(t, { messenger: intercom });
    expect(await policies('grand-hotel.localhost:3000', tenantPages)).toMatchInlineSnapshot(`
      {
        "GET /_keycard/provider.css": "DENY | default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
        "GET /api/session": "DENY | default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
        "GET /assets/missing.js": "DENY | default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
        "GET /login": "DENY | default-src 'self'; script-src 'self' https://app.intercom.io https://widget.intercom.io https://js.intercomcdn.com; style-src 'self' 'nonce-…'; img-src 'self' data: https:; connect-src 'self' https://via.intercom.io https://api.intercom.io https://api.eu.intercom.io https://api.au.intercom.io https://api-iam.intercom.io https://api-iam.eu.intercom.io https://api-iam.au.intercom.io https://api-ping.intercom.io https://nexus-websocket-a.intercom.io wss://nexus-websocket-a.intercom.io https://nexus-websocket-b.intercom.io wss://nexus-websocket-b.intercom.io https://nexus-europe-websocket.intercom.io wss://nexus-europe-websocket.intercom.io https://nexus-australia-websocket.intercom.io wss://nexus-australia-websocket.intercom.io https://uploads.intercomcdn.com https://uploads.intercomcdn.eu https://uploads.au.intercomcdn.com https://uploads.intercomusercontent.com; font-src 'self' https://js.intercomcdn.com https://fonts.intercomcdn.com; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self' https://intercom.help https://api-iam.intercom.io; frame-src 'self' https://intercom-sheets.com https://www.intercom-reporting.com; media-src 'self' https://js.intercomcdn.com",
        "GET /no-such-page": "DENY | default-src 'self'; script-src 'self' https://app.intercom.io https://widget.intercom.io https://js.intercomcdn.com; style-src 'self' 'nonce-…'; img-src 'self' data: https:; connect-src 'self' https://via.intercom.io https://api.intercom.io https://api.eu.intercom.io https://api.au.intercom.io https://api-iam.intercom.io https://api-iam.eu.intercom.io https://api-iam.au.intercom.io https://api-ping.intercom.io https://nexus-websocket-a.intercom.io wss://nexus-websocket-a.intercom.io https://nexus-websocket-b.intercom.io wss://nexus-websocket-b.intercom.io https://nexus-europe-websocket.intercom.io wss://nexus-europe-websocket.intercom.io https://nexus-australia-websocket.intercom.io wss://nexus-australia-websocket.intercom.io https://uploads.intercomcdn.com https://uploads.intercomcdn.eu https://uploads.au.intercomcdn.com https://uploads.intercomusercontent.com; font-src 'self' https://js.intercomcdn.com https://fonts.intercomcdn.com; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self' https://intercom.help https://api-iam.intercom.io; frame-src 'self' https://intercom-sheets.com https://www.intercom-reporting.com; media-src 'self' https://js.intercomcdn.com",
        "GET /oidc/.well-known/openid-configuration": "DENY | default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
        "GET /oidc/auth?client_id=no-such-app": "DENY | default-src 'self'; script-src 'self'; style-src 'self' 'nonce-…'; img-src 'self' data: https:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
        "GET /partners/demo-partner/sso/a.b.c": "DENY | default-src 'self'; script-src 'self'; style-src 'self' 'nonce-…'; img-src 'self' data: https:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
        "HEAD /login": "DENY | default-src 'self'; script-src 'self' https://app.intercom.io https://widget.intercom.io https://js.intercomcdn.com; style-src 'self' 'nonce-…'; img-src 'self' data: https:; connect-src 'self' https://via.intercom.io https://api.intercom.io https://api.eu.intercom.io https://api.au.intercom.io https://api-iam.intercom.io https://api-iam.eu.intercom.io https://api-iam.au.intercom.io https://api-ping.intercom.io https://nexus-websocket-a.intercom.io wss://nexus-websocket-a.intercom.io https://nexus-websocket-b.intercom.io wss://nexus-websocket-b.intercom.io https://nexus-europe-websocket.intercom.io wss://nexus-europe-websocket.intercom.io https://nexus-australia-websocket.intercom.io wss://nexus-australia-websocket.intercom.io https://uploads.intercomcdn.com https://uploads.intercomcdn.eu https://uploads.au.intercomcdn.com https://uploads.intercomusercontent.com; font-src 'self' https://js.intercomcdn.com https://fonts.intercomcdn.com; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self' https://intercom.help https://api-iam.intercom.io; frame-src 'self' https://intercom-sheets.com https://www.intercom-reporting.com; media-src 'self' https://js.intercomcdn.com",
        "POST /login": "DENY | default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
      }
    `);
    // The tenant's alias host is not one of the widget's domains.
    expect(await policies('localhost:3000', [['GET', '/login']])).toMatchInlineSnapshot(`
      {
        "GET /login": "DENY | default-src 'self'; script-src 'self'; style-src 'self' 'nonce-…'; img-src 'self' data: https:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
      }
    `);
    await setTenantSettings(t, { messenger: standin });
    expect(await policies('grand-hotel.localhost:3000', [['GET', '/login']])).toMatchInlineSnapshot(`
      {
        "GET /login": "DENY | default-src 'self'; script-src 'self' http://localhost:4010; style-src 'self' 'nonce-…'; img-src 'self' data: https: http://localhost:4010; connect-src 'self' http://localhost:4010 ws://localhost:4010; font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'; frame-src 'self' http://localhost:4010",
      }
    `);
  });

  it('widens for captcha and widget together', async () => {
    await setTenantSettings(t, { captcha: captcha('https://captcha.example/api.js'), messenger: intercom });
    expect(await policies('grand-hotel.localhost:3000', tenantPages)).toMatchInlineSnapshot(`
      {
        "GET /_keycard/provider.css": "DENY | default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
        "GET /api/session": "DENY | default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
        "GET /assets/missing.js": "DENY | default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
        "GET /login": "DENY | default-src 'self'; script-src 'self' https://captcha.example https://app.intercom.io https://widget.intercom.io https://js.intercomcdn.com; style-src 'self' 'nonce-…'; img-src 'self' data: https:; connect-src 'self' https://captcha.example https://via.intercom.io https://api.intercom.io https://api.eu.intercom.io https://api.au.intercom.io https://api-iam.intercom.io https://api-iam.eu.intercom.io https://api-iam.au.intercom.io https://api-ping.intercom.io https://nexus-websocket-a.intercom.io wss://nexus-websocket-a.intercom.io https://nexus-websocket-b.intercom.io wss://nexus-websocket-b.intercom.io https://nexus-europe-websocket.intercom.io wss://nexus-europe-websocket.intercom.io https://nexus-australia-websocket.intercom.io wss://nexus-australia-websocket.intercom.io https://uploads.intercomcdn.com https://uploads.intercomcdn.eu https://uploads.au.intercomcdn.com https://uploads.intercomusercontent.com; font-src 'self' https://js.intercomcdn.com https://fonts.intercomcdn.com; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self' https://intercom.help https://api-iam.intercom.io; frame-src https://captcha.example https://intercom-sheets.com https://www.intercom-reporting.com; media-src 'self' https://js.intercomcdn.com",
        "GET /no-such-page": "DENY | default-src 'self'; script-src 'self' https://captcha.example https://app.intercom.io https://widget.intercom.io https://js.intercomcdn.com; style-src 'self' 'nonce-…'; img-src 'self' data: https:; connect-src 'self' https://captcha.example https://via.intercom.io https://api.intercom.io https://api.eu.intercom.io https://api.au.intercom.io https://api-iam.intercom.io https://api-iam.eu.intercom.io https://api-iam.au.intercom.io https://api-ping.intercom.io https://nexus-websocket-a.intercom.io wss://nexus-websocket-a.intercom.io https://nexus-websocket-b.intercom.io wss://nexus-websocket-b.intercom.io https://nexus-europe-websocket.intercom.io wss://nexus-europe-websocket.intercom.io https://nexus-australia-websocket.intercom.io wss://nexus-australia-websocket.intercom.io https://uploads.intercomcdn.com https://uploads.intercomcdn.eu https://uploads.au.intercomcdn.com https://uploads.intercomusercontent.com; font-src 'self' https://js.intercomcdn.com https://fonts.intercomcdn.com; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self' https://intercom.help https://api-iam.intercom.io; frame-src https://captcha.example https://intercom-sheets.com https://www.intercom-reporting.com; media-src 'self' https://js.intercomcdn.com",
        "GET /oidc/.well-known/openid-configuration": "DENY | default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
        "GET /oidc/auth?client_id=no-such-app": "DENY | default-src 'self'; script-src 'self'; style-src 'self' 'nonce-…'; img-src 'self' data: https:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
        "GET /partners/demo-partner/sso/a.b.c": "DENY | default-src 'self'; script-src 'self'; style-src 'self' 'nonce-…'; img-src 'self' data: https:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
        "HEAD /login": "DENY | default-src 'self'; script-src 'self' https://captcha.example https://app.intercom.io https://widget.intercom.io https://js.intercomcdn.com; style-src 'self' 'nonce-…'; img-src 'self' data: https:; connect-src 'self' https://captcha.example https://via.intercom.io https://api.intercom.io https://api.eu.intercom.io https://api.au.intercom.io https://api-iam.intercom.io https://api-iam.eu.intercom.io https://api-iam.au.intercom.io https://api-ping.intercom.io https://nexus-websocket-a.intercom.io wss://nexus-websocket-a.intercom.io https://nexus-websocket-b.intercom.io wss://nexus-websocket-b.intercom.io https://nexus-europe-websocket.intercom.io wss://nexus-europe-websocket.intercom.io https://nexus-australia-websocket.intercom.io wss://nexus-australia-websocket.intercom.io https://uploads.intercomcdn.com https://uploads.intercomcdn.eu https://uploads.au.intercomcdn.com https://uploads.intercomusercontent.com; font-src 'self' https://js.intercomcdn.com https://fonts.intercomcdn.com; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self' https://intercom.help https://api-iam.intercom.io; frame-src https://captcha.example https://intercom-sheets.com https://www.intercom-reporting.com; media-src 'self' https://js.intercomcdn.com",
        "POST /login": "DENY | default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
      }
    `);
    expect(await policies('localhost:3000', [['GET', '/login']])).toMatchInlineSnapshot(`
      {
        "GET /login": "DENY | default-src 'self'; script-src 'self' https://captcha.example; style-src 'self' 'nonce-…'; img-src 'self' data: https:; connect-src 'self' https://captcha.example; font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'; frame-src https://captcha.example",
      }
    `);
    await setTenantSettings(t, {});
  });

  it('keeps the console and the theme preview to their own policies on the operator host', async () => {
    await setTenantSettings(
      t,
      {
        captcha: captcha('https://captcha.example/api.js'),
        messenger: { ...intercom, domains: ['summit.localhost'] },
      },
      'summit',
    );
    try {
      expect(
        await policies(admin, [
          ['GET', '/login'],
          ['GET', '/console/'],
          ['GET', '/console/tenants'],
          ['GET', '/preview/login'],
          ['GET', '/preview/nothing.js'],
          ['GET', '/api/session'],
        ]),
      ).toMatchInlineSnapshot(`
        {
          "GET /api/session": "DENY | default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
          "GET /console/": "DENY | default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; connect-src 'self'; font-src 'self'; frame-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
          "GET /console/tenants": "DENY | default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; connect-src 'self'; font-src 'self'; frame-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
          "GET /login": "DENY | default-src 'self'; script-src 'self' https://captcha.example https://app.intercom.io https://widget.intercom.io https://js.intercomcdn.com; style-src 'self' 'nonce-…'; img-src 'self' data: https:; connect-src 'self' https://captcha.example https://via.intercom.io https://api.intercom.io https://api.eu.intercom.io https://api.au.intercom.io https://api-iam.intercom.io https://api-iam.eu.intercom.io https://api-iam.au.intercom.io https://api-ping.intercom.io https://nexus-websocket-a.intercom.io wss://nexus-websocket-a.intercom.io https://nexus-websocket-b.intercom.io wss://nexus-websocket-b.intercom.io https://nexus-europe-websocket.intercom.io wss://nexus-europe-websocket.intercom.io https://nexus-australia-websocket.intercom.io wss://nexus-australia-websocket.intercom.io https://uploads.intercomcdn.com https://uploads.intercomcdn.eu https://uploads.au.intercomcdn.com https://uploads.intercomusercontent.com; font-src 'self' https://js.intercomcdn.com https://fonts.intercomcdn.com; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self' https://intercom.help https://api-iam.intercom.io; frame-src https://captcha.example https://intercom-sheets.com https://www.intercom-reporting.com; media-src 'self' https://js.intercomcdn.com",
          "GET /preview/login": "SAMEORIGIN | default-src 'none'; script-src 'self'; style-src 'self' 'nonce-…'; img-src 'self' https:; font-src 'self'; connect-src 'none'; form-action 'none'; object-src 'none'; base-uri 'none'; frame-ancestors 'self'",
          "GET /preview/nothing.js": "SAMEORIGIN | default-src 'none'; script-src 'self'; style-src 'self' 'nonce-…'; img-src 'self' https:; font-src 'self'; connect-src 'none'; form-action 'none'; object-src 'none'; base-uri 'none'; frame-ancestors 'self'",
        }
      `);
      // Elsewhere the preview is no page of its own.
      expect(
        await policies('grand-hotel.localhost:3000', [['GET', '/preview/login']]),
      ).toMatchInlineSnapshot(`
        {
          "GET /preview/login": "DENY | default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
        }
      `);
    } finally {
      await setTenantSettings(t, {}, 'summit');
    }
  });
});
