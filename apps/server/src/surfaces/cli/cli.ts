#!/usr/bin/env node
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { errorCodes, lifecycleErrors } from '@keycard/contract';
import { ConfigurationFileError } from '../../features/configuration/index.ts';
import { TenantDirectory } from '../../features/tenants/index.ts';
import { type Config, ConfigError, loadConfig } from '../../platform/config.ts';
import { type Db, openDatabase } from '../../platform/db/database.ts';
import { AppError } from '../../platform/shared/errors.ts';
import { loadSecrets } from '../../platform/shared/secrets.ts';
import { accountCommands, accountsUsage, changeAccount } from './accounts.cli.ts';
import { AuditUsageError, auditUsage, runAuditCommand, runDbCommand } from './audit.cli.ts';
import { backupCommands, backupUsage, runBackupCommand } from './backup.cli.ts';
import { emailOf, localeOf, required, UsageError, userTypeOf } from './cli-args.ts';
import {
  type ConfigurationCommand,
  ConfigurationUsageError,
  configurationCommands,
  configurationUsage,
  parseConfigurationArgs,
  runConfigurationCommand,
} from './configuration.cli.ts';
import { invitationsUsage, runInvite, runRegistrationLink } from './invitations.cli.ts';
import {
  OperatorsUsageError,
  operatorsUsage,
  parseOperatorsArgs,
  runOperatorsCommand,
} from './operators.cli.ts';
import { PartnerUsageError, parsePartnerArgs, partnersUsage, runPartnersCli } from './partner.cli.ts';
import { rotateKeyUsage, runRotateEncryptionKey } from './rotate-key.cli.ts';
import { runTenantSettingsCommand, settingsPatch, tenantSettingsUsage } from './tenant-settings.cli.ts';

/**
 * The `keycard` command (package.json's bin): reads the command, hands it to its group's
 * module (`invitations`, `tenant-settings`, `accounts`, `partner`, `configuration`,
 * `operators`, `audit`) and turns what they refuse into the usage or an operator's message.
 */

const usage = `Keycard operator commands

${invitationsUsage}
${tenantSettingsUsage}
${accountsUsage}
${partnersUsage}
${configurationUsage}
${operatorsUsage}
${auditUsage}
${backupUsage}
${rotateKeyUsage}
The database is the server's: DATABASE_URL, or the SQLite file in DATA_DIR (default ./data).
Queued mail is delivered by the running Keycard server (SMTP_URL, or the local outbox page).
`;

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
  /** Tests pass the database and configuration; otherwise both come from the environment. */
  database?: Db;
  config?: Config;
  now?: () => number;
}

const commands = ['invite', 'registration-link', 'tenant-settings', ...accountCommands];

/**
 * The options of the commands on one tenant (invitations, settings, accounts), all checked
 * before anything is opened.
 */
function parseTenantCommand(command: string, args: string[]) {
  const { values } = parseArgs({
    args,
    options: {
      tenant: { type: 'string' },
      email: { type: 'string' },
      type: { type: 'string' },
      locale: { type: 'string' },
      'redirect-uri': { type: 'string' },
      days: { type: 'string' },
      set: { type: 'string', multiple: true },
    },
    strict: true,
  });
  if (!commands.includes(command)) {
    throw new UsageError(`unknown command ${command}`);
  }
  const tenantCode = required(values, 'tenant');
  const patch = command === 'tenant-settings' ? settingsPatch(values.set ?? []) : {};
  const email = command === 'tenant-settings' ? '' : emailOf(required(values, 'email'));
  if (command === 'invite') required(values, 'type');
  const type = userTypeOf(values.type);
  const locale = localeOf(values.locale);
  const days = values.days === undefined ? undefined : Number(values.days);
  if (days !== undefined && !(Number.isInteger(days) && days >= 1 && days <= 90)) {
    throw new UsageError('--days must be a whole number from 1 to 90');
  }
  return { values, tenantCode, patch, email, type, locale, days };
}

