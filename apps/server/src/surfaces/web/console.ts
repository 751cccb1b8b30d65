import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hostnameOf } from '../../platform/http/host.ts';

/** Where the console lives on the operator host (its Vite `base`). */
export const consoleBase = '/console/';

/**
 * A file of the build, as a path below the dist directory: plain names only, no segment that
 * starts with a dot. `..` (also when it arrived percent-encoded: the router decodes it) and
 * dotfiles never reach the file system.
 */
function isBuildFile(file: string): boolean {
  return /^(?:[\w-][\w.-]*\/)*[\w-][\w.-]*$/.test(file) && !file.includes('..');
}

const notBuilt =
  'The admin console is not built. Run `npm run build` in the Keycard checkout (it builds the portal and the console), then restart Keycard.\n';

/**
 * The admin console (apps/console, a single-page app) on the operator host only: its hashed
 * assets cached for good, index.html for every other address under /console/ (the SPA's
 * history routing), and the operator host's / leads to it. On any other host these addresses
 * do not exist: they fall through to the ordinary 404. The console's security headers are
 * set with every page's (security.ts).
 */
export async function consoleRoutes(
  app: FastifyInstance,
  opts: { distDir: string; adminDomain: string },
): Promise<void> {
  const indexFile = path.join(opts.distDir, 'index.html');
  const indexHtml = existsSync(indexFile) ? readFileSync(indexFile) : undefined;
  const onAdminHost = (request: FastifyRequest) => hostnameOf(request.host) === opts.adminDomain;

  // Files are sent by @fastify/static (ranges, ETags, the build's .br and .gz copies as they
  // are); this plugin registers no route of its own for them.
  await app.register(fastifyStatic, {
    serve: false,
    preCompressed: true,
    cacheControl: false,
    setHeaders: (res, filePath) => {
      const immutable = filePath.startsWith(path.join(opts.distDir, 'assets') + path.sep);
      res.setHeader('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });

  function sendPage(reply: FastifyReply) {
    if (!indexHtml) {
      return reply
        .status(503)
        .type('text/plain; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(notBuilt);
    }
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(indexHtml);
  }

  // The console's own page policy (platform/http/page-policy.ts) is set for its addresses on
  // the operator host: nothing that widens the operator tenant's sign-in pages reaches it.
  app.addHook('onRequest', async (request, reply) => {
    if (!onAdminHost(request)) return reply.callNotFound();
  });

  app.get('/', async (request, reply) => reply.redirect(consoleBase + queryOf(request.url)));
  app.get('/console', async (request, reply) => reply.redirect(consoleBase + queryOf(request.url)));
  app.get(consoleBase, async (_request, reply) => sendPage(reply));
  app.get(`${consoleBase}*`, async (request, reply) => {
    const file = (request.params as { '*': string })['*'];
    // An address without an extension is a screen of the SPA; index.html is one too.
    if (!path.extname(file) || file === 'index.html') return sendPage(reply);
    if (!indexHtml || !isBuildFile(file)) return reply.callNotFound();
    return reply.sendFile(file, opts.distDir);
  });
}

function queryOf(url: string): string {
  const index = url.indexOf('?');
  return index === -1 ? '' : url.slice(index);
}
