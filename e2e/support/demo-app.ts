import { createDemoApp, type DemoApp } from '@keycard/demo-app/app';
import { upsertTenant } from '../../apps/server/src/features/tenants/tenant.admin.ts';
import { demoTenants } from '../../apps/server/src/surfaces/seed/demo.ts';
import { freePort, type Keycard } from './keycard.ts';

/**
 * The demo app on a free port, registered (exactly) as a redirect URI of every demo tenant's
 * demo-app client, so tests never depend on port 3001 being free.
 */
export async function startDemoApp(keycard: Keycard): Promise<DemoApp> {
  const port = await freePort();
  const base = `http://localhost:${port}`;
  for (const tenant of demoTenants) {
    await upsertTenant(keycard.services.db, {
      ...tenant,
      // Only the demo app's own client: the partner app's is registered by its own helper.
      clients: tenant.clients
        .filter((client) => client.client_id === 'demo-app')
        .map((client) => ({
          ...client,
          redirect_uris: [...client.redirect_uris, `${base}/callback`],
          post_logout_redirect_uris: [...(client.post_logout_redirect_uris ?? []), `${base}/`],
        })),
    });
  }
  keycard.services.tenants.invalidate();
  keycard.services.providers.invalidate();
  return createDemoApp({
    port,
    host: '127.0.0.1',
    keycardPort: keycard.port,
    redirectBase: base,
    tenants: demoTenants.map((t) => t.code),
  });
}
