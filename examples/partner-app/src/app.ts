import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHandoffRedeemer, HandoffError } from './handoff.ts';
import {
  renderErrorPage,
  renderHomePage,
  renderNotFoundPage,
  renderServerErrorPage,
  renderSignedInPage,
} from './pages.ts';
import { mintPartnerToken } from './partner-token.ts';
import {
  buildClearedSessionCookie,
  buildSessionCookie,
  createSessionId,
  createSessionStore,
  readSessionId,
} from './session-store.ts';
import { buildJwks, createSigningKey, type SigningKey } from './signing-key.ts';
import { buildTenantOrigin, defaultTenantSlugs, findTenant, type PartnerTenant } from './tenants.ts';

/** The partner code the demo seed registers this app under. */
export const partnerCode = 'demo-partner';

export interface PartnerAppOptions {
  /** Port to listen on; 0 picks a free one. Default 3002. */
  port?: number;
  /** Interface to listen on. Default 127.0.0.1. */
  host?: string;
  keycardPort: number;
  keycardScheme?: 'http' | 'https';
  /** Tenant slugs offered on the home page. Default: grand-hotel and summit. */
  tenants?: string[];
  /** This app's public origin: the hand-off redirect URI and the JWKS URL are under it. Default http://localhost:<port>. */
  publicBase?: string;
  /** `iss` of the partner tokens, as registered at Keycard. Default: the public origin. */
  issuer?: string;
}

export interface PartnerApp {
  server: Server;
  url: string;
  issuer: string;
  /** Where the hand-off code comes back (registered for the partner and the OIDC client). */
  handoffUri: string;
  jwksUri: string;
  close(): Promise<void>;
}

const sessionTtlMs = 8 * 60 * 60 * 1000;
const styleSheet = readFileSync(new URL('./style.css', import.meta.url), 'utf8');

const securityHeaders = {
  'content-security-policy': "default-src 'self'; style-src 'self'",
  'x-content-type-options': 'nosniff',
  // The partner token rides in the portal URL: never let it leak on as a Referer.
  'referrer-policy': 'no-referrer',
};

function sendHtml(response: ServerResponse, status: number, html: string): void {
  response.writeHead(status, {
    ...securityHeaders,
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
  });
  response.end(html);
}

