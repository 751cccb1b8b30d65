import { adminScope, operatorTenantCode } from '@keycard/contract';
import { type Configuration, errors } from 'oidc-provider';
import type { Config } from '../config.ts';
import type { TenantContext } from '../tenants/tenant.types.ts';
import { adminResource, consoleClientId } from './operators.service.ts';

/** Access tokens for the admin API live ten minutes; a machine asks again (client credentials). */
export const adminTokenTtlSeconds = 600;

/**
 * The operator tenant's provider issues access tokens for one resource, the admin API
 * (RFC 8707 resource indicators): to machine clients through the client credentials grant
 * (RFC 6749 §4.4), to people signing in to the console through code + PKCE. The tokens are
 * opaque and stored, so the API looks each one up (and a revoked one fails at once). Other
 * tenants' providers are left as they are: they issue no client-credentials tokens at all.
 */
function mayUseAdminApi(client: { clientId: string; grantTypes?: readonly string[] | undefined }): boolean {
  return client.clientId === consoleClientId || (client.grantTypes ?? []).includes('client_credentials');
}

export function adminProviderConfiguration(config: Config) {
  const resource = adminResource(config);
  return (tenant: TenantContext, configuration: Configuration): void => {
    if (tenant.code !== operatorTenantCode) return;
    configuration.scopes = [...(configuration.scopes ?? []), adminScope];
    configuration.ttl = { ...configuration.ttl, ClientCredentials: adminTokenTtlSeconds };
    configuration.features = {
      ...configuration.features,
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        // Only the console and machine operators get tokens for the admin API; another client
        // registered on the operator tenant gets none (its tokens would act as the operator).
        defaultResource: (_ctx, client) => (client && mayUseAdminApi(client) ? resource : undefined),
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator, client) => {
          if (indicator !== resource || !mayUseAdminApi(client)) throw new errors.InvalidTarget();
          return {
            scope: adminScope,
            audience: resource,
            accessTokenTTL: adminTokenTtlSeconds,
            accessTokenFormat: 'opaque',
          };
        },
      },
    };
  };
}
