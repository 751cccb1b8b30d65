import { createReadStream, existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import {
  type ChainReport,
  type CopiedEntry,
  compareWithCopy,
  verifyChain,
} from '../../platform/audit/audit-chain.ts';
import type { Config } from '../../platform/config.ts';
import { type Db, openDatabase } from '../../platform/db/database.ts';
import { grantAppRole } from '../../platform/db/database-roles.ts';

export const auditUsage = `  keycard audit verify [--copy <file>]
      Checks the audit log's hash chain from the first entry to the last. Reports the first
      entry that was changed, removed or inserted (its id and position) and exits with 1;
      exits with 0 when the chain is whole. With --copy, also compares the log with a copy an
      audit sink wrote (JSON lines): a chain rewritten from some entry on is whole again, but
      no longer matches the copy.

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

/** keycard audit verify: answers 0 when the chain is whole (and matches the copy), 1 at the first break. */
export async function runAuditCommand(args: string[], config: Config, io: Io): Promise<number> {
  const [subcommand, ...rest] = args;
  if (subcommand !== 'verify') throw new AuditUsageError('usage: keycard audit verify [--copy <file>]');
  const { values } = parseArgs({ args: rest, options: { copy: { type: 'string' } }, strict: true });
  const copyFile = values.copy?.trim();
  if (copyFile !== undefined && !existsSync(copyFile)) {
    io.err(`No copy at ${copyFile}.`);
    return 1;
  }
  const database = io.database ?? (await openAs(config, config.databaseUrl, false));
  try {
    const report = await verifyChain(database.kysely);
    if (!report.ok) {
      io.err(brokenMessage(report));
      return 1;
    }
    if (copyFile !== undefined) {
      const compared = await compareWithCopy(database.kysely, copiedEntries(copyFile));
      if (!compared.ok) {
        const what = {
          changed: 'no longer has the hash the copy holds',
          removed: 'is in the copy but no longer in the database',
          inserted: 'stands where the copy holds another entry',
        }[compared.problem];
        io.err(
          `The audit log differs from the copy in ${copyFile} at position ${compared.position}: entry ${compared.id} ${what}.`,
        );
        return 1;
      }
      io.out(
        `The audit chain is whole: ${report.entries} entries, head ${report.head.hash}; the copy's ${compared.entries} entries match.`,
      );
      return 0;
    }
    io.out(`The audit chain is whole: ${report.entries} entries, head ${report.head.hash}.`);
    return 0;
  } finally {
    if (!io.database) await database.close();
  }
}

function brokenMessage(report: Extract<ChainReport, { ok: false }>): string {
  const what = {
    changed: 'was changed (its content no longer gives its hash)',
    removed: 'follows removed entries',
    inserted: 'was inserted into the chain',
  }[report.problem];
  return report.id === null
    ? `The audit chain is broken: entries from position ${report.position} on were removed (the chain's head names more).`
    : `The audit chain is broken at position ${report.position}: entry ${report.id} ${what}.`;
}

/** A sink's JSON lines, one entry at a time. */
async function* copiedEntries(file: string): AsyncGenerator<CopiedEntry> {
  const lines = createInterface({
    input: createReadStream(file, 'utf8'),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  for await (const line of lines) {
    if (!line.trim()) continue;
    const { id, seq, hash } = JSON.parse(line) as CopiedEntry;
    yield { id, seq: Number(seq), hash };
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
