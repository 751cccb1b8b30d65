import { createHash } from 'node:crypto';
import {
  apiPaths,
  errorCodes,
  type LoginDomainResponse,
  loginDomainParams,
  loginDomainResponse,
  routePattern,
} from '@keycard/contract';
import type { FastifyInstance } from 'fastify';
import { answers } from '../../platform/http/contract.ts';
import { hostnameOf } from '../../platform/http/host.ts';
import { parseInput } from '../../platform/http/validate.ts';
import { AppError } from '../../platform/shared/errors.ts';
import type { Services } from '../context.ts';
import { requireTenant } from '../tenant.ts';

export async function tenantRoutes(app: FastifyInstance, { tenants }: Services): Promise<void> {
  app.get(
    routePattern(apiPaths.loginDomain, 'domain'),
    answers(loginDomainResponse),
    async (request, reply) => {
      const { domain } = parseInput(loginDomainParams, request.params);
      const current = requireTenant(request);
      const tenant = await tenants.resolveHost(domain);
      // A domain is answered only on a host of the same tenant: one tenant's pages cannot
      // be used to discover another's.
      if (!tenant || tenant.code !== current.code) {
        throw new AppError(errorCodes.unknownDomain);
      }
      const body: LoginDomainResponse = {
        theme: tenant.theme,
        tenant: {
          code: tenant.code,
          aliasCode: tenant.aliasCode,
          loginDomain: tenant.loginDomain,
          loginClientId: tenant.loginClientId,
        },
        domain: hostnameOf(domain),
      };
      // Kept by caches but revalidated at every use, cheaply (304 by ETag): a changed theme
      // gets a new ETag at once, so browsers see it as soon as the server does (within 5 s on
      // every instance, docs/configuration.md), never a minute later.
      const etag = `"${createHash('sha256').update(JSON.stringify(body)).digest('base64url').slice(0, 27)}"`;
      reply.header('cache-control', 'no-cache');
      reply.header('etag', etag);
      reply.header('vary', 'Host');
      const known = request.headers['if-none-match'];
      if (known?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) {
        return reply.status(304).send();
      }
      return body;
    },
  );
}
