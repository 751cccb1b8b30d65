import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Config } from '../config.ts';
import { type Db, openDatabase } from '../db/database.ts';
import { grantAppRole } from '../db/database-roles.ts';
import { verifyChain } from './audit-chain.ts';

export const auditUsage = `  keycard audit verify
      Checks the audit log's hash chain from the first entry to the last. Reports the first
      entry that was changed, removed or inserted (its id and position) and exits with 1;
      exits with 0 when the chain is whole.

  keycard db migrate [--app-role <role>]
      Applies the database migrations as the owner role (MIGRATION_DATABASE_URL, else
      DATABASE_URL). With --app-role, then grants that PostgreSQL role what the server needs:
      every table read and written, the audit log only read and appended to.

  keycard db grant --app-role <role>
      Grants the application role its privileges again (after restoring a backup, say).
`;

export class AuditUsageError extends Error {}

interface Io {
  out: (line: string) => void;
  err: (line: string) => void;
  database?: Db;
}

/** keycard audit verify: answers 0 when the chain is whole, 1 at the first break. */
export async function runAuditCommand(args: string[], config: Config, io: Io): Promise<number> {
  const [subcommand, ...rest] = args;
  if (subcommand !== 'verify' || rest.length > 0) throw new AuditUsageError('usage: keycard audit verify');
  const database = io.database ?? (await openAs(config, config.databaseUrl, false));
  try {
    const report = await verifyChain(database.kysely);
    if (report.ok) {
      io.out(`The audit chain is whole: ${report.entries} entries, head ${report.head.hash}.`);
      return 0;
    }
    const what = {
      changed: 'was changed (its content no longer gives its hash)',
      removed: 'follows removed entries',
      inserted: 'was inserted into the chain',
    }[report.problem];
    io.err(
      report.id === null
        ? `The audit chain is broken: entries from position ${report.position} on were removed (the chain's head names more).`
        : `The audit chain is broken at position ${report.position}: entry ${report.id} ${what}.`,
    );
    return 1;
  } finally {
    if (!io.database) await database.close();
  }
}

/** keycard db migrate | grant: the owner role's tasks (docs/operations.md#database-roles). */
export async function runDbCommand(args: string[], config: Config, io: Io): Promise<number> {
  const [subcommand, ...rest] = args;
  const { values } = parseArgs({ args: rest, options: { 'app-role': { type: 'string' } }, strict: true });
  const appRole = values['app-role']?.trim();
  if (subcommand !== 'migrate' && subcommand !== 'grant') {
    throw new AuditUsageError(
      'usage: keycard db migrate [--app-role <role>] | keycard db grant --app-role <role>',
    );
  }
  if (subcommand === 'grant' && !appRole) throw new AuditUsageError('--app-role is required');
  if (appRole && !config.migrationDatabaseUrl) {
    io.err('--app-role needs PostgreSQL: set DATABASE_URL (and MIGRATION_DATABASE_URL for the owner).');
    return 1;
  }
  const owner = io.database ?? (await openAs(config, config.migrationDatabaseUrl, subcommand === 'migrate'));
  try {
    if (subcommand === 'migrate') io.out('The database is migrated.');
    if (appRole) {
      await grantAppRole(owner.kysely, appRole);
      io.out(`${appRole} may read and write every table, and only read and append to the audit log.`);
    }
    return 0;
  } finally {
    if (!io.database) await owner.close();
  }
}

function openAs(config: Config, databaseUrl: string | undefined, migrate: boolean): Promise<Db> {
  return openDatabase({
    databaseUrl,
    sqliteFile: path.join(config.dataDir, 'keycard.sqlite'),
    migrate,
  });
}
