import * as client from 'openid-client';
import { loopbackFetch } from './loopback-fetch.ts';
import { buildIssuerUrl } from './tenants.ts';

export const clientId = 'demo-app';
const clientSecret = 'demo-app-secret';
const discoveryTimeoutSeconds = 5;

export interface DiscoveryCache {
  /** The tenant's client configuration, discovered on first use; rejects if Keycard cannot be reached. */
  getConfiguration(slug: string): Promise<client.Configuration>;
  /** Whether discovery for the tenant succeeds (now or earlier). */
  checkAvailability(slug: string): Promise<boolean>;
}

export function createDiscoveryCache(options: { scheme: 'http' | 'https'; port: number }): DiscoveryCache {
  const configurations = new Map<string, Promise<client.Configuration>>();

  function discoverTenant(slug: string): Promise<client.Configuration> {
    return client.discovery(
      buildIssuerUrl(slug, options.scheme, options.port),
      clientId,
      clientSecret,
      client.ClientSecretBasic(clientSecret),
      {
        // Discovery stores the custom fetch on the Configuration, so token and JWKS requests use it too.
        [client.customFetch]: loopbackFetch,
        execute: options.scheme === 'http' ? [client.allowInsecureRequests] : [],
        timeout: discoveryTimeoutSeconds,
      },
    );
  }

  function getConfiguration(slug: string): Promise<client.Configuration> {
    let configuration = configurations.get(slug);
    if (!configuration) {
      configuration = discoverTenant(slug);
      configurations.set(slug, configuration);
      // Forget failures so the next request retries, e.g. once Keycard has started.
      configuration.catch(() => configurations.delete(slug));
    }
    return configuration;
  }

  async function checkAvailability(slug: string): Promise<boolean> {
    try {
      await getConfiguration(slug);
      return true;
    } catch {
      return false;
    }
  }

  return { getConfiguration, checkAvailability };
}
