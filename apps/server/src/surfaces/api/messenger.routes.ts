import { apiPaths, type MessengerConfig, messengerConfigResponse } from '@keycard/contract';
import type { FastifyInstance } from 'fastify';
import {
  cspWithSources,
  messengerConfigOf,
  messengerSettingsOf,
} from '../../features/messenger/messenger.ts';
import { answers } from '../../platform/http/contract.ts';
import { hostnameOf } from '../../platform/http/host.ts';
import type { Services } from '../context.ts';
import { requireTenant } from '../tenant.ts';

/** The messenger widget (SPEC §1, §3): its runtime configuration and the pages' CSP. */
export async function messengerRoutes(app: FastifyInstance, services: Services): Promise<void> {
  const { config, tenants } = services;

  // Only the pages of a tenant with a widget, on a host where it may start, allow the
  // provider's origins. The policy is extended as it stands (the captcha may have widened it
  // already); the portal adds its style nonce after this.
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return;
    const path = request.url.split('?')[0] ?? '/';
    if (path.startsWith('/api/') || path.startsWith('/oidc') || path.startsWith('/_') || path.includes('.')) {
      return;
    }
    const tenant = await tenants.resolveHost(request.host).catch(() => null);
    if (!tenant) return;
    const messenger = messengerSettingsOf(tenant, config);
    if (!messenger?.domains.includes(hostnameOf(request.host))) return;
    const csp = reply.getHeader('content-security-policy');
    if (typeof csp !== 'string') return;
    reply.header('content-security-policy', cspWithSources(csp, messenger.csp));
  });

  app.get(
    apiPaths.messenger,
    answers(messengerConfigResponse),
    async (request, reply): Promise<MessengerConfig> => {
      const tenant = requireTenant(request);
      reply.header('cache-control', 'no-cache');
      return messengerConfigOf(messengerSettingsOf(tenant, config));
    },
  );
}

// Registered at the root (as fastify-plugin does), so the CSP hook above also covers the
// portal pages, which another plugin serves.
Object.assign(messengerRoutes, { [Symbol.for('skip-override')]: true });
