import { errorCodes } from '@keycard/contract';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../shared/errors.ts';
import type { TenantContext } from '../tenants/tenant.types.ts';

export function requireTenant(request: FastifyRequest): TenantContext {
  if (!request.tenant)
    throw new AppError(errorCodes.unknownDomain, 404, 'No tenant is configured for this domain.');
  return request.tenant;
}
