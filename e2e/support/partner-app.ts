import { createPartnerApp, type PartnerApp } from '@keycard/partner-app/app';
import { registerDemoPartnerApp } from '../../apps/server/src/surfaces/seed/demo.ts';
import type { Keycard } from './keycard.ts';

/**
 * The demo partner app on a free port, registered with that origin as the demo seed registers
 * it on port 3002 (partner `demo-partner` and the `demo-partner-app` client, on grand-hotel and
 * summit), so tests never depend on port 3002 being free.
 */
export async function startPartnerApp(keycard: Keycard): Promise<PartnerApp> {
  const app = await createPartnerApp({ port: 0, host: '127.0.0.1', keycardPort: keycard.port });
  await registerDemoPartnerApp(keycard.services.db, app.url, keycard.clock.now());
  keycard.services.tenants.invalidate();
  keycard.services.providers.invalidate();
  return app;
}
