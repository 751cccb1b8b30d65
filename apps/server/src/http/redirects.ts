import type { FastifyRequest } from 'fastify';
import { isAllowedRedirect } from '../tenants/tenant.service.ts';
import type { TenantContext } from '../tenants/tenant.types.ts';

/**
 * Invariant 2: where may a redirect go? To a URI registered for the tenant (exact match),
 * or to a page of the portal itself on this very origin. Nothing else.
 */
export function resolveRedirect(
  tenant: TenantContext,
  request: FastifyRequest,
  uri: string | undefined | null,
): string | null {
  if (!uri) return null;
  if (isAllowedRedirect(tenant, uri)) return uri;
  let parsed: URL;
  try {
    parsed = new URL(uri);
  } catch {
    return null;
  }
  const ownOrigin = `${request.protocol}://${request.host}`;
  if (
    parsed.origin === ownOrigin &&
    !parsed.pathname.startsWith('/oidc') &&
    !parsed.pathname.startsWith('/api')
  ) {
    return parsed.href;
  }
  return null;
}
