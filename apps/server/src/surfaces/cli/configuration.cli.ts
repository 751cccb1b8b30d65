import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { operatorTenantCode } from '@keycard/contract';
import type { Kysely } from 'kysely';
import { withTenantLease } from '../../features/admin/index.ts';
import type { FieldChange, PlannedObject } from '../../features/configuration/index.ts';
import {
  applyConfigurationPlan,
  ConfigurationFileError,
  configurationYaml,
  exportTenant,
  hasChanges,
  planConfiguration,
  readConfigurationFile,
} from '../../features/configuration/index.ts';
import type { Config } from '../../platform/config.ts';
import type { Database } from '../../platform/db/schema.ts';
import { assertOutboundAddresses } from '../../platform/security/outbound.ts';
import { AppError } from '../../platform/shared/errors.ts';

export const configurationUsage = `  keycard apply -f <file.yaml|file.json> [--dry-run] [--allow-operator-tenant]
      Creates or updates the tenants the file describes, with their domains, theme, settings,
      OIDC clients, partners and invitations (docs/configuration.md). Idempotent: applying the
      same file again changes nothing and says so. --dry-run prints what would be created or
      changed, field by field, and writes nothing. A client's secret comes from the environment
      variable its secretEnv names; a new confidential client without one gets a generated
      secret, printed once. Nothing is deleted, except domains the file no longer lists and, on
      a tenant with prune: true, clients and partners it does not list (disabled: true keeps a
      client but refuses it). Running servers apply changes within 5 seconds. Each tenant is
      changed under its change lease, as the admin API changes it. The operator tenant
      (${operatorTenantCode}) is refused unless --allow-operator-tenant is given: a file could
      otherwise take the owners' MFA requirement away from a shell.

  keycard export --tenant <code> [-o <file.yaml>]
      Writes the tenant in the same format (to standard output without -o). Secrets are never
      exported; applying the export changes nothing.
`;

export const configurationCommands = ['apply', 'export'] as const;
export type ConfigurationCommand = (typeof configurationCommands)[number];

export class ConfigurationUsageError extends Error {}

export function parseConfigurationArgs(command: ConfigurationCommand, args: string[]) {
  const { values } = parseArgs({
    args,
    options: {
      file: { type: 'string', short: 'f' },
      'dry-run': { type: 'boolean' },
      'allow-operator-tenant': { type: 'boolean' },
      tenant: { type: 'string' },
      output: { type: 'string', short: 'o' },
    },
    strict: true,
  });
  if (command === 'apply') {
    if (!values.file?.trim()) throw new ConfigurationUsageError('apply needs -f <file>');
    if (values.tenant || values.output)
      throw new ConfigurationUsageError('apply takes -f, --dry-run and --allow-operator-tenant only');
    return {
      command,
      file: values.file.trim(),
      dryRun: values['dry-run'] === true,
      allowOperatorTenant: values['allow-operator-tenant'] === true,
    };
  }
  if (!values.tenant?.trim()) throw new ConfigurationUsageError('--tenant is required');
  if (values.file || values['dry-run'] || values['allow-operator-tenant'])
    throw new ConfigurationUsageError('export takes --tenant and -o only');
  return { command, tenant: values.tenant.trim(), output: values.output?.trim() };
}

export interface ConfigurationCliDeps {
  db: Kysely<Database>;
  config: Config;
  env: Record<string, string | undefined>;
  now: number;
  out: (line: string) => void;
  err: (line: string) => void;
}

const show = (value: unknown) => JSON.stringify(value);

function fieldLine(change: FieldChange, action: PlannedObject['action']): string {
  if (change.secret) return `    ${change.field}: (secret ${change.secret})`;
  if (action === 'create') return `    ${change.field}: ${show(change.after)}`;
  if (action === 'remove') return `    ${change.field}: ${show(change.before)}`;
  return `    ${change.field}: ${show(change.before)} → ${show(change.after)}`;
}

/** The plan as an operator reads it: one line per object, one per changed field. */
export function describePlan(objects: PlannedObject[]): string[] {
  const lines: string[] = [];
  for (const object of objects) {
    const name =
      object.kind === 'tenant' ? `tenant ${object.id}` : `${object.kind} ${object.id} of ${object.tenant}`;
    const sign = { create: '+', change: '~', remove: '-', unchanged: '=' }[object.action];
    lines.push(`${sign} ${name}: ${object.action}`);
    if (object.action !== 'unchanged') {
      for (const change of object.fields) lines.push(fieldLine(change, object.action));
    }
  }
  return lines;
}

