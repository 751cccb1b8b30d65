import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorCodes } from '@keycard/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../shared/errors.ts';
import type { Metrics } from './metrics.ts';

/**
 * The operators' listener (METRICS_PORT): GET /metrics and nothing else, on an address of
 * its own (METRICS_HOST), so the public load balancer never routes to it and a firewall can
 * keep it to the monitoring network. Plain node:http: no routes, hooks or tenants.
 */
export async function startMetricsServer(
  metrics: Metrics,
  options: { port: number; host: string },
): Promise<{ port: number; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if ((request.method === 'GET' || request.method === 'HEAD') && path === '/metrics') {
      metrics.exposition().then(
        (text) => {
          response.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' });
          response.end(request.method === 'HEAD' ? undefined : text);
        },
        () => {
          response.writeHead(500, { 'content-type': 'text/plain' });
          response.end('metrics could not be collected\n');
        },
      );
      return;
    }
    response.writeHead(404, { 'content-type': 'text/plain' });
    response.end('not found\n');
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * GET /metrics on the operator host (ADMIN_DOMAIN) for `Authorization: Bearer <METRICS_TOKEN>`
 * (for set-ups that reach instances only through the load balancer). Any other host, and a
 * missing or wrong token, answer 404, the same as a path that does not exist.
 */
export function installMetricsRoute(
  app: FastifyInstance,
  metrics: Metrics,
  options: { token: string; onAdminHost: (request: FastifyRequest) => boolean },
): void {
  const expected = digest(`Bearer ${options.token}`);
  app.get('/metrics', async (request, reply) => {
    const given = request.headers.authorization;
    const allowed =
      options.onAdminHost(request) && typeof given === 'string' && timingSafeEqual(digest(given), expected);
    if (!allowed) throw new AppError(errorCodes.notFound);
    const text = await metrics.exposition();
    return reply.type(metrics.contentType).header('cache-control', 'no-store').send(text);
  });
}
