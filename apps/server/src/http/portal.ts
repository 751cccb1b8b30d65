import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { errorCodes, paths } from '@keycard/contract';
import type { FastifyInstance } from 'fastify';

/** Route patterns of the portal, from the one paths object; anything else is a 404 page. */
const routePatterns = Object.values(paths).map((route) => {
  const body = route
    .replace(/\/$/, '')
    .split('/')
    .map((part) => (part.startsWith(':') ? (part.endsWith('?') ? '(?:[^/]+)?' : '[^/]+') : part))
    .join('/');
  return new RegExp(`^${body}/?$`);
});
// /login/:stage? — the password stage.
routePatterns.push(/^\/login\/password\/?$/);

export function isPortalRoute(pathname: string): boolean {
  return routePatterns.some((pattern) => pattern.test(pathname));
}

/**
 * Serves the built SPA: hashed assets with long caching, and index.html for every portal
 * route (history routing), with status 404 for paths no route knows.
 */
export async function portalRoutes(app: FastifyInstance, opts: { distDir: string }): Promise<void> {
  const indexFile = path.join(opts.distDir, 'index.html');
  const built = existsSync(indexFile);
  const indexHtml = built ? readFileSync(indexFile, 'utf8') : undefined;
  if (built) {
    await app.register(fastifyStatic, {
      root: opts.distDir,
      prefix: '/',
      wildcard: false,
      index: false,
      setHeaders: (res, filePath) => {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.setHeader('cache-control', 'public, max-age=31536000, immutable');
        }
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !pathname.startsWith('/api/') &&
      !pathname.startsWith('/oidc') &&
      // A missing asset (a dot in its last segment) is a JSON 404, but a portal route whose
      // parameter has dots in it is a page: a partner link ends in a JWT (header.payload.sig).
      (!path.extname(pathname) || isPortalRoute(pathname));
    if (wantsPage && indexHtml) {
      return reply
        .status(isPortalRoute(pathname) ? 200 : 404)
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(indexHtml);
    }
    return reply
      .status(404)
      .send({ code: errorCodes.notFound, message: `No route for ${request.method} ${pathname}` });
  });
}
