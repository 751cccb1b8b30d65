import type { Engine } from '../platform/db/database.ts';
import { buildTestApp, freePort, type TestApp } from './helper.ts';

/**
 * A test app as a production start sees it: SEED_DEMO=false, no tenant at all, listening on a
 * free port so the issuers and mailed links of tenants created later are real URLs.
 */
export async function listeningEmptyTestApp(
  engine: Engine,
): Promise<{ t: TestApp; port: number; origin: (domain: string) => string }> {
  const port = await freePort();
  const t = await buildTestApp(engine, { seed: false, env: { SEED_DEMO: 'false', PORT: String(port) } });
  await t.app.listen({ port, host: '127.0.0.1' });
  return { t, port, origin: (domain) => `http://${domain}:${port}` };
}