/** Runs one command; answers the process exit code (0 done, 1 refused, 2 usage). */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    io.out(usage);
    return command ? 0 : 2;
  }
  let database: Db | undefined;
  let asked: Record<string, unknown> = {};
  const open = async (config: Config): Promise<Db> => {
    database =
      io.database ??
      (await openDatabase({
        databaseUrl: config.databaseUrl,
        sqliteFile: path.join(config.dataDir, 'keycard.sqlite'),
      }));
    return database;
  };
  try {
    if (command === 'partners') {
      const parsed = parsePartnerArgs(rest);
      const config = io.config ?? loadConfig();
      const { kysely } = await open(config);
      return await runPartnersCli(parsed, {
        db: kysely,
        now: io.now?.() ?? Date.now(),
        out: io.out,
        err: io.err,
        allowPrivateOutbound: config.allowPrivateOutbound,
      });
    }
    if (command === 'audit' || command === 'db') {
      const config = io.config ?? loadConfig();
      const auditIo = { out: io.out, err: io.err, ...(io.database ? { database: io.database } : {}) };
      return command === 'audit'
        ? await runAuditCommand(rest, config, auditIo)
        : await runDbCommand(rest, config, auditIo);
    }
    if ((backupCommands as readonly string[]).includes(command)) {
      const config = io.config ?? loadConfig();
      return await runBackupCommand(command as (typeof backupCommands)[number], rest, config, io);
    }
    if (command === 'rotate-encryption-key') {
      const config = io.config ?? loadConfig();
      const { kysely } = await open(config);
      return await runRotateEncryptionKey(
        kysely,
        await loadSecrets(config),
        rest,
        io,
        io.now?.() ?? Date.now(),
      );
    }
    if (command === 'operators') {
      const parsed = parseOperatorsArgs(rest);
      const config = io.config ?? loadConfig();
      const { kysely } = await open(config);
      return await runOperatorsCommand(parsed, {
        db: kysely,
        config,
        now: io.now?.() ?? Date.now(),
        out: io.out,
        err: io.err,
      });
    }
    if ((configurationCommands as readonly string[]).includes(command)) {
      const parsed = parseConfigurationArgs(command as ConfigurationCommand, rest);
      const config = io.config ?? loadConfig();
      const { kysely } = await open(config);
      return await runConfigurationCommand(parsed, {
        db: kysely,
        config,
        env: process.env,
        now: io.now?.() ?? Date.now(),
        out: io.out,
        err: io.err,
      });
    }
    const parsed = parseTenantCommand(command, rest);
    asked = parsed.values;
    const { email, type, locale } = parsed;

    const config = io.config ?? loadConfig();
    const { kysely } = await open(config);
    const directory = new TenantDirectory(kysely);
    const tenant = await directory.byCode(parsed.tenantCode);
    if (!tenant) {
      io.err(`No tenant with the code ${parsed.tenantCode}.`);
      return 1;
    }
    const now = io.now?.() ?? Date.now();
    const deps = { db: kysely, config };
    if (command === 'tenant-settings') {
      return await runTenantSettingsCommand(
        parsed.patch,
        { ...deps, directory, now, clock: () => io.now?.() ?? Date.now(), out: io.out, err: io.err },
        tenant,
      );
    }
    if (accountCommands.includes(command)) {
      io.out(await changeAccount(command, deps, tenant, email, now));
    } else if (command === 'invite') {
      await runInvite(deps, tenant, { email, type, locale }, now, io.out);
    } else {
      await runRegistrationLink(
        deps,
        tenant,
        { email, type, locale, redirectUri: parsed.values['redirect-uri'], days: parsed.days },
        now,
        io,
      );
    }
    return 0;
  } catch (error) {
    if (
      error instanceof UsageError ||
      error instanceof PartnerUsageError ||
      error instanceof ConfigurationUsageError ||
      error instanceof OperatorsUsageError ||
      error instanceof AuditUsageError ||
      (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
    ) {
      io.err(`${(error as Error).message}\n\n${usage}`);
      return 2;
    }
    if (error instanceof AppError) {
      io.err(operatorMessage(error, asked));
      return 1;
    }
    if (error instanceof ConfigurationFileError) {
      io.err(`Nothing was written.\n${error.message}`);
      return 1;
    }
    if (error instanceof ConfigError) {
      io.err(error.message);
      return 1;
    }
    throw error;
  } finally {
    if (database && !io.database) await database.close();
  }
}

/** A refused request in the operator's terms: what was asked, and why it cannot be done. */
function operatorMessage(error: AppError, values: Record<string, unknown>): string {
  const email = String(values.email ?? '');
  const tenant = String(values.tenant ?? '');
  switch (error.code) {
    case errorCodes.redirectNotAllowed:
      return `${String(values['redirect-uri'])} is not a redirect URI registered for ${tenant}.`;
    case lifecycleErrors.inviteAccountExists:
    case lifecycleErrors.registerAccountExists:
      return `${email} already has an account on ${tenant}.`;
    default:
      return error.message;
  }
}

function isEntryPoint(): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return realpathSync(script) === fileURLToPath(import.meta.url);
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  runCli(process.argv.slice(2), {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  })
    .then((code) => {
      process.exitCode = code;
    })
    .catch((error) => {
      console.error(error);
      process.exitCode = 1;
    });
}
