#!/usr/bin/env node
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  canonicalEmail,
  errorCodes,
  type Locale,
  lifecycleErrors,
  locales,
  mfaDeliveryTypes,
  toLocale,
  type UserType,
  userTypes,
} from '@keycard/contract';
import {
  deleteAccount,
  disableAccount,
  enableAccount,
} from '../../features/accounts/account-status.service.ts';
import { applyVerificationPolicy } from '../../features/accounts/email-verification.service.ts';
import { createRegistrationLink, inviteUser } from '../../features/accounts/invitation.service.ts';
import { ConfigurationFileError } from '../../features/configuration/configuration-file.ts';
import type { Partner } from '../../features/partners/partner.repository.ts';
import { updateTenantSettings } from '../../features/tenants/tenant.admin.ts';
import { TenantDirectory } from '../../features/tenants/tenant.service.ts';
import type { TenantContext, TenantSettings } from '../../features/tenants/tenant.types.ts';
import { cliActor, recordAudit } from '../../platform/audit/audit.service.ts';
import { type Config, ConfigError, loadConfig } from '../../platform/config.ts';
import { type Db, openDatabase } from '../../platform/db/database.ts';
import { assertOutboundAddresses } from '../../platform/security/outbound.ts';
import { SqlRateLimiter } from '../../platform/security/rate-limiter.ts';
import { RedisRateLimiter } from '../../platform/security/redis-rate-limiter.ts';
import { AppError } from '../../platform/shared/errors.ts';
import { AuditUsageError, auditUsage, runAuditCommand, runDbCommand } from './audit.cli.ts';
import {
  type ConfigurationCommand,
  ConfigurationUsageError,
  configurationCommands,
  configurationUsage,
  parseConfigurationArgs,
  runConfigurationCommand,
} from './configuration.cli.ts';
import {
  OperatorsUsageError,
  operatorsUsage,
  parseOperatorsArgs,
  runOperatorsCommand,
} from './operators.cli.ts';
import { PartnerUsageError, parsePartnerArgs, partnersUsage, runPartnerCommand } from './partner.cli.ts';

