import { errorCodes } from '@keycard/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { AppError } from '../shared/errors.ts';
import { errorAnswer } from './errors.ts';
import { hostnameOf, ownOriginOf } from './host.ts';
import {
  isPageRequest,
  type PagePolicyInput,
  type PageSources,
  pageKindOf,
  pagePolicy,
} from './page-policy.ts';

/** The sources features add to a portal page of the request's tenant (app.ts gathers them). */
export type PageSourcesOf = (request: FastifyRequest) => Promise<readonly PageSources[]>;

/** What an answer's page policy was made of, for a page that adds its style nonce later. */
const policyInputs = new WeakMap<FastifyRequest, PagePolicyInput>();

function onAdminHost(config: Config, host: string | undefined): boolean {
  return host !== undefined && hostnameOf(host) === config.adminDomain;
}

/** The headers every answer carries; `host` tells the operator host's pages (console, preview). */
export function securityHeaders(config: Config, path: string, host?: string): Record<string, string> {
  return pagePolicy({
    kind: pageKindOf(path, onAdminHost(config, host)),
    https: config.publicScheme === 'https',
  });
}

/**
 * Sets an answer's page policy (page-policy.ts), once: its kind by address and host, and for a
 * tenant's page what its features add. The provider (/oidc) writes its answers itself, so its
 * headers go straight onto the raw answer.
 */
async function applyPagePolicy(
  request: FastifyRequest,
  reply: FastifyReply,
  config: Config,
  pageSourcesOf: PageSourcesOf,
): Promise<void> {
  const path = request.url.split('?')[0] ?? '/';
  const kind = pageKindOf(path, onAdminHost(config, request.host));
  const widened = kind === 'portal' && isPageRequest(request.method, path) && isValidHost(request.host);
  const input: PagePolicyInput = {
    kind,
    https: config.publicScheme === 'https',
    sources: widened ? await pageSourcesOf(request).catch(() => []) : [],
  };
  policyInputs.set(request, input);
  const headers = pagePolicy(input);
  if (kind === 'provider') {
    for (const [name, value] of Object.entries(headers)) reply.raw.setHeader(name, value);
  } else {
    reply.headers(headers);
  }
}

/**
 * A page drawn with one inline style (the first paint's theme colours): its policy, as made
 * for the request, also allows that style by its nonce.
 */
export function allowPageStyle(request: FastifyRequest, reply: FastifyReply, nonce: string): void {
  const input = policyInputs.get(request) ?? { kind: 'portal' };
  reply.header('content-security-policy', pagePolicy({ ...input, nonce })['content-security-policy']);
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

/** No feature adds anything to the pages (an app without tenants' features, in tests). */
const noSources: PageSourcesOf = async () => [];

export function installSecurity(
  app: FastifyInstance,
  config: Config,
  pageSourcesOf: PageSourcesOf = noSources,
): void {
  app.addHook('onRequest', async (request, reply) => {
    await applyPagePolicy(request, reply, config, pageSourcesOf);
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
    return payload;
  });
}
