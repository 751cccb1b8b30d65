import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { createApp } from '../../apps/server/src/app.ts';
import { usePasswordHashing } from '../../apps/server/src/features/accounts/password.service.ts';
import { loadConfig } from '../../apps/server/src/platform/config.ts';
import { type Db, openDatabase } from '../../apps/server/src/platform/db/database.ts';
import type { Services } from '../../apps/server/src/surfaces/context.ts';
import { seedDemo } from '../../apps/server/src/surfaces/seed/demo.ts';
import {
  freePort,
  postgresAdminUrl,
  TestClock,
  testPasswordHashingEnv,
} from '../../apps/server/src/test/helper.ts';

/**
 * Two Keycard instances on one PostgreSQL database behind one public port, as production runs
 * them behind a load balancer. The balancer here is a TCP relay that sends each new connection
 * to the instance `route` chose last: a test pins the portal's connections (its page, its
 * websocket) to one instance and the phone's to the other, so an outcome must cross between
 * them (PostgreSQL LISTEN/NOTIFY, or the polling fallback).
 */
export interface KeycardCluster {
  port: number;
  clock: TestClock;
  instances: Array<{ app: FastifyInstance; services: Services }>;
  /** New connections go to this instance (0 or 1); open ones stay where they are. */
  route(instance: 0 | 1): void;
  /** Connections the relay has sent to each instance so far. */
  connections: [number, number];
  origin(tenant?: string): string;
  close(): Promise<void>;
}

export async function startKeycardCluster(
  options: { env?: Record<string, string>; portalDist?: string } = {},
): Promise<KeycardCluster> {
  const name = `keycard_e2e_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresAdminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(postgresAdminUrl);
  url.pathname = `/${name}`;
  const dir = mkdtempSync(path.join(tmpdir(), 'keycard-e2e-cluster-'));
  const publicPort = await freePort();
  const secrets = { cookie: randomBytes(32).toString('hex'), key: randomBytes(32).toString('hex') };
  const clock = new TestClock();
  const databases: Db[] = [];
  const instances: KeycardCluster['instances'] = [];
  const ports: number[] = [];
  for (let index = 0; index < 2; index++) {
    const port = await freePort();
    const config = loadConfig({
      NODE_ENV: 'test',
      PORT: String(port),
      PUBLIC_PORT: String(publicPort),
      HOST: 'localhost',
      DATA_DIR: dir,
      LOG_LEVEL: 'silent',
      COOKIE_SECRET: secrets.cookie,
      ENCRYPTION_KEY: secrets.key,
      DATABASE_URL: url.href,
      ...testPasswordHashingEnv,
      ...options.env,
    });
    usePasswordHashing(config.passwordHashing);
    const database = await openDatabase({
      databaseUrl: config.databaseUrl,
      sqliteFile: path.join(dir, 'x.sqlite'),
    });
    databases.push(database);
    if (index === 0) await seedDemo(database.kysely);
    const { app, services } = await createApp({
      config,
      database,
      secrets: { cookieKeys: [secrets.cookie], encryptionKey: Buffer.from(secrets.key, 'hex') },
      clock,
      logger: false,
      ...(options.portalDist || process.env.PORTAL_DIST
        ? { portalDist: options.portalDist ?? (process.env.PORTAL_DIST as string) }
        : {}),
    });
    await app.listen({ port, host: '127.0.0.1' });
    services.outbox.start();
    instances.push({ app, services });
    ports.push(port);
  }

  let target: 0 | 1 = 0;
  const connections: [number, number] = [0, 0];
  const sockets = new Set<Socket>();
  const relay = createServer((client) => {
    const chosen = target;
    connections[chosen] += 1;
    const upstream = connect(ports[chosen] as number, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  // Both address families, as *.localhost resolves to 127.0.0.1 and ::1.
  await new Promise<void>((resolve) => relay.listen(publicPort, resolve));

  return {
    port: publicPort,
    clock,
    instances,
    connections,
    route: (instance) => {
      target = instance;
    },
    origin: (tenant = 'grand-hotel') => `http://${tenant}.localhost:${publicPort}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => relay.close(() => resolve()));
      for (const { app } of instances) await app.close();
      for (const database of databases) await database.close();
      const cleanup = new pg.Client({ connectionString: postgresAdminUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
