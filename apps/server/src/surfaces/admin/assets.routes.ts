import { errorCodes } from '@keycard/contract';
import type { FastifyInstance } from 'fastify';
import { loadImage } from '../../features/assets/index.ts';
import { AppError } from '../../platform/shared/errors.ts';
import type { Services } from '../context.ts';

/**
 * Serves uploaded theme images on every host (a tenant's pages load their own by a relative
 * URL). Content-addressed, so cached for good; a policy that forbids everything (and a
 * sandbox) goes with each, so an image opened on its own can run nothing.
 */
export async function themeAssetRoutes(app: FastifyInstance, { db }: Services): Promise<void> {
  app.get<{ Params: { tenant: string; file: string } }>(
    '/_keycard/assets/:tenant/:file',
    async (request, reply) => {
      const { tenant, file } = request.params;
      const hash = /^([0-9a-f]{64})\.(png|webp|ico|svg)$/.exec(file)?.[1];
      const image =
        hash && /^[a-z0-9][a-z0-9-]{0,63}$/.test(tenant) ? await loadImage(db, tenant, hash) : null;
      if (!image) throw new AppError(errorCodes.notFound);
      return reply
        .type(image.contentType)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
        .header('x-content-type-options', 'nosniff')
        .send(image.bytes);
    },
  );
}
