import path from 'node:path';
import { createApp } from './app.ts';
import { usePasswordHashing } from './features/accounts/index.ts';
import { startJanitor } from './features/maintenance/index.ts';
import { AuditSinkWorker, configuredSinks } from './platform/audit/audit-sink.ts';
import { ConfigError, loadConfig, publicOrigin } from './platform/config.ts';
import { AuditLogProtectionError, openServerDatabase } from './platform/db/database.ts';
import { loadSecrets } from './platform/shared/secrets.ts';
import { seedDemo } from './surfaces/seed/demo.ts';

async function main(): Promise<void> {
  const config = loadConfig();
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
  if (config.seedDemo) await seedDemo(database.kysely);
  const { app, services } = await createApp({ config, database, secrets });

  const stopTasks: Array<() => void> = [];
  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    for (const stop of stopTasks) stop();
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  services.outbox.start();
  const stopJanitor = startJanitor(database.kysely, services.clock, (error) =>
    app.log.error({ err: error }, 'sweep failed'),
  );
  stopTasks.push(stopJanitor);
  for (const sink of configuredSinks(config)) {
    const worker = new AuditSinkWorker({ db: database.kysely, sink, clock: services.clock, log: app.log });
    worker.start();
    stopTasks.push(() => void worker.stop());
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
