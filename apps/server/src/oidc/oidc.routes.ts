import type { FastifyInstance } from 'fastify';
import type { Services } from '../http/context.ts';
import { logoutScript, providerCss } from './pages.ts';

/**
 * Mounts each tenant's provider under /oidc. The provider reads its own request bodies, so
 * this scope registers no body parser; the mount path is given to the provider through
 * originalUrl, as Express-style mounting does.
 */
export async function oidcRoutes(app: FastifyInstance, { providers }: Services): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));

  const handler = async (
    request: import('fastify').FastifyRequest,
    reply: import('fastify').FastifyReply,
  ) => {
    if (!request.tenant) {
      return reply
        .status(404)
        .send({ code: 'tenant.unknown_domain', message: 'No tenant is configured for this domain.' });
    }
    const { handler: callback } = await providers.get(request.tenant);
    const raw = request.raw as typeof request.raw & { originalUrl?: string };
    raw.originalUrl = raw.url;
    raw.url = (raw.url ?? '/').slice('/oidc'.length) || '/';
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
