import { apiPaths, type MessengerConfig, messengerConfigResponse } from '@keycard/contract';
import { messengerConfigOf, messengerSettingsOf } from '../../features/messenger/index.ts';
import { defineRoute } from './api-route.ts';

/**
 * The messenger widget (SPEC §1, §3): its configuration for the portal. What it adds to the
 * pages' policy is given as data (surfaces/web/page-sources.ts).
 */
export const messengerRoutes = [
  defineRoute({
    method: 'GET',
    path: apiPaths.messenger,
    summary: "The tenant's messenger widget configuration (SPEC §3)",
    auth: 'none',
    origin: 'any',
    tenant: 'required',
    responses: { 200: messengerConfigResponse },
    errors: [],
    handler: async ({ deps, reply, tenant }): Promise<MessengerConfig> => {
      reply.header('cache-control', 'no-cache');
      return messengerConfigOf(messengerSettingsOf(tenant, deps.config));
    },
  }),
];
