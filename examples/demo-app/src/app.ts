import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as client from 'openid-client';
import { createDiscoveryCache } from './discovery-cache.ts';
import {
  renderErrorPage,
  renderHomePage,
  renderMePage,
  renderNotFoundPage,
  renderServerErrorPage,
} from './pages.ts';
import {
  buildClearedSessionCookie,
  buildSessionCookie,
  createExpiringStore,
  createSessionId,
  type DemoSession,
  type PendingLogin,
  readSessionId,
} from './session-store.ts';
import { defaultTenantSlugs, describeTenant } from './tenants.ts';

export interface DemoAppOptions {
  /** Port to listen on; 0 picks a free one. Default 3001. */
  port?: number;
  /** Interface to listen on. Default 127.0.0.1. */
  host?: string;
  keycardPort: number;
  keycardScheme?: 'http' | 'https';
  /** Tenant slugs offered on the home page. Default: every known tenant. */
  tenants?: string[];
  /** Origin registered at Keycard for `/callback` and the post-logout redirect. Default http://localhost:3001. */
  redirectBase?: string;
}

export interface DemoApp {
  server: Server;
  url: string;
  close(): Promise<void>;
}

const scope = 'openid email profile';
const pendingLoginTtlMs = 10 * 60 * 1000;
const sessionTtlMs = 8 * 60 * 60 * 1000;
const styleSheet = readFileSync(new URL('./style.css', import.meta.url), 'utf8');

const securityHeaders = {
  'content-security-policy': "default-src 'self'; style-src 'self'",
  'x-content-type-options': 'nosniff',
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
  status: 302 | 303,
  location: string,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { ...securityHeaders, 'cache-control': 'no-store', location, ...headers });
  response.end();
}

/** Error code and description for the error page; provider errors keep their OAuth `error` code. */
function describeCallbackError(error: unknown): { code: string; description: string } {
  if (error instanceof client.AuthorizationResponseError || error instanceof client.ResponseBodyError) {
    return { code: error.error, description: error.error_description ?? error.message };
  }
  if (error instanceof Error) {
    const code = 'code' in error && typeof error.code === 'string' ? error.code : 'callback_failed';
    return { code, description: error.message };
  }
  return { code: 'callback_failed', description: 'The sign-in could not be completed.' };
}

