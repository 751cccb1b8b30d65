import { z } from 'zod';

/**
 * Messenger widget providers (SPEC §1, §3). `standin` is a self-hosted script that speaks the
 * same command API as Intercom, for tests without the internet; production refuses it.
 */
export const messengerProviders = ['intercom', 'standin'] as const;
export type MessengerProvider = (typeof messengerProviders)[number];

/**
 * GET /api/messenger: the runtime configuration of the tenant's messenger widget (SPEC §3:
 * messenger domain list and app id). Nothing here is secret: Intercom's app id is public and
 * the domains are the tenant's own login domains. All null (and no domains) when it is off.
 */
export const messengerConfigResponse = z.object({
  provider: z.enum(messengerProviders).nullable(),
  appId: z.string().nullable(),
  /** Host names (no scheme or port) on which the portal may start the widget. */
  domains: z.array(z.string()),
  /** The script the widget loads (Intercom's widget URL, or the stand-in's). */
  scriptUrl: z.string().nullable(),
});
export type MessengerConfig = z.infer<typeof messengerConfigResponse>;
