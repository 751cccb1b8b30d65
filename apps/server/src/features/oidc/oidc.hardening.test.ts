import type { LightMyRequestResponse } from 'fastify';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, demo, engines, sessionCookieOf, type TestApp } from '../../test/helper.ts';
import { captureLog, stderrDuring } from '../../test/log-capture.ts';

/** An authorization request the demo app could send (code + PKCE S256, RFC 7636's example). */
function authorizationQuery(extra: Record<string, string> = {}): string {
  return new URLSearchParams({
    client_id: 'demo-app',
    redirect_uri: 'http://localhost:3001/callback',
    response_type: 'code',
    scope: 'openid email profile',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
    state: 'state-0123456789abcdef',
    nonce: 'nonce-0123456789abcdef',
    ...extra,
  }).toString();
}

/** A browser's cookies across injected requests (paths ignored: every cookie is sent). */
class CookieJar {
  readonly cookies = new Map<string, string>();
  readonly seen: LightMyRequestResponse['cookies'] = [];

  take(response: LightMyRequestResponse): LightMyRequestResponse {
    for (const cookie of response.cookies) {
      this.seen.push(cookie);
      const expired = cookie.expires !== undefined && cookie.expires.getTime() < Date.now();
      if (!cookie.value || expired) this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    return response;
  }

  get header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

const junkId = 'junk-interaction-id-0123456789';
const form = { 'content-type': 'application/x-www-form-urlencoded' };
const basicAuth = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** Malformed and hostile requests under /oidc: each must get a 4xx (or a redirect), never a 5xx. */
const junkRequests: Array<{ method: string; url: string; body?: string; headers?: Record<string, string> }> =
  [
    // A resume URL nobody started, naming a registered client (oidc-provider's recovery step
    // for single-redirect clients reads request parameters that the resume route never set).
    { method: 'GET', url: `/oidc/auth/${junkId}?client_id=demo-app` },
    { method: 'GET', url: `/oidc/auth/${junkId}?client_id=demo-app&state=abc&response_mode=query` },
    {
      method: 'GET',
      url: `/oidc/auth/${junkId}?client_id=demo-app&redirect_uri=https%3A%2F%2Fevil.example%2Fcb`,
    },
    {
      method: 'GET',
      url: `/oidc/auth/${junkId}?client_id=demo-app`,
      headers: { cookie: `_interaction_resume=${junkId}; _interaction_resume.sig=forged` },
    },
    { method: 'GET', url: `/oidc/auth/${junkId}?client_id=demo-app&client_id=demo-app` },
    { method: 'GET', url: `/oidc/auth/${junkId}` },
    { method: 'GET', url: `/oidc/auth/${'a'.repeat(700)}?client_id=demo-app` },
    {
      method: 'POST',
      url: `/oidc/auth/${junkId}?client_id=demo-app`,
      body: 'client_id=demo-app',
      headers: form,
    },
    // The authorization endpoint with missing, broken or hostile parameters.
    { method: 'GET', url: '/oidc/auth' },
    { method: 'GET', url: '/oidc/auth?client_id=demo-app' },
    { method: 'GET', url: '/oidc/auth?client_id=no-such-app&response_type=code&scope=openid' },
    { method: 'GET', url: '/oidc/auth?client_id[]=demo-app&client_id[]=x' },
    { method: 'GET', url: '/oidc/auth?client_id=demo-app&request=not.a.jwt' },
    { method: 'GET', url: `/oidc/auth?${authorizationQuery({ claims: '{not json' })}` },
    { method: 'GET', url: `/oidc/auth?${authorizationQuery({ max_age: '-1', prompt: 'none login' })}` },
    { method: 'GET', url: `/oidc/auth?${authorizationQuery({ code_challenge_method: 'plain' })}` },
    { method: 'GET', url: `/oidc/auth?${authorizationQuery({ id_token_hint: 'junk' })}` },
    { method: 'POST', url: '/oidc/auth', body: 'client_id=demo-app&response_type=code', headers: form },
    { method: 'POST', url: '/oidc/auth', body: '{', headers: { 'content-type': 'application/json' } },
    { method: 'PUT', url: '/oidc/auth' },
    { method: 'HEAD', url: '/oidc/auth' },
    // Token, userinfo, revocation, logout and interaction endpoints.
    { method: 'GET', url: '/oidc/token' },
    { method: 'POST', url: '/oidc/token', body: 'grant_type=authorization_code&code=junk', headers: form },
    {
      method: 'POST',
      url: '/oidc/token',
      body: 'grant_type=authorization_code&code=junk&redirect_uri=x&code_verifier=y',
      headers: { ...form, authorization: basicAuth('demo-app', 'wrong') },
    },
    {
      method: 'POST',
      url: '/oidc/token',
      body: 'grant_type=refresh_token',
      headers: { ...form, authorization: 'Basic !!!' },
    },
    { method: 'POST', url: '/oidc/token', body: 'grant_type=a&grant_type=b', headers: form },
    {
      method: 'POST',
      url: '/oidc/token',
      body: '{"grant_type":"client_credentials"}',
      headers: { 'content-type': 'application/json' },
    },
    { method: 'POST', url: '/oidc/token', body: '%%%', headers: form },
    {
      method: 'OPTIONS',
      url: '/oidc/token',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    },
    {
      method: 'POST',
      url: '/oidc/token/revocation',
      body: 'token=junk',
      headers: { ...form, authorization: basicAuth('demo-app', 'demo-app-secret') },
    },
    { method: 'POST', url: '/oidc/token/introspection', body: 'token=junk', headers: form },
    { method: 'GET', url: '/oidc/me', headers: { authorization: 'Bearer junk' } },
    { method: 'PATCH', url: '/oidc/me' },
    { method: 'GET', url: '/oidc/session/end?id_token_hint=junk' },
    {
      method: 'GET',
      url: '/oidc/session/end?post_logout_redirect_uri=https%3A%2F%2Fevil.example%2F&client_id=demo-app',
    },
    { method: 'POST', url: '/oidc/session/end/confirm', body: 'xsrf=forged&logout=yes', headers: form },
    { method: 'GET', url: `/oidc/interaction/${junkId}` },
    { method: 'DELETE', url: '/oidc/jwks' },
    { method: 'GET', url: '/oidc/.well-known/openid-configuration/extra' },
    // Paths the router itself refuses.
    { method: 'GET', url: '/oidc/auth/%ff' },
    { method: 'GET', url: '/oidc/auth/%00?client_id=demo-app' },
  ];

describe.each(engines)('provider mount on %s: malformed requests and failures', (engine) => {
  let t: TestApp;
  const log = captureLog();
  beforeAll(async () => {
    t = await buildTestApp(engine, { env: { LOG_LEVEL: 'info' }, logStream: log.stream });
  });
  afterAll(() => t.close());

  it('answers a resume URL nobody started (GET /oidc/auth/<junk>?client_id=…) with a 4xx page', async () => {
    const printed = await stderrDuring(async () => {
      const response = await call(t.app, 'GET', `/oidc/auth/${junkId}?client_id=demo-app`, { origin: null });
      expect(response.statusCode).toBe(400);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.body).toContain('Grand Hotel Group');
    });
    expect(printed).toEqual([]);
  });

  it('answers every malformed request under /oidc with a 4xx or a redirect, logs no error and prints nothing', async () => {
    log.clear();
    const answers: string[] = [];
    const printed = await stderrDuring(async () => {
      for (const host of [demo.grandHotel.host, demo.seaside.host]) {
        for (const { method, url, body, headers } of junkRequests) {
          const response = await t.app.inject({
            method: method as 'GET',
            url,
            headers: { host, ...headers },
            ...(body === undefined ? {} : { payload: body }),
          });
          answers.push(`${response.statusCode} ${method} ${url.slice(0, 90)} on ${host}`);
        }
      }
    });
    expect(answers.filter((answer) => !/^[234]\d\d /.test(answer))).toEqual([]);
    expect(log.errors()).toEqual([]);
    expect(printed).toEqual([]);
  });

  it('sends failures inside the provider to the JSON log, never to stderr, and shows no detail', async () => {
    // Its own app: the database goes away under it.
    const own = captureLog();
    const broken = await buildTestApp(engine, { env: { LOG_LEVEL: 'info' }, logStream: own.stream });
    try {
      const warm = await call(broken.app, 'GET', `/oidc/auth?${authorizationQuery()}`, { origin: null });
      expect(warm.statusCode).toBe(303);
      await broken.services.database.close();

      const statuses: number[] = [];
      const bodies: string[] = [];
      let authorizeLocation: string | undefined;
      const printed = await stderrDuring(async () => {
        // The provider's error handler catches this one (saving the interaction fails)…
        const authorize = await call(broken.app, 'GET', `/oidc/auth?${authorizationQuery()}`, {
          origin: null,
        });
        // …but not this one: the provider saves its session after its handler has answered.
        const logout = await call(broken.app, 'GET', '/oidc/session/end', { origin: null });
        authorizeLocation = authorize.headers.location as string | undefined;
        for (const response of [authorize, logout]) {
          statuses.push(response.statusCode);
          bodies.push(response.body);
        }
      });
      // A closed database is an outage (issue 16): OAuth's temporarily_unavailable, never a 500 —
      // back to the app where the client and redirect_uri were checked, else the tenant's page.
      expect(statuses).toEqual([303, 503]);
      const back = new URL(authorizeLocation!);
      expect(`${back.origin}${back.pathname}`).toBe('http://localhost:3001/callback');
      expect(back.searchParams.get('error')).toBe('temporarily_unavailable');
      expect(bodies[1]).toContain('temporarily_unavailable');
      for (const body of bodies) {
        expect(body).not.toContain('destroyed');
        expect(body).not.toMatch(/\bat .+\.(js|ts):\d+/);
      }
      expect(printed).toEqual([]);
      const failures = own.errors().filter((entry) => entry.msg === 'provider request failed');
      expect(new Set(failures.map((entry) => entry.path))).toEqual(new Set(['/auth', '/session/end']));
      for (const failure of failures) {
        expect(failure.tenant).toBe('grand-hotel');
        expect(failure.err?.message).toContain('destroyed');
      }
    } finally {
      await broken.close();
    }
  });
});

describe('provider mount: the scheme, host and client address the provider sees', () => {
  it('marks every provider cookie Secure when the public URLs are https, with no proxy in front', async () => {
    const t = await buildTestApp('sqlite', { env: { PUBLIC_SCHEME: 'https', PUBLIC_PORT: '443' } });
    try {
      const host = 'grand-hotel.localhost';
      const origin = `https://${host}`;
      const jar = new CookieJar();
      // The connection is plain HTTP (TLS ends elsewhere, or nowhere yet); a client claiming
      // http must not downgrade the cookies either.
      const start = jar.take(
        await call(t.app, 'GET', `/oidc/auth?${authorizationQuery()}`, {
          host,
          origin: null,
          headers: { 'x-forwarded-proto': 'http' },
        }),
      );
      expect(start.statusCode).toBe(303);
      const iid = new URL(start.headers.location!, origin).searchParams.get('iid')!;

      const login = await call(t.app, 'POST', '/api/login', {
        host,
        origin,
        body: { email: demo.grandHotel.email, password: demo.password, state: 'state-0123456789abcdef' },
      });
      expect(login.statusCode).toBe(200);
      const authenticate = await call(t.app, 'POST', '/api/authenticate', {
        host,
        origin,
        body: { code: login.json().code, tenantCode: 'grand-hotel' },
      });
      jar.take(authenticate);
      const authorize = await call(t.app, 'POST', '/api/authorize', {
        host,
        origin,
        // The session's cookie, and the provider's interaction cookie the interaction is read from.
        cookie: `${sessionCookieOf(authenticate)!}; ${jar.header}`,
        body: { iid },
      });
      expect(authorize.statusCode).toBe(200);
      const resumeUrl = new URL(authorize.json().location as string);
      expect(resumeUrl.origin).toBe(origin);
      const resumed = jar.take(
        await call(t.app, 'GET', resumeUrl.pathname, { host, origin: null, cookie: jar.header }),
      );
      expect(resumed.statusCode).toBe(303);
      expect(resumed.headers.location).toMatch(/^http:\/\/localhost:3001\/callback\?code=/);

      const names = new Set(jar.seen.map((cookie) => cookie.name));
      for (const name of ['_interaction', '_interaction_resume', '_session', 'AUTH_X_TOKEN']) {
        expect(names, name).toContain(name);
      }
      const insecure = jar.seen.filter((cookie) => !cookie.secure).map((cookie) => cookie.name);
      expect(insecure).toEqual([]);
      // The interaction cookie reaches the portal's API (/api/authorize reads it), HttpOnly.
      const interaction = jar.seen.find((cookie) => cookie.name === '_interaction');
      expect(interaction).toMatchObject({ path: '/', httpOnly: true });
    } finally {
      await t.close();
    }
  });

  /** What the provider saw of the request that started an interaction. */
  async function seenByProvider(t: TestApp, headers: Record<string, string>) {
    const tenant = (await t.services.tenants.byCode('grand-hotel'))!;
    const { provider } = await t.services.providers.get(tenant);
    const seen: Array<{ ip: string; protocol: string; host: string; secure: boolean }> = [];
    const record = (ctx: KoaContextWithOIDC) =>
      seen.push({ ip: ctx.ip, protocol: ctx.protocol, host: ctx.host, secure: ctx.secure });
    provider.on('interaction.started', record);
    try {
      const response = await call(t.app, 'GET', `/oidc/auth?${authorizationQuery()}`, {
        origin: null,
        headers,
      });
      expect(response.statusCode).toBe(303);
      return { seen, cookies: response.cookies };
    } finally {
      provider.off('interaction.started', record);
    }
  }

  it("does not believe a client's own X-Forwarded-Proto, -Host or -For without TRUST_PROXY", async () => {
    const t = await buildTestApp('sqlite');
    try {
      const forged = {
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'evil.example',
        'x-forwarded-for': '203.0.113.9',
        forwarded: 'for=203.0.113.9;proto=https;host=evil.example',
      };
      const { seen, cookies } = await seenByProvider(t, forged);
      expect(seen).toEqual([
        { ip: '127.0.0.1', protocol: 'http', host: 'grand-hotel.localhost:3000', secure: false },
      ]);
      expect(cookies.filter((cookie) => cookie.secure)).toEqual([]);

      const discovery = await call(t.app, 'GET', '/oidc/.well-known/openid-configuration', {
        origin: null,
        headers: forged,
      });
      expect(discovery.json()).toMatchObject({
        issuer: 'http://grand-hotel.localhost:3000/oidc',
        authorization_endpoint: 'http://grand-hotel.localhost:3000/oidc/auth',
        token_endpoint: 'http://grand-hotel.localhost:3000/oidc/token',
      });
    } finally {
      await t.close();
    }
  });

  it('gives the provider the client address Fastify established with TRUST_PROXY, and still the public scheme', async () => {
    const t = await buildTestApp('sqlite', { env: { TRUST_PROXY: 'true' } });
    try {
      const { seen } = await seenByProvider(t, {
        'x-forwarded-for': '203.0.113.9, 10.0.0.2',
        'x-forwarded-proto': 'https',
      });
      expect(seen).toEqual([
        { ip: '203.0.113.9', protocol: 'http', host: 'grand-hotel.localhost:3000', secure: false },
      ]);
    } finally {
      await t.close();
    }
  });
});
