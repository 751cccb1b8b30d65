import { errorCodes } from '@keycard/contract';
import type { FastifyRequest } from 'fastify';
import type { TenantContext } from '../features/tenants/index.ts';
import { AppError } from '../platform/shared/errors.ts';

export function requireTenant(request: FastifyRequest): TenantContext {
  if (!request.tenant) throw new AppError(errorCodes.unknownDomain);
  return request.tenant;
}
