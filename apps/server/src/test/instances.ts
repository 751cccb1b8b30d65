import path from 'node:path';
import { loopbackFetch } from '@keycard/demo-app/loopback-fetch';
import type { FastifyInstance } from 'fastify';
import { Agent, buildConnector, fetch as undiciFetch } from 'undici';
import { createApp } from '../app.ts';
import { loadConfig } from '../platform/config.ts';
import { type Engine, openDatabase } from '../platform/db/database.ts';
import type { Services } from '../surfaces/context.ts';
import { freePort, type TestApp, testPasswordHashingEnv } from './helper.ts';
import type { Fetcher } from './http-client.ts';
import { listeningTestApp } from './oidc.ts';

/** One running instance of the server, and how a load balancer reaches it. */
export interface Instance {
  app: FastifyInstance;
  services: Services;
  /**
   * fetch as a load balancer routes it to this instance: the URL (and so the Host header)
   * stays the public one, the socket goes to this instance's port.
   */
  fetch: Fetcher;
}

/** N instances serving the same tenants from one database, behind one public origin. */
export interface Cluster {
  /** The first instance as a TestApp: its database, configuration and (shared) clock. */
  t: TestApp;
  instances: Instance[];
  /** The public origin of a tenant, e.g. http://grand-hotel.localhost:<port>. */
  origin(tenant: string): string;
  close(): Promise<void>;
}

/** A fetch whose connections all go to 127.0.0.1:port, whatever host the URL names. */
export function fetchVia(port: number): Fetcher {
  const connect = buildConnector({});
  const agent = new Agent({
    connect: (options, callback) =>
      connect({ ...options, hostname: '127.0.0.1', port: String(port) }, callback),
  });
  return async (input, init) =>
    (await undiciFetch(input, { ...(init as object), dispatcher: agent })) as unknown as Response;
}

/** What the instances run with: extra environment, and the built portal they serve. */
export interface ClusterOptions {
  env?: Record<string, string>;
  portalDist?: string;
}

/** One listening instance (the usual test app) as a cluster of one. */
export async function oneInstance(engine: Engine, options: ClusterOptions = {}): Promise<Cluster> {
  const { t, origin } = await listeningTestApp(engine, options);
  return {
    t,
    instances: [{ app: t.app, services: t.services, fetch: loopbackFetch }],
    origin,
    close: () => t.close(),
  };
}

/**
 * Two instances on one PostgreSQL database, as production runs them behind a load balancer:
 * the first is the usual listening test app; the second is built with createApp on the same
 * DATABASE_URL with the same COOKIE_SECRET and ENCRYPTION_KEY (so either can read what the
 * other signed or encrypted) and the same public port, and listens on a port of its own. They
 * share nothing else but the database (and Redis, with REDIS_URL): each has its own pool,
 * tenant cache, providers and rate-limit store client. Both read one TestClock.
 */
export async function twoInstances(options: ClusterOptions = {}): Promise<Cluster> {
  const first = await oneInstance('postgres', options);
  const { t } = first;
  try {
    const port = await freePort();
    const config = loadConfig({
      NODE_ENV: 'test',
      PORT: String(port),
      PUBLIC_PORT: String(t.config.port),
      DATA_DIR: t.config.dataDir,
      LOG_LEVEL: 'silent',
      COOKIE_SECRET: t.config.cookieSecret!,
      ENCRYPTION_KEY: t.config.encryptionKey!,
      DATABASE_URL: t.config.databaseUrl!,
      ...testPasswordHashingEnv,
      ...options.env,
    });
    const database = await openDatabase({
      databaseUrl: config.databaseUrl,
      sqliteFile: path.join(config.dataDir, 'test.sqlite'),
    });
    const { app, services } = await createApp({
      config,
      database,
      secrets: t.services.secrets,
      clock: t.clock,
      logger: false,
      ...(options.portalDist ? { portalDist: options.portalDist } : {}),
    });
    await app.listen({ port, host: '127.0.0.1' });
    return {
      t,
      instances: [
        { app: t.app, services: t.services, fetch: fetchVia(t.config.port) },
        { app, services, fetch: fetchVia(port) },
      ],
      origin: first.origin,
      close: async () => {
        await app.close();
        await database.close();
        await t.close();
      },
    };
  } catch (error) {
    await t.close();
    throw error;
  }
}

/**
 * Two instances where the engine allows it (PostgreSQL), one on SQLite: an SQLite file
 * belongs to one process, which is how the embedded mode runs.
 */
export function instancesFor(engine: Engine, options: ClusterOptions = {}): Promise<Cluster> {
  return engine === 'postgres' ? twoInstances(options) : oneInstance(engine, options);
}
