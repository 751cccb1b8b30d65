import type { FastifyRequest } from 'fastify';
import { messengerSettingsOf } from '../../features/messenger/index.ts';
import { captchaPageSources, captchaSettingsOf } from '../../features/tenants/index.ts';
import type { Config } from '../../platform/config.ts';
import { hostnameOf } from '../../platform/http/host.ts';
import type { PageSources } from '../../platform/http/page-policy.ts';
import type { PageSourcesOf } from '../../platform/http/security.ts';
import type { Services } from '../context.ts';

/**
 * What the features add to a tenant's portal pages, as data for the one page policy
 * (platform/http/page-policy.ts), in a fixed order: the tenant's captcha, then its messenger
 * widget on the hosts where the widget may start. Analytics adds nothing: the portal sends its
 * events to its own origin (/api/analytics/events).
 */
export function pageSourcesOf(services: Pick<Services, 'tenants'> & { config: Config }): PageSourcesOf {
  const { tenants, config } = services;
  return async (request: FastifyRequest) => {
    const tenant = await tenants.resolveHost(request.host).catch(() => null);
    if (!tenant) return [];
    const sources: PageSources[] = [];
    const captcha = captchaPageSources(captchaSettingsOf(tenant));
    if (captcha) sources.push(captcha);
    const messenger = messengerSettingsOf(tenant, config);
    if (messenger?.domains.includes(hostnameOf(request.host))) sources.push({ add: messenger.csp });
    return sources;
  };
}
