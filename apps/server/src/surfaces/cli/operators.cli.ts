import { parseArgs } from 'node:util';
import { type AdminRole, adminRoles, canonicalEmail, operatorTenantCode } from '@keycard/contract';
import type { Kysely } from 'kysely';
import {
  adminResource,
  changeOperator,
  chooseOperatorOrigin,
  createMachineClient,
  createOwner,
  listOperators,
  readServerOrigin,
  removeOperator,
} from '../../features/operators/index.ts';
import { cliActor } from '../../platform/audit/audit.service.ts';
import { type Config, publicOrigin } from '../../platform/config.ts';
import type { Database } from '../../platform/db/schema.ts';

export const operatorsUsage = `  keycard operators create-owner --email <address>
      Creates the operator tenant on ADMIN_DOMAIN if it is missing (MFA required) and an owner
      account for the address, and prints a single-use activation link (24 hours valid). The
      owner sets a password there and an MFA factor at the first sign-in. Nothing else creates
      operators: a server started without one has none. The console's addresses use the port of
      the server last started on this DATA_DIR (PUBLIC_PORT, or PORT, must agree with it when
      set); run again, it corrects addresses an earlier run wrote with another port.

  keycard operators create-client --client-id <id> --role <${adminRoles.join('|')}> [--tenant <code> …]
      Creates a machine operator: a client of the operator tenant that gets admin API access
      tokens with the client credentials grant, with the role given (limited to the tenants
      named, if any). Prints its secret once.

  keycard operators list
      Lists the operators: their id, kind, subject, role and tenants.

  keycard operators set-role --id <id> --role <${adminRoles.join('|')}> [--tenant <code> …]
      Gives an operator another role, limited to the tenants named (without --tenant: every
      customer tenant). The last owner keeps the role, as over the API. Audited.

  keycard operators remove --id <id>
      Removes an operator: a person keeps the account but no longer gets into the admin API; a
      machine's client goes with it, so its tokens fail at once. Never the last owner. Audited.
`;

export class OperatorsUsageError extends Error {}

export type OperatorsCommand =
  | { command: 'create-owner'; email: string }
  | { command: 'create-client'; clientId: string; role: AdminRole; tenants: string[] | null }
  | { command: 'list' }
  | { command: 'set-role'; id: string; role: AdminRole; tenants: string[] | null }
  | { command: 'remove'; id: string };

export function parseOperatorsArgs(args: string[]): OperatorsCommand {
  const [command, ...rest] = args;
  const { values } = parseArgs({
    args: rest,
    options: {
      email: { type: 'string' },
      'client-id': { type: 'string' },
      role: { type: 'string' },
      tenant: { type: 'string', multiple: true },
      id: { type: 'string' },
    },
    strict: true,
  });
  if (command === 'create-owner') {
    const email = canonicalEmail(values.email ?? '');
    if (email === undefined)
      throw new OperatorsUsageError('--email must be an e-mail address (no look-alike Unicode)');
    return { command, email };
  }
  const roleAndTenants = () => {
    const role = values.role as AdminRole;
    if (!adminRoles.includes(role))
      throw new OperatorsUsageError(`--role must be one of ${adminRoles.join(', ')}`);
    const tenants = values.tenant && values.tenant.length > 0 ? values.tenant : null;
    if (tenants?.includes(operatorTenantCode))
      throw new OperatorsUsageError(`--tenant ${operatorTenantCode}: the operator tenant is for owners only`);
    if (tenants && role === 'owner')
      throw new OperatorsUsageError('an owner acts on every tenant: no --tenant');
    return { role, tenants };
  };
  const operatorId = () => {
    const id = (values.id ?? '').trim().toLowerCase();
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id)) {
      throw new OperatorsUsageError('--id must be an operator id (keycard operators list shows them)');
    }
    return id;
  };
  if (command === 'create-client') {
    const clientId = (values['client-id'] ?? '').trim();
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(clientId)) {
      throw new OperatorsUsageError('--client-id must be letters, digits, dots, dashes and underscores');
    }
    return { command, clientId, ...roleAndTenants() };
  }
  if (command === 'list') return { command };
  if (command === 'set-role') return { command, id: operatorId(), ...roleAndTenants() };
  if (command === 'remove') return { command, id: operatorId() };
  throw new OperatorsUsageError('operators takes create-owner, create-client, list, set-role or remove');
}

export async function runOperatorsCommand(
  parsed: OperatorsCommand,
  io: {
    db: Kysely<Database>;
    config: Config;
    now: number;
    out: (line: string) => void;
    err: (line: string) => void;
    /** The command's environment, to tell a port it was given from the default one. */
    env?: NodeJS.ProcessEnv;
  },
): Promise<number> {
  // The addresses written for the console are the ones the server answers on (issue 19).
  const origin = chooseOperatorOrigin({
    config: io.config,
    env: io.env ?? process.env,
    record: await readServerOrigin(io.config),
  });
  if (!origin.ok) {
    io.err(origin.reason);
    return 1;
  }
  if (origin.note) io.err(origin.note);
  const config = origin.config;
  const deps = { db: io.db, config, actor: cliActor };
  if (parsed.command === 'create-owner') {
    const { link, expiresAt, tenantCreated } = await createOwner(deps, parsed.email, io.now);
    if (tenantCreated) io.err(`Created the operator tenant on ${config.adminDomain} (MFA required).`);
    io.out(link);
    io.err(`Single use, for ${parsed.email} (owner), valid until ${new Date(expiresAt).toISOString()}.`);
    io.err(`The console: ${publicOrigin(config, config.adminDomain)}/console/ (after the activation).`);
    return 0;
  }
  if (parsed.command === 'create-client') {
    const { secret } = await createMachineClient(deps, parsed, io.now);
    io.out(secret);
    io.err(
      `Created ${parsed.clientId} (${parsed.role}${parsed.tenants ? ` of ${parsed.tenants.join(', ')}` : ''}). ` +
        `The secret above is shown once. Tokens: POST ${adminResource(config).replace(/\/admin\/api$/, '')}/oidc/token ` +
        'with grant_type=client_credentials and HTTP Basic authentication.',
    );
    return 0;
  }
  // The owners are locked while the last one is looked for on PostgreSQL, as over the API.
  const changeDeps = { ...deps, engine: config.databaseUrl ? ('postgres' as const) : ('sqlite' as const) };
  if (parsed.command === 'set-role') {
    const operator = await changeOperator(changeDeps, parsed.id, parsed, io.now);
    io.err(
      `${operator.kind} ${operator.subject} is now ${operator.role}${operator.tenants ? ` of ${operator.tenants.join(', ')}` : ''}.`,
    );
    return 0;
  }
  if (parsed.command === 'remove') {
    await removeOperator(changeDeps, parsed.id, io.now);
    io.err(`Removed operator ${parsed.id}.`);
    return 0;
  }
  for (const operator of await listOperators(io.db)) {
    io.out(
      `${operator.id}\t${operator.kind}\t${operator.subject}\t${operator.role}\t${operator.tenants ? operator.tenants.join(',') : '*'}`,
    );
  }
  return 0;
}