export async function createDemoApp(options: DemoAppOptions): Promise<DemoApp> {
  const tenantSlugs = options.tenants ?? [...defaultTenantSlugs];
  const redirectBase = (options.redirectBase ?? 'http://localhost:3001').replace(/\/+$/, '');
  const redirectUri = `${redirectBase}/callback`;
  const postLogoutRedirectUri = `${redirectBase}/`;
  const secureCookies = redirectBase.startsWith('https:');
  const discoveries = createDiscoveryCache({
    scheme: options.keycardScheme ?? 'http',
    port: options.keycardPort,
  });
  const pendingLogins = createExpiringStore<PendingLogin>(pendingLoginTtlMs);
  const sessions = createExpiringStore<DemoSession>(sessionTtlMs);

  function findSession(request: IncomingMessage): DemoSession | undefined {
    const sessionId = readSessionId(request);
    return sessionId ? sessions.get(sessionId) : undefined;
  }

  async function showHome(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const tenants = await Promise.all(
      tenantSlugs.map(async (slug) => ({
        tenant: describeTenant(slug),
        available: await discoveries.checkAvailability(slug),
      })),
    );
    sendHtml(response, 200, renderHomePage(tenants, findSession(request)));
  }

  async function startLogin(response: ServerResponse, tenant: string): Promise<void> {
    if (!tenantSlugs.includes(tenant)) {
      sendHtml(response, 404, renderNotFoundPage());
      return;
    }
    let config: client.Configuration;
    try {
      config = await discoveries.getConfiguration(tenant);
    } catch {
      sendHtml(
        response,
        503,
        renderErrorPage(
          'temporarily_unavailable',
          `Keycard is not reachable for ${describeTenant(tenant).name}.`,
        ),
      );
      return;
    }
    const codeVerifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    pendingLogins.put(state, { tenant, codeVerifier, nonce });
    const authorizationUrl = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope,
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    sendRedirect(response, 302, authorizationUrl.href);
  }

  async function finishLogin(response: ServerResponse, requestUrl: URL): Promise<void> {
    const state = requestUrl.searchParams.get('state');
    const pending = state ? pendingLogins.take(state) : undefined;
    if (!state || !pending) {
      const providerError = requestUrl.searchParams.get('error');
      const description = providerError
        ? (requestUrl.searchParams.get('error_description') ?? undefined)
        : 'This sign-in attempt is unknown or has expired. Please start again.';
      sendHtml(response, 400, renderErrorPage(providerError ?? 'invalid_state', description));
      return;
    }
    try {
      const config = await discoveries.getConfiguration(pending.tenant);
      // The token request's redirect_uri is derived from this URL, so it must be the registered one.
      const callbackUrl = new URL(redirectUri);
      callbackUrl.search = requestUrl.search;
      const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: pending.codeVerifier,
        expectedState: state,
        expectedNonce: pending.nonce,
      });
      const claims = tokens.claims();
      if (!tokens.id_token || !claims) throw new Error('The token response did not contain an ID token.');
      const sessionId = createSessionId();
      sessions.put(sessionId, { tenant: pending.tenant, idToken: tokens.id_token, claims });
      sendRedirect(response, 302, '/me', { 'set-cookie': buildSessionCookie(sessionId, secureCookies) });
    } catch (error) {
      const { code, description } = describeCallbackError(error);
      sendHtml(response, 400, renderErrorPage(code, description));
    }
  }

  function showMe(request: IncomingMessage, response: ServerResponse): void {
    const session = findSession(request);
    if (!session) {
      sendRedirect(response, 302, '/');
      return;
    }
    sendHtml(response, 200, renderMePage(session));
  }

  async function logout(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const sessionId = readSessionId(request);
    const session = sessionId ? sessions.take(sessionId) : undefined;
    const clearCookie = { 'set-cookie': buildClearedSessionCookie(secureCookies) };
    if (!session) {
      sendRedirect(response, 303, '/', clearCookie);
      return;
    }
    try {
      const config = await discoveries.getConfiguration(session.tenant);
      const endSessionUrl = client.buildEndSessionUrl(config, {
        id_token_hint: session.idToken,
        post_logout_redirect_uri: postLogoutRedirectUri,
      });
      sendRedirect(response, 303, endSessionUrl.href, clearCookie);
    } catch {
      // Keycard is unreachable; the local session is gone, which is the best we can do.
      sendRedirect(response, 303, '/', clearCookie);
    }
  }

  async function routeRequest(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const requestUrl = new URL(request.url ?? '/', 'http://demo-app.invalid');
    const { pathname } = requestUrl;
    // Node omits the body of HEAD responses itself, so HEAD can share the GET routes.
    const method = request.method === 'HEAD' ? 'GET' : (request.method ?? 'GET');
    const loginMatch = /^\/login\/([^/]+)$/.exec(pathname);

    if (method === 'GET' && pathname === '/') return showHome(request, response);
    if (method === 'GET' && loginMatch) return startLogin(response, decodeURIComponent(loginMatch[1]!));
    if (method === 'GET' && pathname === '/callback') return finishLogin(response, requestUrl);
    if (method === 'GET' && pathname === '/me') return showMe(request, response);
    if (method === 'POST' && pathname === '/logout') return logout(request, response);
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

  const server = createServer((request, response) => {
    // The POST /logout body carries nothing we need; drain it so the connection can be reused.
    request.resume();
    routeRequest(request, response).catch((error: unknown) => {
      console.error('demo-app: request failed', error);
      if (!response.headersSent) sendHtml(response, 500, renderServerErrorPage());
      else response.destroy();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 3001, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });

  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: `http://localhost:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
