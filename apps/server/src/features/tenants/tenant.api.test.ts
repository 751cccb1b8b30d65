import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, engines, type TestApp } from '../../test/helper.ts';

describe.each(engines)('tenants and branding API on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(engine);
  });
  afterAll(() => t.close());

  it("answers the tenant's theme, tenant and domain", async () => {
    const response = await call(t.app, 'GET', '/api/login-domains/grand-hotel.localhost');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      domain: 'grand-hotel.localhost',
      tenant: { code: 'grand-hotel', loginDomain: 'grand-hotel.localhost', loginClientId: 'demo-app' },
      theme: {
        name: 'Grand Hotel Group',
        images: { logo: '/brand/grand-hotel-logo.svg', favicon: '/brand/grand-hotel-favicon.svg' },
        colours: { primaryBackground: '#1f3a5f' },
      },
    });
    expect(Object.keys(response.json().theme.colours)).toHaveLength(6);
  });

  it('lets caches revalidate the theme by ETag, and gives a changed theme a new one', async () => {
    const first = await call(t.app, 'GET', '/api/login-domains/grand-hotel.localhost');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]{20,}"$/);
    expect(first.headers['cache-control']).toBe('no-cache');
    const again = await call(t.app, 'GET', '/api/login-domains/grand-hotel.localhost', {
      headers: { 'if-none-match': `"other", W/${etag}` },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const seaside = await call(t.app, 'GET', '/api/login-domains/seaside.localhost', {
      host: 'seaside.localhost:3000',
      headers: { 'if-none-match': etag },
    });
    expect(seaside.statusCode).toBe(200);
    expect(seaside.headers.etag).not.toBe(etag);

    const row = await t.services.db
      .selectFrom('tenants')
      .select('theme')
      .where('code', '=', 'grand-hotel')
      .executeTakeFirstOrThrow();
    const theme = { ...JSON.parse(row.theme), name: 'Grand Hotel Group (new)' };
    await t.services.db
      .updateTable('tenants')
      .set((eb) => ({ theme: JSON.stringify(theme), version: eb('version', '+', 1) }))
      .where('code', '=', 'grand-hotel')
      .execute();
    await expect
      .poll(
        async () =>
          (
            await call(t.app, 'GET', '/api/login-domains/grand-hotel.localhost', {
              headers: { 'if-none-match': etag },
            })
          ).statusCode,
        { timeout: 5000 },
      )
      .toBe(200);
    const changed = await call(t.app, 'GET', '/api/login-domains/grand-hotel.localhost');
    expect(changed.json().theme.name).toBe('Grand Hotel Group (new)');
    expect(changed.headers.etag).not.toBe(etag);
  });

  it('resolves an alias domain to its tenant (plain localhost is grand-hotel)', async () => {
    const response = await call(t.app, 'GET', '/api/login-domains/localhost', { host: 'localhost:3000' });
    expect(response.json().tenant.code).toBe('grand-hotel');
  });

  it('answers each tenant its own theme', async () => {
    const response = await call(t.app, 'GET', '/api/login-domains/seaside.localhost', {
      host: 'seaside.localhost:3000',
    });
    expect(response.json().theme.name).toBe('Seaside Resorts');
  });

  it('answers 404 unknown_domain for an unknown domain, and for another tenant’s domain', async () => {
    const unknown = await call(t.app, 'GET', '/api/login-domains/nowhere.localhost');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('tenant.unknown_domain');
    const other = await call(t.app, 'GET', '/api/login-domains/seaside.localhost');
    expect(other.statusCode).toBe(404);
  });

  it('answers a coded 4xx for an oversized domain', async () => {
    // Past a domain name's 253 characters: the contract refuses it.
    const long = await call(t.app, 'GET', `/api/login-domains/${'a'.repeat(300)}`);
    expect(long.statusCode).toBe(400);
    expect(long.json().code).toBe('common.validation_failed');
    // Past the router's parameter limit: refused before any handler, in the same shape.
    const huge = await call(t.app, 'GET', `/api/login-domains/${'a'.repeat(900)}`);
    expect(huge.statusCode).toBe(414);
    expect(huge.json().code).toBe('common.uri_too_long');
    const invalid = await call(t.app, 'GET', `/api/login-domains/%00`);
    expect(invalid.statusCode).toBeLessThan(500);
  });

  it('sends the security headers on API answers and pages', async () => {
    const response = await call(t.app, 'GET', '/api/login-domains/grand-hotel.localhost');
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });

  it('answers health and readiness', async () => {
    expect((await call(t.app, 'GET', '/healthz')).json()).toEqual({ status: 'ok' });
    expect((await call(t.app, 'GET', '/readyz')).json()).toEqual({
      status: 'ready',
      database: engine,
      checks: { database: 'ok' },
    });
  });

  it('answers unknown API paths with a coded 404', async () => {
    const response = await call(t.app, 'GET', '/api/nope');
    expect(response.statusCode).toBe(404);
    expect(response.json().code).toBe('common.not_found');
  });
});

describe('HTTPS deployments', () => {
  it('send HSTS and mark the session cookie Secure', async () => {
    const t = await buildTestApp('sqlite', { env: { PUBLIC_SCHEME: 'https', PUBLIC_PORT: '443' } });
    try {
      const page = await call(t.app, 'GET', '/healthz');
      expect(page.headers['strict-transport-security']).toContain('max-age=31536000');
      const body = {
        email: 'demo@grand-hotel.test',
        password: 'Keycard-demo-1',
        state: 'state-0123456789abcdef',
      };
      // The Origin must be the portal's public origin, scheme included: an http page cannot
      // act on an https portal of the same host name.
      const insecure = await call(t.app, 'POST', '/api/login', {
        origin: 'http://grand-hotel.localhost',
        body,
      });
      expect(insecure.statusCode).toBe(403);
      expect(insecure.json().code).toBe('common.forbidden_origin');
      const origin = 'https://grand-hotel.localhost';
      const login = await call(t.app, 'POST', '/api/login', { origin, body });
      const authenticate = await call(t.app, 'POST', '/api/authenticate', {
        origin,
        body: { code: login.json().code, tenantCode: 'grand-hotel' },
      });
      expect(authenticate.cookies.find((c) => c.name === 'AUTH_X_TOKEN')?.secure).toBe(true);
    } finally {
      await t.close();
    }
  });
});
