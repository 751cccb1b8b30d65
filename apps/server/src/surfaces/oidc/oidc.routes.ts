import { errorCodes, storageKeys } from '@keycard/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  isBrowserRoute,
  unavailableBody,
  unavailableCode,
  unavailableHeaders,
} from '../../features/oidc/index.ts';
import { errorAnswer } from '../../platform/http/errors.ts';
import { AppError } from '../../platform/shared/errors.ts';
import { isOutage } from '../../platform/shared/outage.ts';
import type { Services } from '../context.ts';
import { logoutScript, providerCss } from './pages.ts';

/**
 * Mounts each tenant's provider under /oidc. The provider reads its own request bodies, so
 * this scope registers no body parser; the mount path is given to the provider through
 * originalUrl, as Express-style mounting does.
 */
export async function oidcRoutes(app: FastifyInstance, { providers, config }: Services): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));
  // An outage before the provider is reached (the tenant or its provider cannot be loaded)
  // answers as the provider itself would (provider-outage.ts): never a redirect, since no
  // client or redirect_uri could be checked.
  app.setErrorHandler(async (error, request, reply) => {
    if (!isOutage(error)) {
      const { status, body } = errorAnswer(error);
      if (status >= 500) request.log.error({ err: error, code: body.code }, 'request failed');
      return reply.status(status).send(body);
    }
    request.log.error({ err: error, tenant: request.tenant?.code }, 'provider request failed');
    reply.status(503).headers(unavailableHeaders);
    const path = request.url.split('?')[0]!.slice('/oidc'.length);
    if (!isBrowserRoute(path)) return reply.send(unavailableBody);
    const { html, csp } = await providers.pages.errorPageOutside({
      tenant: request.tenant,
      code: unavailableCode,
      path,
      query: request.query as Record<string, unknown>,
      chosenLocale: request.cookies[storageKeys.languageCookie],
      acceptLanguage: request.headers['accept-language'],
    });
    reply.header('content-security-policy', csp);
    return reply.type('text/html; charset=utf-8').send(html);
  });

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!request.tenant) {
      const { status, body } = errorAnswer(new AppError(errorCodes.unknownDomain));
      return reply.status(status).send(body);
    }
    const { handler: callback } = await providers.get(request.tenant);
    const raw = request.raw as typeof request.raw & { originalUrl?: string };
    raw.originalUrl = raw.url;
    raw.url = (raw.url ?? '/').slice('/oidc'.length) || '/';
    // The provider sees what Fastify established, never what a client claims: the public
    // scheme (so its cookies are Secure whenever the public URLs are https, behind a proxy
    // or not), the host and the client address (from X-Forwarded-* only with TRUST_PROXY).
    raw.headers['x-forwarded-proto'] = config.publicScheme;
    raw.headers['x-forwarded-host'] = request.host;
    raw.headers['x-forwarded-for'] = request.ip;
    reply.hijack();
    callback(raw, reply.raw);
  };
  app.all('/oidc', handler);
  app.all('/oidc/*', handler);

  app.get('/_keycard/logout.js', async (_request, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .send(logoutScript),
  );
  app.get('/_keycard/provider.css', async (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=300').send(providerCss),
  );
}
