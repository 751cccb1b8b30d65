import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../app.ts';
import { adminCall, operatorToken } from '../../surfaces/admin/admin.test-support.ts';
import { runCli } from '../../surfaces/cli/cli.ts';
import { seedDemo } from '../../surfaces/seed/demo.ts';
import { postgresAdminUrl, type TestApp, TestClock, testPasswordHashingEnv } from '../../test/helper.ts';
import { type Config, loadConfig } from '../config.ts';
import { AuditLogProtectionError, type Db, openDatabase, openServerDatabase } from '../db/database.ts';
import { chainRows, scratchPostgres, superuser } from './audit.test-support.ts';
import { verifyChain } from './audit-chain.ts';

/**
 * The two database roles, end to end on PostgreSQL: the owner migrates, the server runs as the
 * application role and writes audit entries, and that role can neither rewrite nor remove
 * them nor set the triggers aside. A server started on the owner role is refused unless the
 * set-up is declared a demo.
 */
const mainScript = fileURLToPath(new URL('../../main.ts', import.meta.url));

describe('the audit log under two PostgreSQL roles', () => {
  const suffix = randomBytes(4).toString('hex');
  const ownerRole = `keycard_owner_${suffix}`;
  const appRole = `keycard_app_${suffix}`;
  let scratch: Awaited<ReturnType<typeof scratchPostgres>>;
  let ownerUrl: string;
  let appUrl: string;
  let config: Config;
  let database: Db;
  let t: TestApp;

  const urlAs = (role: string) => {
    const url = new URL(postgresAdminUrl);
    url.username = role;
    url.pathname = `/${scratch.name}`;
    return url.href;
  };

  beforeAll(async () => {
    await superuser(`create role ${ownerRole} login`);
    await superuser(`create role ${appRole} login`);
    scratch = await scratchPostgres(ownerRole);
    ownerUrl = urlAs(ownerRole);
    appUrl = urlAs(appRole);
    config = loadConfig({
      NODE_ENV: 'test',
      PORT: '3000',
      LOG_LEVEL: 'silent',
      COOKIE_SECRET: randomBytes(32).toString('hex'),
      ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      DATABASE_URL: appUrl,
      MIGRATION_DATABASE_URL: ownerUrl,
      ...testPasswordHashingEnv,
    });
    expect(config.auditLogProtection).toBe('strict');
    // What main.ts does: migrate as the owner, grant the app role, serve as the app role.
    database = await openServerDatabase({
      databaseUrl: config.databaseUrl,
      migrationDatabaseUrl: config.migrationDatabaseUrl,
      auditLogProtection: config.auditLogProtection,
      sqliteFile: path.join(config.dataDir, 'unused.sqlite'),
    });
    await seedDemo(database.kysely);
    const clock = new TestClock();
    const { app, services } = await createApp({
      config,
      database,
      secrets: {
        cookieKeys: [config.cookieSecret!],
        encryptionKey: Buffer.from(config.encryptionKey!, 'hex'),
      },
      clock,
      logger: false,
    });
    await app.ready();
    t = { app, services, config, clock, engine: 'postgres', close: async () => undefined };
  });

  afterAll(async () => {
    await t?.app.close();
    await database?.close();
    await scratch?.drop();
    await superuser(`drop role if exists ${appRole}`);
    await superuser(`drop role if exists ${ownerRole}`);
  });

  it('serves as the application role, which writes audit entries through the admin API and the CLI', async () => {
    const { rows } = await sql<{ role: string }>`select current_user as role`.execute(database.kysely);
    expect(rows[0]!.role).toBe(appRole);
    const owner = await operatorToken(t, `roles-owner-${suffix}`, 'owner');
    const invited = await adminCall(t.app, 'POST', '/tenants/grand-hotel/users', {
      token: owner,
      body: { email: `roles-${suffix}@grand-hotel.test`, type: 'staff' },
    });
    expect(invited.statusCode).toBe(201);
    const cli = await runCli(
      ['disable-user', '--tenant', 'grand-hotel', '--email', 'demo@grand-hotel.test'],
      {
        out: () => undefined,
        err: () => undefined,
        database,
        config,
      },
    );
    expect(cli).toBe(0);
    const entries = await chainRows(database.kysely);
    expect(entries.map((entry) => entry.action)).toEqual(
      expect.arrayContaining(['operator.create', 'user.invite', 'user.disable']),
    );
    expect(await verifyChain(database.kysely)).toMatchObject({ ok: true, entries: entries.length });
  });

  it('refuses the application role every way of rewriting the log: permission denied', async () => {
    const client = new pg.Client({ connectionString: appUrl });
    await client.connect();
    try {
      for (const statement of [
        `update audit_log set action = 'user.enable'`,
        'delete from audit_log',
        'truncate audit_log',
        'alter table audit_log disable trigger audit_log_append_only',
        'alter table audit_log disable trigger all',
        'drop trigger audit_log_append_only on audit_log',
        'drop table audit_log',
        'create or replace function audit_log_append_only() returns trigger language plpgsql as $$ begin return old; end $$',
      ]) {
        await expect(client.query(statement), statement).rejects.toMatchObject({ code: '42501' });
      }
      // What it may do: read, append, move the chain's head (an append does).
      await expect(client.query('select count(*) from audit_log')).resolves.toBeDefined();
    } finally {
      await client.end();
    }
    expect(await verifyChain(database.kysely)).toMatchObject({ ok: true });
  });

  it('opens as the application role for the CLI without migrating (nothing is pending)', async () => {
    const cliDatabase = await openDatabase({ databaseUrl: appUrl });
    try {
      expect(await verifyChain(cliDatabase.kysely)).toMatchObject({ ok: true });
    } finally {
      await cliDatabase.close();
    }
  });

  it('refuses to start on the owner role, and on a superuser, unless the set-up is declared a demo', async () => {
    const superuserUrl = new URL(postgresAdminUrl);
    superuserUrl.pathname = `/${scratch.name}`;
    for (const url of [ownerUrl, superuserUrl.href]) {
      const strict = openServerDatabase({
        databaseUrl: url,
        migrationDatabaseUrl: url,
        auditLogProtection: 'strict',
        sqliteFile: 'unused',
      });
      await expect(strict).rejects.toBeInstanceOf(AuditLogProtectionError);
      await expect(strict).rejects.toThrow(/Refusing to start: .*audit log.*AUDIT_LOG_PROTECTION=demo/);
      const warnings: string[] = [];
      const demo = await openServerDatabase({
        databaseUrl: url,
        migrationDatabaseUrl: url,
        auditLogProtection: 'demo',
        sqliteFile: 'unused',
        warn: (message) => warnings.push(message),
      });
      await demo.close();
      expect(warnings.join('\n')).toMatch(/can alter the audit log/);
    }
    // The default, with nothing set, is strict.
    expect(loadConfig({ DATABASE_URL: ownerUrl }).auditLogProtection).toBe('strict');
  });

  it('keycard (main.ts) exits at start on the owner role, naming the setting', async () => {
    const run = spawnSync(process.execPath, ['--disable-warning=ExperimentalWarning', mainScript], {
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'test',
        PORT: '0',
        SEED_DEMO: 'false',
        LOG_LEVEL: 'silent',
        DATA_DIR: config.dataDir,
        DATABASE_URL: ownerUrl,
      },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      `Refusing to start: the database role can alter the audit log: ${ownerRole} owns audit_log`,
    );
  });

  it('refuses an application role granted UPDATE, DELETE, TRUNCATE or TRIGGER on the log', async () => {
    for (const privilege of ['update', 'delete', 'truncate', 'trigger']) {
      await superuser(`grant ${privilege} on audit_log to ${appRole}`, scratch.name);
      try {
        await expect(
          openServerDatabase({
            databaseUrl: appUrl,
            migrationDatabaseUrl: appUrl,
            auditLogProtection: 'strict',
            sqliteFile: 'unused',
          }),
        ).rejects.toThrow(new RegExp(`has ${privilege.toUpperCase()} on audit_log`));
      } finally {
        await superuser(`revoke ${privilege} on audit_log from ${appRole}`, scratch.name);
      }
    }
  });

  it('grants the application role again with `keycard db grant` (idempotent)', async () => {
    const owner = await openDatabase({ databaseUrl: ownerUrl, migrate: false });
    const out: string[] = [];
    try {
      const code = await runCli(['db', 'grant', '--app-role', appRole], {
        out: (line) => out.push(line),
        err: (line) => out.push(line),
        database: owner,
        config,
      });
      expect(code).toBe(0);
    } finally {
      await owner.close();
    }
    expect(out.join('\n')).toContain('only read and append to the audit log');
    const again = await openServerDatabase({
      databaseUrl: appUrl,
      migrationDatabaseUrl: appUrl,
      auditLogProtection: 'strict',
      sqliteFile: 'unused',
    });
    await again.close();
  });
});
