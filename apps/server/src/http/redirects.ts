import type { FastifyRequest } from 'fastify';
import { type Config, publicOrigin } from '../config.ts';
import { hostnameOf, isAllowedRedirect } from '../tenants/tenant.service.ts';
import type { TenantContext } from '../tenants/tenant.types.ts';

/** The public origin of the portal page that made this request (scheme, host, port). */
export function ownOriginOf(config: Config, request: FastifyRequest): string {
  return publicOrigin(config, hostnameOf(request.host));
}

/**
 * Invariant 2: where may a redirect go? To a URI registered for the tenant (exact match),
 * or to a page of the portal itself on this very origin. Nothing else.
 */
export function resolveRedirect(
  tenant: TenantContext,
  ownOrigin: string,
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
  if (
    parsed.origin === ownOrigin &&
    !parsed.pathname.startsWith('/oidc') &&
    !parsed.pathname.startsWith('/api')
  ) {
    return parsed.href;
  }
  return null;
}
