/**
 * The bench's Keycard server, in a process of its own (forked by bench/login.bench.ts), so
 * the load generator's work (openid-client, fetch, PKCE) never runs on the server's event
 * loop. Built as apps/server/src/main.ts builds it — openDatabase, the demo seed, createApp
 * with its default logger, the outbox worker and the janitor — plus bench users, and a
 * census of SQL statements per route (sql-census.ts).
 *
 * Talks to its parent over IPC: 'ready' once listening; answers 'stats' (SQL census, CPU,
 * event-loop use), 'profile-start' / 'profile-stop' (node:inspector CPU profile of the main
 * thread, written to a .cpuprofile file) and 'shutdown'.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createApp } from '../../apps/server/src/app.ts';
import { usePasswordHashing } from '../../apps/server/src/features/accounts/password.service.ts';
import { createUser, findUserByEmail } from '../../apps/server/src/features/accounts/user.repository.ts';
import { startJanitor } from '../../apps/server/src/features/maintenance/janitor.ts';
import { loadConfig } from '../../apps/server/src/platform/config.ts';
import { openDatabase } from '../../apps/server/src/platform/db/database.ts';
import { demoPassword, seedDemo } from '../../apps/server/src/surfaces/seed/demo.ts';
import { installSqlCensus, snapshot, tagRequests } from './sql-census.ts';

export interface ServerOptions {
  engine: 'sqlite' | 'postgres';
  /** PostgreSQL database URL (postgres engine). */
  databaseUrl?: string;
  /** Directory for the SQLite file and DATA_DIR. */
  dir: string;
  /** Bench users created besides the demo users (bench-<n>@grand-hotel.test, demo password). */
  users: number;
  /** LOG_LEVEL of the server's logger (stdout, which the bench discards). */
  logLevel: string;
  /** Check every API answer against its contract, as outside production (test mode does). */
  contractCheck: boolean;
  /** Count SQL statements per route (sql-census.ts); off to measure without its overhead. */
  census: boolean;
}

export type ToServer =
  | { type: 'stats' }
  | { type: 'profile-start' }
  | { type: 'profile-stop'; file: string }
  | { type: 'shutdown' };

export interface ServerStats {
  census: ReturnType<typeof snapshot>;
  /** process.cpuUsage(): every thread of the server, argon2's worker threads included. */
  cpu: NodeJS.CpuUsage;
  /** process.threadCpuUsage(): the main thread alone (HTTP, SQL, tokens, logging). */
  mainCpu: NodeJS.CpuUsage;
  /** Cumulative event-loop use of the main thread. */
  elu: { idle: number; active: number };
}

export type FromServer =
  | { type: 'ready'; port: number; tenant: string; users: string[] }
  | { type: 'stats'; stats: ServerStats }
  | { type: 'profile-started' }
  | { type: 'profile-stopped'; file: string };

const benchTenant = 'grand-hotel';
const benchUserEmail = (n: number) => `bench-${n}@grand-hotel.test`;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

async function main(): Promise<void> {
  const options = JSON.parse(process.env.BENCH_SERVER_OPTIONS ?? '') as ServerOptions;
  const send = (message: FromServer) => process.send?.(message);
  if (options.census) installSqlCensus();

  const port = await freePort();
  const loaded = loadConfig({
    NODE_ENV: 'test',
    PORT: String(port),
    HOST: 'localhost',
    DATA_DIR: options.dir,
    LOG_LEVEL: options.logLevel,
    // Every bench login comes from 127.0.0.1: the per-address limit would refuse most.
    LOGIN_IP_LIMIT_PER_MINUTE: '100000',
    COOKIE_SECRET: randomBytes(32).toString('hex'),
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    ...Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith('PASSWORD_HASH_'))),
  });
  usePasswordHashing(loaded.passwordHashing);
  // Production behaviour without production's other demands (https, no SQLite): the only
  // thing config.env switches at run time is the response-contract check (app.ts).
  const config = options.contractCheck ? loaded : { ...loaded, env: 'production' as const };
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    sqliteFile: path.join(options.dir, 'keycard.sqlite'),
    onIdleError: (error) => console.error(`database connection lost: ${error.message}`),
  });
  await seedDemo(database.kysely);
  // Several accounts, so concurrent logins do not queue on one user's rows (attempt bucket).
  const users: string[] = [];
  for (let n = 1; n <= options.users; n++) {
    const email = benchUserEmail(n);
    if (!(await findUserByEmail(database.kysely, benchTenant, email))) {
      await createUser(database.kysely, {
        tenantCode: benchTenant,
        email,
        type: 'staff',
        locale: 'en',
        status: 'active',
        password: demoPassword,
        emailVerified: true,
      });
    }
    users.push(email);
  }
  const { app, services } = await createApp({
    config,
    database,
    secrets: { cookieKeys: [config.cookieSecret!], encryptionKey: Buffer.from(config.encryptionKey!, 'hex') },
  });
  if (options.census) tagRequests(app.server);
  await app.listen({ port, host: 'localhost' });
  services.outbox.start();
  const stopJanitor = startJanitor(database.kysely, services.clock, (error) =>
    app.log.error({ err: error }, 'sweep failed'),
  );

  let session: Session | undefined;
  process.on('message', async (message: ToServer) => {
    switch (message.type) {
      case 'stats': {
        const elu = performance.eventLoopUtilization();
        send({
          type: 'stats',
          stats: {
            census: snapshot(),
            cpu: process.cpuUsage(),
            mainCpu: process.threadCpuUsage(),
            elu: { idle: elu.idle, active: elu.active },
          },
        });
        break;
      }
      case 'profile-start':
        session = new Session();
        session.connect();
        await session.post('Profiler.enable');
        await session.post('Profiler.start');
        send({ type: 'profile-started' });
        break;
      case 'profile-stop': {
        const { profile } = await session!.post('Profiler.stop');
        session!.disconnect();
        writeFileSync(message.file, JSON.stringify(profile));
        send({ type: 'profile-stopped', file: message.file });
        break;
      }
      case 'shutdown':
        stopJanitor();
        await app.close();
        await database.close();
        process.disconnect();
        break;
    }
  });
  send({ type: 'ready', port, tenant: benchTenant, users });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
