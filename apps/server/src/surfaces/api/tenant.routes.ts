import { createHash } from 'node:crypto';
import {
  apiPaths,
  errorCodes,
  type LoginDomainResponse,
  loginDomainParams,
  loginDomainResponse,
  routePattern,
} from '@keycard/contract';
import { hostnameOf } from '../../platform/http/host.ts';
import { AppError } from '../../platform/shared/errors.ts';
import { defineRoute } from './api-route.ts';

export const tenantRoutes = [
  defineRoute({
    method: 'GET',
    path: routePattern(apiPaths.loginDomain, 'domain'),
    summary: "A login domain's theme and tenant, asked on a host of the same tenant (ETag, 304)",
    auth: 'none',
    origin: 'any',
    tenant: 'required',
    params: loginDomainParams,
    responses: { 200: loginDomainResponse, 304: null },
    errors: [],
    handler: async ({ deps, request, reply, tenant: current, params, answer }) => {
      const tenant = await deps.tenants.resolveHost(params.domain);
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
          passkeys: tenant.settings.passkeys,
        },
        domain: hostnameOf(params.domain),
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
        return answer(304, undefined);
      }
      return body;
    },
  }),
];