const usage = `Keycard operator commands

  keycard invite --tenant <code> --email <address> --type <${userTypes.join('|')}> --locale <${locales.join('|')}>
      Creates the pending account and queues its activation mail (7 days valid). Inviting a
      pending address again sends a new link; the older one stops working.

  keycard registration-link --tenant <code> --email <address> [--type <type>] [--locale <xx>]
                            [--redirect-uri <registered uri>] [--days <n>]
      Prints a single-use registration link for that address (default 7 days valid). After
      registering, the user is signed in and continues to the redirect URI, which must be
      registered for the tenant.

  keycard tenant-settings --tenant <code> [--set <name>=<value> …]
      Shows the tenant's account settings, or changes them. Names: passwordExpiryDays,
      passwordWarningDays (whole days or null), emailVerificationRequired (true|false),
      captcha.siteKey, captcha.secret, captcha.verifyUrl, captcha.scriptUrl (text or null),
      captcha.minScore (0 to 1), mfa.mode (off|recommended|required), mfa.mandatoryFrom
      (a date such as 2027-03-01, or null), mfa.trustedDeviceDays (1 to 365), mfa.methods
      (factors offered, such as totp,sms; all for every factor), analyticsId
      (text or null), messenger.provider (intercom, standin or null), messenger.appId (text or
      null), messenger.domains (host names separated by commas, or none), messenger.scriptUrl
      (the stand-in's script, a URL or null). Running servers apply changes within 5 seconds.
      Turning emailVerificationRequired on asks every account whose address is not verified
      yet to verify it at its next sign-in; turning it off asks nobody.

  keycard disable-user --tenant <code> --email <address>
      Disables the account: it cannot sign in, and every session, grant and token it holds
      ends at once (apps signed in with it are signed out).

  keycard enable-user --tenant <code> --email <address>
      Lets a disabled account sign in again.

  keycard delete-user --tenant <code> --email <address>
      Deletes the account and what is kept for it: sessions, grants and tokens end, its
      factors, devices, codes and queued mail are removed.

${partnersUsage}
${configurationUsage}
${operatorsUsage}
${auditUsage}
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

class UsageError extends Error {}

const accountCommands = ['disable-user', 'enable-user', 'delete-user'];
const commands = ['invite', 'registration-link', 'tenant-settings', ...accountCommands];

function required(values: Record<string, string | string[] | undefined>, name: string): string {
  const raw = values[name];
  const value = typeof raw === 'string' ? raw.trim() : '';
  if (!value) throw new UsageError(`--${name} is required`);
  return value;
}

function userTypeOf(value: string | undefined): UserType {
  const type = (value ?? 'staff').trim().toLowerCase();
  if (!(userTypes as readonly string[]).includes(type)) {
    throw new UsageError(`--type must be one of ${userTypes.join(', ')}`);
  }
  return type as UserType;
}

function localeOf(value: string | undefined): Locale {
  const locale = toLocale(value ?? 'en');
  if (!locale) {
    throw new UsageError(`--locale must be one of ${locales.join(', ')}`);
  }
  return locale;
}

function emailOf(value: string): string {
  const email = canonicalEmail(value);
  if (email === undefined)
    throw new UsageError(`--email ${value} is not an e-mail address (no look-alike Unicode)`);
  return email;
}

const isUrlOrNull = (value: unknown) => value === null || (typeof value === 'string' && URL.canParse(value));
const isTextOrNull = (value: unknown) => value === null || (typeof value === 'string' && value.length > 0);
const isHostName = (value: unknown) =>
  typeof value === 'string' &&
  value.length <= 253 &&
  /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(value);
const isDays = (max: number, min: number) => (value: unknown) =>
  value === null || (Number.isInteger(value) && (value as number) >= min && (value as number) <= max);

/** The account settings an operator may change here, with what each accepts. */
const settingRules: Record<
  string,
  { check: (value: unknown) => boolean; expects: string; parse?: (raw: string) => unknown }
> = {
  passwordExpiryDays: { check: isDays(3650, 1), expects: 'whole days from 1 to 3650, or null' },
  passwordWarningDays: { check: isDays(365, 0), expects: 'whole days from 0 to 365, or null' },
  emailVerificationRequired: { check: (v) => typeof v === 'boolean', expects: 'true or false' },
  'captcha.siteKey': { check: isTextOrNull, expects: 'text or null' },
  'captcha.secret': { check: isTextOrNull, expects: 'text or null' },
  'captcha.verifyUrl': { check: isUrlOrNull, expects: 'a URL or null' },
  'captcha.scriptUrl': { check: isUrlOrNull, expects: 'a URL or null' },
  'captcha.minScore': {
    check: (v) => typeof v === 'number' && v >= 0 && v <= 1,
    expects: 'a number from 0 to 1',
  },
  'mfa.mode': {
    check: (v) => v === 'off' || v === 'recommended' || v === 'required',
    expects: 'off, recommended or required',
  },
  'mfa.mandatoryFrom': {
    check: (v) =>
      v === null || (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v) && !Number.isNaN(Date.parse(v))),
    expects: 'a date such as 2027-03-01, or null',
  },
  'mfa.trustedDeviceDays': { check: isDays(365, 1), expects: 'whole days from 1 to 365' },
  'mfa.methods': {
    // "all" clears the list: a tenant without one offers every factor.
    parse: (raw) => (raw === 'all' ? [] : raw.split(',').map((method) => method.trim())),
    check: (v) =>
      Array.isArray(v) &&
      v.every((method) => (mfaDeliveryTypes as readonly unknown[]).includes(method)) &&
      new Set(v).size === v.length,
    expects: `factors separated by commas (${mfaDeliveryTypes.join(', ')}), each once, or all`,
  },
  analyticsId: { check: isTextOrNull, expects: 'text or null' },
  'messenger.provider': {
    check: (v) => v === null || v === 'intercom' || v === 'standin',
    expects: 'intercom, standin or null',
  },
  'messenger.appId': {
    check: (v) => v === null || (typeof v === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(v)),
    expects: 'letters, digits, dashes and underscores, or null',
  },
  'messenger.domains': {
    parse: (raw) => (raw === 'none' ? [] : raw.split(',').map((host) => host.trim().toLowerCase())),
    check: (v) => Array.isArray(v) && v.length <= 20 && v.every(isHostName),
    expects: 'host names separated by commas (such as login.example.com), or none',
  },
  'messenger.scriptUrl': { check: isUrlOrNull, expects: 'a URL or null' },
};

function settingValue(raw: string): unknown {
  if (raw === 'null') return null;
  if (raw === 'true' || raw === 'false') return raw === 'true';
  if (/^-?\d+(\.\d+)?$/.test(raw)) return Number(raw);
  return raw;
}

/** `name=value` pairs as a settings patch (captcha.* nested), each checked against its rule. */
function settingsPatch(pairs: string[]): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    const name = at > 0 ? pair.slice(0, at).trim() : '';
    const rule = settingRules[name];
    if (!rule) {
      throw new UsageError(
        `--set ${pair}: the setting must be one of ${Object.keys(settingRules).join(', ')}`,
      );
    }
    const raw = pair.slice(at + 1).trim();
    const value = rule.parse ? rule.parse(raw) : settingValue(raw);
    if (!rule.check(value)) throw new UsageError(`--set ${pair}: ${name} takes ${rule.expects}`);
    // Dates are stored as epoch milliseconds, like every time in Keycard.
    const stored = name === 'mfa.mandatoryFrom' && typeof value === 'string' ? Date.parse(value) : value;
    const [group, key] = name.split('.');
    if (key) patch[group!] = { ...(patch[group!] as object | undefined), [key]: stored };
    else patch[name] = stored;
  }
  return patch;
}

/**
 * Why a settings patch is refused when it names an address inside Keycard's network for its
 * servers to fetch (the captcha verifier), as the admin API and `keycard apply` refuse it; null if not.
 */
function outboundRefusal(patch: Record<string, unknown>, allowPrivate: boolean): string | null {
  try {
    assertOutboundAddresses({ settings: patch as { captcha?: { verifyUrl?: string | null } } }, allowPrivate);
    return null;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const problems = Object.entries(error.fields ?? {}).map(
      ([field, problem]) => `  ${field.replace(/^settings\./, '')}: ${problem}`,
    );
    return `The settings were not saved:\n${problems.join('\n')}`;
  }
}

/** The settings an operator sees: the secret never printed in full. */
function printableSettings(settings: TenantSettings): string {
  const {
    passwordExpiryDays,
    passwordWarningDays,
    emailVerificationRequired,
    captcha,
    mfa,
    analyticsId,
    messenger,
  } = settings;
  const secret = captcha.secret ? '(set)' : null;
  const mandatoryFrom =
    mfa.mandatoryFrom === null ? null : new Date(mfa.mandatoryFrom).toISOString().slice(0, 10);
  return JSON.stringify(
    {
      passwordExpiryDays,
      passwordWarningDays,
      emailVerificationRequired,
      captcha: { ...captcha, secret },
      mfa: { ...mfa, mandatoryFrom },
      analyticsId,
      // Shown once a provider is chosen; a tenant without a widget reads as before.
      ...(messenger.provider ? { messenger } : {}),
    },
    null,
    2,
  );
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
      const { kysely } = await open(io.config ?? loadConfig());
      const tenant = await new TenantDirectory(kysely).byCode(parsed.tenant);
      if (!tenant) {
        io.err(`No tenant with the code ${parsed.tenant}.`);
        return 1;
      }
      const now = io.now?.() ?? Date.now();
      const plain = (partner: Partner | null) => {
        if (!partner) return null;
        const { tenantCode: _t, createdAt: _c, updatedAt: _u, ...fields } = partner;
        return fields as Record<string, unknown>;
      };
      const code = await runPartnerCommand(parsed, {
        db: kysely,
        tenantCode: tenant.code,
        now,
        out: io.out,
        err: io.err,
        allowPrivateOutbound: (io.config ?? loadConfig()).allowPrivateOutbound,
        // add, update and remove go to the audit log in their own transaction.
        audit: (trx, before, after) =>
          recordAudit(
            trx,
            cliActor,
            {
              tenant: tenant.code,
              action: `partner.${parsed.subcommand === 'add' ? 'create' : parsed.subcommand}`,
              target: { kind: 'partner', id: parsed.partner },
              before: plain(before),
              after: plain(after),
            },
            now,
          ),
      });
      return code;
    }
    if (command === 'audit' || command === 'db') {
      const config = io.config ?? loadConfig();
      const auditIo = { out: io.out, err: io.err, ...(io.database ? { database: io.database } : {}) };
      return command === 'audit'
        ? await runAuditCommand(rest, config, auditIo)
        : await runDbCommand(rest, config, auditIo);
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
    const { values } = parseArgs({
      args: rest,
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
    asked = values;
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

    const config = io.config ?? loadConfig();
    const { kysely } = await open(config);
    const directory = new TenantDirectory(kysely);
    let tenant = await directory.byCode(tenantCode);
    if (!tenant) {
      io.err(`No tenant with the code ${tenantCode}.`);
      return 1;
    }
    const now = io.now?.() ?? Date.now();
    const deps = { db: kysely, config };
    if (command === 'tenant-settings') {
      const refused = outboundRefusal(patch, config.allowPrivateOutbound);
      if (refused) {
        io.err(refused);
        return 1;
      }
      if (Object.keys(patch).length > 0) {
        const before = Object.fromEntries(
          Object.keys(patch).map((key) => [
            key,
            (tenant!.settings as unknown as Record<string, unknown>)[key],
          ]),
        );
        await updateTenantSettings(kysely, tenant.code, patch);
        await recordAudit(
          kysely,
          cliActor,
          {
            tenant: tenant.code,
            action: 'settings.update',
            target: { kind: 'tenant', id: tenant.code },
            before,
            after: patch,
          },
          now,
        );
        if (typeof patch.emailVerificationRequired === 'boolean') {
          const flagged = await applyVerificationPolicy(
            kysely,
            tenant.code,
            patch.emailVerificationRequired,
            io.now?.() ?? Date.now(),
          );
          io.err(
            `${flagged} existing account(s) ${patch.emailVerificationRequired ? 'will be asked' : 'are no longer asked'} to verify their address.`,
          );
        }
        directory.invalidate();
        tenant = (await directory.byCode(tenant.code))!;
        io.err(`Updated the settings of ${tenant.code}.`);
      }
      io.out(printableSettings(tenant.settings));
    } else if (accountCommands.includes(command)) {
      io.out(await changeAccount(command, { db: kysely, config }, tenant, email, now));
    } else if (command === 'invite') {
      const tenantCode = tenant.code;
      const { created } = await inviteUser(deps, tenant, { email, type, locale }, now, (trx, user) =>
        recordAudit(
          trx,
          cliActor,
          {
            tenant: tenantCode,
            action: 'user.invite',
            target: { kind: 'user', id: user.id },
            after: { type, locale },
          },
          now,
        ),
      );
      io.out(
        `${created ? 'Invited' : 'Invited again'} ${email} to ${tenant.code} (${type}, ${locale}): the activation mail is queued.`,
      );
    } else {
      const { link, expiresAt } = await createRegistrationLink(
        deps,
        tenant,
        { email, type, locale, redirectUri: values['redirect-uri'], ttlDays: days },
        now,
      );
      io.out(link);
      io.err(`Single use, for ${email}, valid until ${new Date(expiresAt).toISOString()}.`);
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

/** disable-user, enable-user, delete-user: what was done, in the operator's terms. */
async function changeAccount(
  command: string,
  deps: { db: Db['kysely']; config: Config },
  tenant: TenantContext,
  email: string,
  now: number,
): Promise<string> {
  if (command === 'disable-user') {
    const { user, change } = await disableAccount(deps.db, tenant, email, now, (trx, changed) =>
      auditAccount(trx, tenant.code, 'user.disable', changed.id, now),
    );
    if (change === 'disabled')
      return `Disabled ${email} on ${tenant.code}: its sessions, grants and tokens have ended.`;
    return user
      ? `${email} is ${user.status} on ${tenant.code}; nothing changed.`
      : `No account ${email} on ${tenant.code}.`;
  }
  if (command === 'enable-user') {
    const { user, change } = await enableAccount(deps.db, tenant, email, now, (trx, changed) =>
      auditAccount(trx, tenant.code, 'user.enable', changed.id, now),
    );
    if (change === 'enabled') return `Enabled ${email} on ${tenant.code}.`;
    return user
      ? `${email} is ${user.status} on ${tenant.code}; nothing changed.`
      : `No account ${email} on ${tenant.code}.`;
  }
  const limiter = deps.config.redisUrl
    ? new RedisRateLimiter(deps.config.redisUrl)
    : new SqlRateLimiter(deps.db);
  try {
    const { change } = await deleteAccount({ db: deps.db, limiter }, tenant, email, now, (trx, changed) =>
      auditAccount(trx, tenant.code, 'user.delete', changed.id, now),
    );
    return change === 'deleted'
      ? `Deleted ${email} from ${tenant.code}, with its sessions, grants, tokens, factors and queued mail.`
      : `No account ${email} on ${tenant.code}.`;
  } finally {
    await limiter.close();
  }
}

/** The audit log names the account by id (so its address is erased with it). */
function auditAccount(db: Db['kysely'], tenantCode: string, action: string, userId: string, now: number) {
  return recordAudit(db, cliActor, { tenant: tenantCode, action, target: { kind: 'user', id: userId } }, now);
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
