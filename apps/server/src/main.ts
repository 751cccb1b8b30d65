import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createApp } from './app.ts';
import { usePasswordHashing } from './features/accounts/index.ts';
import { startJanitor } from './features/maintenance/index.ts';
import { AuditSinkWorker, configuredSinks } from './platform/audit/audit-sink.ts';
import { ConfigError, loadConfig, publicOrigin } from './platform/config.ts';
import { AuditLogProtectionError, openServerDatabase } from './platform/db/database.ts';
import { Metrics } from './platform/observability/metrics.ts';
import { startMetricsServer } from './platform/observability/metrics-server.ts';
import { metricsEnabled, observabilitySettings } from './platform/observability/settings.ts';
import { flushTracing } from './platform/observability/tracing-state.ts';
import { useRetiredKeys } from './platform/shared/retired-keys.ts';
import { loadSecrets } from './platform/shared/secrets.ts';
import { seedDemo } from './surfaces/seed/demo.ts';

async function main(): Promise<void> {
  const config = loadConfig();
  // METRICS_PORT, METRICS_TOKEN, METRICS_TENANT_LABEL (docs/operations.md "Metrics and traces").
  const observability = observabilitySettings();
  const metrics = metricsEnabled(observability)
    ? new Metrics({ tenantLabel: observability.tenantLabel })
    : undefined;
  usePasswordHashing(config.passwordHashing);
  const secrets = await loadSecrets(config);
  // Migrates as the owner role, serves as the application role; refuses a role that can
  // alter the audit log unless AUDIT_LOG_PROTECTION=demo (docs/operations.md#database-roles).
  const database = await openServerDatabase({
    databaseUrl: config.databaseUrl,
    migrationDatabaseUrl: config.migrationDatabaseUrl,
    auditLogProtection: config.auditLogProtection,
    sqliteFile: path.join(config.dataDir, 'keycard.sqlite'),
    onIdleError: (error) => console.error(`database connection lost: ${error.message}`),
    warn: (message) => console.warn(`warning: ${message}`),
  });
  // Keys retired from ENCRYPTION_KEY still check the recovery codes made under them.
  const retired = await useRetiredKeys(database.kysely, secrets.encryptionKey);
  if (retired.unreadable > 0) {
    console.warn(
      `warning: ${retired.unreadable} retired encryption keys cannot be opened: is the newest ENCRYPTION_KEY listed?`,
    );
  }
  if (config.seedDemo) await seedDemo(database.kysely);
  const { app, services, lifecycle } = await createApp({
    config,
    database,
    secrets,
    ...(metrics ? { metrics } : {}),
    ...(observability.metricsToken ? { metricsToken: observability.metricsToken } : {}),
  });
  // The embedded mode names its process beside its database: `keycard restore` refuses to
  // replace the file under a running server.
  const pidFile = database.engine === 'sqlite' ? path.join(config.dataDir, 'keycard.pid') : undefined;
  if (pidFile) writeFileSync(pidFile, `${process.pid}\n`);

  // Background work, stopped after the requests in flight: awaited, so a pass under way (an
  // audit sink's) ends and hands back its lease before the database closes.
  const stopTasks: Array<() => unknown> = [];
  let stopping = false;
  // docs/operations.md#restarts-and-shutdown: not ready first, then stop accepting, finish
  // what is in flight (bounded), close the sockets, release the outbox's leases.
  const shutdown = async (signal: string) => {
    if (stopping) {
      app.log.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    lifecycle.beginDrain();
    app.log.info({ signal, drainMs: config.shutdown.drainMs }, 'shutting down: draining');
    await new Promise((resolve) => setTimeout(resolve, config.shutdown.drainMs));
    // No new connections; idle keep-alive ones close now, busy ones after their answer
    // (which says `Connection: close`). Requests in flight get the timeout to finish.
    app.log.info(
      { inFlight: lifecycle.inFlight },
      'shutting down: no longer accepting; finishing requests in flight',
    );
    app.server.close();
    app.server.closeIdleConnections();
    let bound: NodeJS.Timeout | undefined;
    const finished = await Promise.race([
      lifecycle.idle().then(() => true),
      new Promise<boolean>((resolve) => {
        bound = setTimeout(() => resolve(false), config.shutdown.timeoutMs);
      }),
    ]);
    clearTimeout(bound);
    if (!finished) {
      app.log.warn(
        { inFlight: lifecycle.inFlight, timeoutMs: config.shutdown.timeoutMs },
        'shutting down: cutting requests still in flight',
      );
      app.server.closeAllConnections();
    }
    // Whatever hangs past the bound (a transport that never answers) does not hold the exit.
    setTimeout(() => process.exit(1), config.shutdown.timeoutMs + 10_000).unref();
    // Then the rest, side by side: background workers, websockets closed with 1012, the
    // outbox's leases handed back, Redis; the database last.
    await Promise.allSettled([...stopTasks.map(async (stop) => stop()), app.close()]);
    await database.close();
    await flushTracing();
    if (pidFile) rmSync(pidFile, { force: true });
    app.log.info('shut down');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  if (metrics && observability.metricsPort !== undefined) {
    const listener = await startMetricsServer(metrics, {
      port: observability.metricsPort,
      host: observability.metricsHost,
    });
    app.log.info({ metricsPort: listener.port, metricsHost: observability.metricsHost }, 'metrics listening');
    stopTasks.push(() => void listener.close());
  }
  services.outbox.start();
  const stopJanitor = startJanitor(database.kysely, services.clock, (error) =>
    app.log.error({ err: error }, 'sweep failed'),
  );
  stopTasks.push(stopJanitor);
  for (const sink of configuredSinks(config)) {
    const worker = new AuditSinkWorker({ db: database.kysely, sink, clock: services.clock, log: app.log });
    worker.start();
    stopTasks.push(() => worker.stop());
  }
  for (const tenant of await services.tenants.all()) {
    app.log.info(`tenant ${tenant.code}: ${publicOrigin(config, tenant.loginDomain)}/login`);
  }
}

main().catch((error) => {
  if (error instanceof ConfigError || error instanceof AuditLogProtectionError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