function counts(objects: PlannedObject[]): string {
  const of = (action: PlannedObject['action']) => objects.filter((o) => o.action === action).length;
  const removals = of('remove') > 0 ? `, ${of('remove')} to remove` : '';
  return `${of('create')} to create, ${of('change')} to change${removals}, ${of('unchanged')} unchanged`;
}

/** keycard apply / export. Answers the exit code; a bad file throws ConfigurationFileError. */
export async function runConfigurationCommand(
  parsed: ReturnType<typeof parseConfigurationArgs>,
  deps: ConfigurationCliDeps,
): Promise<number> {
  const { db, out, err } = deps;
  if (parsed.command === 'export') {
    const exported = await exportTenant(db, parsed.tenant);
    if (!exported) {
      err(`No tenant with the code ${parsed.tenant}.`);
      return 1;
    }
    const yaml = configurationYaml(
      exported,
      ` Keycard configuration of tenant ${parsed.tenant} (keycard export). Secrets are not exported:\n` +
        ' clients and captcha keep theirs when applied; add secretEnv to set one from the environment.',
    );
    if (parsed.output) {
      writeFileSync(parsed.output, yaml);
      err(`Wrote ${parsed.tenant} to ${parsed.output}.`);
    } else out(yaml.trimEnd());
    return 0;
  }
  const configuration = readConfigurationFile(parsed.file);
  // Addresses Keycard's servers will fetch stay outside its network (security/outbound.ts).
  try {
    configuration.tenants.forEach((tenant, index) => {
      assertOutboundAddresses(tenant, deps.config.allowPrivateOutbound, `tenants[${index}].`);
    });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const problems = Object.entries(error.fields ?? {}).map(([field, problem]) => `${field}: ${problem}`);
    throw new ConfigurationFileError(parsed.file, problems);
  }
  // The operator tenant holds the owners' accounts and their MFA requirement: a file changes it
  // only when asked to in so many words.
  const operatorIndex = configuration.tenants.findIndex((tenant) => tenant.code === operatorTenantCode);
  if (operatorIndex >= 0 && !parsed.allowOperatorTenant) {
    throw new ConfigurationFileError(parsed.file, [
      `tenants[${operatorIndex}].code: ${operatorTenantCode} is the operator tenant; apply changes it only with --allow-operator-tenant`,
    ]);
  }
  // Under each tenant's change lease, taken in code order (two applies never wait on each
  // other in a circle): the plan is read and written while no API request changes the tenant.
  const codes = [...new Set(configuration.tenants.map((tenant) => tenant.code))].sort();
  const underLeases = <T>(run: () => Promise<T>): Promise<T> =>
    codes.reduceRight<() => Promise<T>>((inner, code) => () => withTenantLease(db, code, inner), run)();
  return underLeases(() => applyFile(parsed, configuration, deps));
}

async function applyFile(
  parsed: { file: string; dryRun: boolean },
  configuration: ReturnType<typeof readConfigurationFile>,
  deps: ConfigurationCliDeps,
): Promise<number> {
  const { db, out } = deps;
  const plan = await planConfiguration(db, parsed.file, configuration, deps.env, {
    production: deps.config.env === 'production',
  });
  if (!hasChanges(plan)) {
    out(describePlan(plan.objects).join('\n'));
    out(`No changes: the database already matches ${parsed.file}.`);
    return 0;
  }
  out(describePlan(plan.objects).join('\n'));
  if (parsed.dryRun) {
    out(`Dry run of ${parsed.file}: ${counts(plan.objects)}. Nothing was written.`);
    return 0;
  }
  const secrets = await applyConfigurationPlan({ db, config: deps.config }, plan, deps.now);
  out(
    `Applied ${parsed.file}: ${counts(plan.objects).replace('to create', 'created').replace('to change', 'changed').replace('to remove', 'removed')}.`,
  );
  for (const { tenant, clientId, secret } of secrets) {
    out(`Secret of client ${clientId} of ${tenant} (shown once, store it now): ${secret}`);
  }
  return 0;
}
