import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createApp } from '../../apps/server/src/app.ts';
import { usePasswordHashing } from '../../apps/server/src/features/accounts/password.service.ts';
import { loadConfig } from '../../apps/server/src/platform/config.ts';
import { openDatabase } from '../../apps/server/src/platform/db/database.ts';
import type { Transports } from '../../apps/server/src/platform/messaging/message.types.ts';
import type { Services } from '../../apps/server/src/surfaces/context.ts';
import { seedDemo } from '../../apps/server/src/surfaces/seed/demo.ts';
import { freePort, TestClock, testPasswordHashingEnv } from '../../apps/server/src/test/helper.ts';

export { freePort };

export interface Keycard {
  port: number;
  app: FastifyInstance;
  services: Services;
  clock: TestClock;
  /** http://<tenant>.localhost:<port> — browsers resolve *.localhost to loopback. */
  origin(tenant?: string): string;
  close(): Promise<void>;
}

/**
 * A real Keycard server for a browser test: its own SQLite file, the demo seed, the built
 * portal, listening on a free port on localhost. The outbox worker runs as in production.
 */
export async function startKeycard(
  options: { env?: Record<string, string>; transports?: Partial<Transports> } = {},
): Promise<Keycard> {
  const dir = mkdtempSync(path.join(tmpdir(), 'keycard-e2e-'));
  const port = await freePort();
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: String(port),
    HOST: 'localhost',
    DATA_DIR: dir,
    LOG_LEVEL: 'silent',
    COOKIE_SECRET: randomBytes(32).toString('hex'),
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    ...testPasswordHashingEnv,
    ...options.env,
  });
  usePasswordHashing(config.passwordHashing);
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    sqliteFile: path.join(dir, 'keycard.sqlite'),
  });
  await seedDemo(database.kysely);
  const clock = new TestClock();
  const { app, services } = await createApp({
    config,
    database,
    secrets: { cookieKeys: [config.cookieSecret!], encryptionKey: Buffer.from(config.encryptionKey!, 'hex') },
    clock,
    logger: false,
    // Parallel work may build the portal elsewhere; PORTAL_DIST says where.
    ...(process.env.PORTAL_DIST ? { portalDist: process.env.PORTAL_DIST } : {}),
    // The admin console likewise, CONSOLE_DIST (default apps/console/dist).
    ...(process.env.CONSOLE_DIST ? { consoleDist: process.env.CONSOLE_DIST } : {}),
    ...(options.transports ? { transports: options.transports } : {}),
  });
  await app.listen({ port, host: 'localhost' });
  services.outbox.start();
  return {
    port,
    app,
    services,
    clock,
    origin: (tenant = 'grand-hotel') => `http://${tenant}.localhost:${port}`,
    close: async () => {
      await app.close();
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
