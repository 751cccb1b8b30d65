import { errorCodes } from '@keycard/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { AppError } from '../shared/errors.ts';
import { errorAnswer } from './errors.ts';
import { hostnameOf, ownOriginOf } from './host.ts';

const portalCsp = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: https:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

/**
 * A page's policy that also allows its one inline style by nonce (the tenant's colours in the
 * first paint); whatever else the policy allows (a tenant's captcha) stays.
 */
export function cspWithStyleNonce(csp: string, nonce: string): string {
  const directives = csp.split(';').map((d) => d.trim());
  const index = directives.findIndex((d) => d.startsWith('style-src '));
  if (index === -1) directives.push(`style-src 'self' 'nonce-${nonce}'`);
  else directives[index] = `${directives[index]} 'nonce-${nonce}'`;
  return directives.join('; ');
}

// Provider pages post forms that end in a redirect to an app; Chromium applies form-action
// to that redirect, so those pages carry no form-action limit.
const providerCsp = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: https:",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The admin console (operator host only): its own scripts and styles (React sets style
 * attributes through the CSSOM, which CSP does not govern; Vite's build has no inline script),
 * API calls to its own origin, and frames of its own origin (the portal's theme preview).
 * Images also from https: a theme's logo may be an address of the tenant's choosing, which
 * the portal shows too; uploaded ones are same-origin (/_keycard/assets on every host).
 */
export const consoleCsp = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: https:",
  "connect-src 'self'",
  "font-src 'self'",
  "frame-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

/**
 * The portal's theme preview, framed by the console (same origin) and by nothing else. It draws
 * whatever draft the console hands it and must reach nothing from there: no requests of any
 * kind (`connect-src 'none'`, beside inert-preview.ts stopping them in the page) and no form
 * posts; only what drawing takes — the portal's scripts, its styles (with the page's nonce),
 * fonts, and images from itself or https (a theme's logo).
 */
export const previewCsp = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' https:",
  "font-src 'self'",
  "connect-src 'none'",
  "form-action 'none'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'self'",
].join('; ');

function onAdminHost(config: Config, host: string | undefined): boolean {
  return host !== undefined && hostnameOf(host) === config.adminDomain;
}

function isPreviewPage(config: Config, path: string, host: string | undefined): boolean {
  return path.startsWith('/preview/') && onAdminHost(config, host);
}

function pagePolicy(path: string, adminHost: boolean): { csp: string; frameOptions: string } {
  if (path.startsWith('/oidc')) return { csp: providerCsp, frameOptions: 'DENY' };
  if (adminHost && (path === '/console' || path.startsWith('/console/')))
    return { csp: consoleCsp, frameOptions: 'DENY' };
  if (adminHost && path.startsWith('/preview/')) return { csp: previewCsp, frameOptions: 'SAMEORIGIN' };
  return { csp: portalCsp, frameOptions: 'DENY' };
}

/** The headers every answer carries; `host` tells the operator host's pages (console, preview). */
export function securityHeaders(config: Config, path: string, host?: string): Record<string, string> {
  const policy = pagePolicy(path, onAdminHost(config, host));
  const headers: Record<string, string> = {
    'content-security-policy': policy.csp,
    // Tokens ride in URLs (activation, reset, login codes): never send them on as a referrer.
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'x-frame-options': policy.frameOptions,
    'cross-origin-opener-policy': 'same-origin',
    'permissions-policy': 'camera=(), microphone=(), geolocation=()',
  };
  if (config.publicScheme === 'https')
    headers['strict-transport-security'] = 'max-age=31536000; includeSubDomains';
  return headers;
}

const unsafeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Invariant 5: a state-changing API call must come from the tenant's own pages. The Origin
 * must be this host's public origin — scheme, host and port alike (an http page must not act
 * on an https portal); without an Origin header, the browser's Fetch Metadata must say
 * same-origin. Anything else is refused before any work.
 */
export function assertSameOrigin(request: FastifyRequest, config: Config): void {
  if (!unsafeMethods.has(request.method)) return;
  const origin = request.headers.origin;
  if (origin) {
    if (origin === ownOriginOf(config, request)) return;
  } else if (request.headers['sec-fetch-site'] === 'same-origin') {
    return;
  }
  throw new AppError(errorCodes.forbiddenOrigin);
}

/**
 * A Host header a browser could have sent: a DNS name or IP literal, with a port within
 * 1–65535 if any. Anything else (a port of 99999, stray characters) is refused up front.
 */
export function isValidHost(host: string | undefined): boolean {
  if (!host || host.length > 261) return false;
  const match =
    /^(\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?)(:(\d{1,5}))?$/i.exec(
      host,
    );
  if (!match) return false;
  const port = match[6];
  return port === undefined || (Number(port) >= 1 && Number(port) <= 65535);
}

function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 32 || value === null || typeof value !== 'object') return false;
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\u0000') || containsNul(item, depth + 1)) return true;
  }
  return false;
}

export function installSecurity(app: FastifyInstance, config: Config): void {
  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const headers = securityHeaders(config, path, request.host);
    if (path.startsWith('/oidc')) {
      for (const [name, value] of Object.entries(headers)) reply.raw.setHeader(name, value);
    } else {
      reply.headers(headers);
    }
    if (!isValidHost(request.host)) {
      const { status, body } = errorAnswer(
        new AppError(errorCodes.validationFailed, { fields: { host: 'invalid host' } }),
      );
      return reply.status(status).send(body);
    }
  });
  // No legitimate input holds a NUL character, and PostgreSQL refuses them in text: refuse
  // them up front with a clear 400 rather than fail inside a query.
  app.addHook('preValidation', async (request) => {
    if (containsNul(request.params) || containsNul(request.query) || containsNul(request.body)) {
      throw new AppError(errorCodes.validationFailed, {
        fields: { _: 'The request contains a NUL character.' },
      });
    }
  });
  // API answers carry codes, tokens and personal data: no cache keeps them unless a route
  // says otherwise (the public theme of a login domain).
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) {
      reply.header('cache-control', 'no-store');
    }
    // The preview's policy is set once more, last: the operator host is also the operator
    // tenant's login domain, and the hooks that widen a tenant's pages (its captcha, its chat
    // widget) run for it too. Of what came before, only the page's style nonce is kept.
    const path = request.url.split('?')[0] ?? '/';
    if (isPreviewPage(config, path, request.host)) {
      const styleNonce = /(?:^|;)\s*style-src [^;]*'nonce-([\w+/=-]+)'/.exec(
        String(reply.getHeader('content-security-policy') ?? ''),
      )?.[1];
      reply.header(
        'content-security-policy',
        styleNonce ? cspWithStyleNonce(previewCsp, styleNonce) : previewCsp,
      );
    }
    return payload;
  });
}