function sendRedirect(
  response: ServerResponse,
  location: string,
  headers: Record<string, string> = {},
): void {
  response.writeHead(303, { ...securityHeaders, 'cache-control': 'no-store', location, ...headers });
  response.end();
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

export async function createPartnerApp(options: PartnerAppOptions): Promise<PartnerApp> {
  const tenants = (options.tenants ?? [...defaultTenantSlugs]).map((slug) => {
    const tenant = findTenant(slug);
    if (!tenant) throw new Error(`The demo partner app has no user at tenant ${slug}`);
    return tenant;
  });
  const keycardScheme = options.keycardScheme ?? 'http';
  const tenantOrigin = (tenant: PartnerTenant) =>
    buildTenantOrigin(tenant.slug, keycardScheme, options.keycardPort);
  const signingKey: SigningKey = await createSigningKey();
  const redeemer = createHandoffRedeemer(partnerCode);
  const sessions = createSessionStore(sessionTtlMs);

  const server = createServer();
  await listen(server, options.port ?? 3002, options.host ?? '127.0.0.1');
  const { port } = server.address() as AddressInfo;
  const publicBase = (options.publicBase ?? `http://localhost:${port}`).replace(/\/+$/, '');
  const issuer = options.issuer ?? publicBase;
  const handoffUri = `${publicBase}/handoff`;
  const jwksUri = `${publicBase}/.well-known/jwks.json`;
  const secureCookies = publicBase.startsWith('https:');

  function findSession(request: IncomingMessage) {
    const sessionId = readSessionId(request);
    return sessionId ? sessions.get(sessionId) : undefined;
  }

  /** A fresh partner token per click, straight into the hotel portal's partner sign-in page. */
  async function openPortal(response: ServerResponse, slug: string): Promise<void> {
    const tenant = tenants.find((candidate) => candidate.slug === slug);
    if (!tenant) {
      sendHtml(response, 404, renderNotFoundPage());
      return;
    }
    const origin = tenantOrigin(tenant);
    const token = await mintPartnerToken({
      key: signingKey,
      issuer,
      audience: `${origin}/oidc`,
      user: tenant.user,
    });
    const portalUrl = new URL(`${origin}/partners/${encodeURIComponent(partnerCode)}/sso/${token}`);
    portalUrl.searchParams.set('redirectUri', handoffUri);
    sendRedirect(response, portalUrl.href);
  }

  /** The portal sends the user here with `tenantCode` and a one-time `code`. */
  async function receiveHandoff(response: ServerResponse, requestUrl: URL): Promise<void> {
    const code = requestUrl.searchParams.get('code');
    const tenant = tenants.find((candidate) => candidate.slug === requestUrl.searchParams.get('tenantCode'));
    if (!code || !tenant) {
      sendHtml(
        response,
        400,
        renderErrorPage('invalid_request', 'The hand-off needs a code and one of this app’s hotels.'),
      );
      return;
    }
    try {
      const { claims } = await redeemer.redeem(tenantOrigin(tenant), code);
      const sessionId = createSessionId();
      sessions.put(sessionId, { tenant: tenant.slug, claims });
      // Off the address with the code, so a reload cannot spend it a second time.
      sendRedirect(response, '/me', { 'set-cookie': buildSessionCookie(sessionId, secureCookies) });
    } catch (error) {
      if (!(error instanceof HandoffError)) throw error;
      sendHtml(response, 400, renderErrorPage(error.code, error.message));
    }
  }

  function showSignedIn(request: IncomingMessage, response: ServerResponse): void {
    const session = findSession(request);
    if (session) sendHtml(response, 200, renderSignedInPage(session));
    else sendRedirect(response, '/');
  }

  function signOut(request: IncomingMessage, response: ServerResponse): void {
    const sessionId = readSessionId(request);
    if (sessionId) sessions.remove(sessionId);
    sendRedirect(response, '/', { 'set-cookie': buildClearedSessionCookie(secureCookies) });
  }

  async function routeRequest(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const requestUrl = new URL(request.url ?? '/', 'http://partner-app.invalid');
    const { pathname } = requestUrl;
    // Node omits the body of HEAD responses itself, so HEAD can share the GET routes.
    const method = request.method === 'HEAD' ? 'GET' : (request.method ?? 'GET');
    const portalMatch = /^\/portal\/([^/]+)$/.exec(pathname);

    if (method === 'GET' && pathname === '/') {
      const key = { issuer, kid: signingKey.kid, jwksUrl: jwksUri };
      return sendHtml(response, 200, renderHomePage(tenants, key, findSession(request)));
    }
    if (method === 'POST' && portalMatch) return openPortal(response, decodeURIComponent(portalMatch[1]!));
    if (method === 'GET' && pathname === '/handoff') return receiveHandoff(response, requestUrl);
    if (method === 'GET' && pathname === '/me') return showSignedIn(request, response);
    if (method === 'POST' && pathname === '/logout') return signOut(request, response);
    if (method === 'GET' && pathname === '/.well-known/jwks.json') {
      response.writeHead(200, {
        ...securityHeaders,
        'content-type': 'application/jwk-set+json',
        'cache-control': 'public, max-age=300',
      });
      response.end(JSON.stringify(buildJwks([signingKey])));
      return;
    }
    if (method === 'GET' && pathname === '/favicon.ico') {
      // No icon: say so without an error in the browser's console.
      response.writeHead(204, securityHeaders);
      response.end();
      return;
    }
    if (method === 'GET' && pathname === '/healthz') {
      response.writeHead(200, { ...securityHeaders, 'content-type': 'text/plain; charset=utf-8' });
      response.end('ok');
      return;
    }
    if (method === 'GET' && pathname === '/style.css') {
      response.writeHead(200, { ...securityHeaders, 'content-type': 'text/css; charset=utf-8' });
      response.end(styleSheet);
      return;
    }
    sendHtml(response, 404, renderNotFoundPage());
  }

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    // The POST bodies carry nothing we need; drain them so the connection can be reused.
    request.resume();
    routeRequest(request, response).catch((error: unknown) => {
      console.error('partner-app: request failed', error);
      if (!response.headersSent) sendHtml(response, 500, renderServerErrorPage());
      else response.destroy();
    });
  });

  return {
    server,
    url: `http://localhost:${port}`,
    issuer,
    handoffUri,
    jwksUri,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
