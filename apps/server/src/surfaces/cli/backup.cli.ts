import { existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { backup, DatabaseSync } from 'node:sqlite';
import { parseArgs } from 'node:util';
import type { Config } from '../../platform/config.ts';
import { migrationNames } from '../../platform/db/migrations.ts';
import { UsageError } from './cli-args.ts';

/**
 * `keycard backup` and `keycard restore`: the embedded mode's SQLite file, copied while the
 * server serves and put back while it is stopped. PostgreSQL has its own tools (pg_dump,
 * WAL archiving; docs/operations.md#backups).
 */

export const backupUsage = `Backups (embedded SQLite mode; on PostgreSQL use pg_dump, see docs/operations.md)
  keycard backup <file> [--force]     copies the database while the server runs (--force: overwrite <file>)
  keycard restore <file> [--force]    checks a backup and puts it in place of the database; the server
                                      must be stopped (--force: replace an existing database, kept aside)
`;

export const backupCommands = ['backup', 'restore'] as const;

interface BackupIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

/** The database file of the embedded mode, and the file a running server names itself in. */
export function sqliteFileOf(config: Config): string {
  return path.join(config.dataDir, 'keycard.sqlite');
}

export function serverPidFileOf(config: Config): string {
  return path.join(config.dataDir, 'keycard.pid');
}

/** Pages per backup step: all of them, so the copy is one read transaction — one moment. */
const wholeDatabase = 2_147_483_647;

export async function runBackupCommand(
  command: (typeof backupCommands)[number],
  args: string[],
  config: Config,
  io: BackupIo,
): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { force: { type: 'boolean', default: false } },
    allowPositionals: true,
    strict: true,
  });
  const file = positionals[0];
  if (!file || positionals.length > 1) throw new UsageError(`keycard ${command} needs one <file>`);
  if (config.databaseUrl) {
    io.err(
      command === 'backup'
        ? 'keycard backup copies the embedded SQLite database; on PostgreSQL use pg_dump and WAL archiving (docs/operations.md#backups).'
        : 'keycard restore restores the embedded SQLite database; on PostgreSQL use pg_restore (docs/operations.md#backups).',
    );
    return 1;
  }
  const target = path.resolve(file);
  return command === 'backup'
    ? await backupDatabase(sqliteFileOf(config), target, values.force, io)
    : await restoreDatabase(config, target, values.force, io);
}

async function backupDatabase(source: string, target: string, force: boolean, io: BackupIo): Promise<number> {
  if (!existsSync(source)) {
    io.err(`There is no database at ${source} (DATA_DIR).`);
    return 1;
  }
  if (existsSync(target) && !force) {
    io.err(`${target} exists; choose another file or pass --force to overwrite it.`);
    return 1;
  }
  // Written beside the target and renamed at the end: a backup cut short leaves no file
  // under the name, and a reader never sees half a copy.
  const partial = `${target}.partial`;
  rmSync(partial, { force: true });
  const live = new DatabaseSync(source);
  try {
    live.exec('PRAGMA busy_timeout = 5000');
    // One step over every page is one read transaction: a single moment of the database.
    // Under WAL the server's writes go on meanwhile, into the log the copy does not read.
    await backup(live, partial, { rate: wholeDatabase });
  } catch (error) {
    rmSync(partial, { force: true });
    io.err(`The backup failed: ${(error as Error).message}`);
    return 1;
  } finally {
    live.close();
  }
  const copy = new DatabaseSync(partial);
  let report: BackupReport;
  try {
    // A backup is one file: no write-ahead log beside it to forget when it is moved.
    copy.exec('PRAGMA journal_mode = DELETE');
    report = inspect(copy);
  } finally {
    copy.close();
  }
  if (report.problems.length > 0) {
    rmSync(partial, { force: true });
    io.err(`The copy does not check out: ${report.problems.join('; ')}`);
    return 1;
  }
  renameSync(partial, target);
  io.out(`Backed up to ${target}: ${report.migrations.length} migrations, integrity ok.`);
  io.out(
    'Keep ENCRYPTION_KEY (in the embedded mode: secrets.json in DATA_DIR) with it: the signing keys and authenticator secrets in the copy are sealed with it.',
  );
  return 0;
}

interface BackupReport {
  problems: string[];
  migrations: string[];
}

/** SQLite's own check of every page and index, and the migrations the database has. */
function inspect(db: DatabaseSync): BackupReport {
  const integrity = db.prepare('PRAGMA integrity_check').all() as Array<{ integrity_check: string }>;
  const problems = integrity.map((row) => row.integrity_check).filter((line) => line !== 'ok');
  const foreignKeys = db.prepare('PRAGMA foreign_key_check').all();
  if (foreignKeys.length > 0) problems.push(`${foreignKeys.length} rows break a foreign key`);
  let migrations: string[] = [];
  try {
    migrations = (
      db.prepare('SELECT name FROM kysely_migration ORDER BY name').all() as Array<{ name: string }>
    ).map((row) => row.name);
  } catch {
    problems.push('it is not a Keycard database (no migration table)');
  }
  return { problems, migrations };
}

/** The process a running server wrote into DATA_DIR/keycard.pid, when it is still alive. */
function runningServer(config: Config): number | undefined {
  const pidFile = serverPidFileOf(config);
  if (!existsSync(pidFile)) return undefined;
  const pid = Number(readFileSync(pidFile, 'utf8').trim());
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (error) {
    // EPERM: it exists but belongs to someone else — still a running process.
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? pid : undefined;
  }
}

async function restoreDatabase(
  config: Config,
  backupFile: string,
  force: boolean,
  io: BackupIo,
): Promise<number> {
  if (!existsSync(backupFile)) {
    io.err(`There is no file at ${backupFile}.`);
    return 1;
  }
  let report: BackupReport;
  try {
    const copy = new DatabaseSync(backupFile, { readOnly: true });
    try {
      report = inspect(copy);
    } finally {
      copy.close();
    }
  } catch (error) {
    io.err(`${backupFile} cannot be read as an SQLite database: ${(error as Error).message}`);
    return 1;
  }
  if (report.problems.length > 0) {
    io.err(`Nothing was restored: ${backupFile} does not check out: ${report.problems.join('; ')}`);
    return 1;
  }
  const known = new Set(migrationNames());
  const unknown = report.migrations.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    io.err(
      `Nothing was restored: the backup was made by a newer Keycard (migrations ${unknown.join(', ')} are unknown to this one). Restore it with that version.`,
    );
    return 1;
  }
  const pid = runningServer(config);
  if (pid !== undefined) {
    io.err(
      `Nothing was restored: a Keycard server (process ${pid}) is running on ${config.dataDir}. Stop it first.`,
    );
    return 1;
  }
  const target = sqliteFileOf(config);
  let keptAside: string | undefined;
  if (existsSync(target)) {
    if (!force) {
      io.err(
        `Nothing was restored: ${target} exists. Pass --force to replace it (a copy of it is kept beside it).`,
      );
      return 1;
    }
    // The database being replaced is kept, as a backup of its own (its WAL folded in).
    keptAside = `${target}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    const current = new DatabaseSync(target);
    try {
      await backup(current, keptAside, { rate: wholeDatabase });
    } finally {
      current.close();
    }
  }
  const restoring = `${target}.restoring`;
  rmSync(restoring, { force: true });
  const source = new DatabaseSync(backupFile, { readOnly: true });
  try {
    await backup(source, restoring, { rate: wholeDatabase });
  } finally {
    source.close();
  }
  const restored = new DatabaseSync(restoring);
  restored.exec('PRAGMA journal_mode = WAL');
  restored.close();
  // The old write-ahead log belongs to the old file: left beside the new one, SQLite would
  // replay it into the restored database.
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${target}${suffix}`, { force: true });
  renameSync(restoring, target);
  const pending = [...known].filter((name) => !report.migrations.includes(name));
  io.out(
    `Restored ${backupFile} to ${target}${keptAside ? `; the database it replaced is kept as ${keptAside}` : ''}.`,
  );
  if (pending.length > 0) {
    io.out(`The server applies ${pending.length} newer migrations at its next start: ${pending.join(', ')}.`);
  }
  return 0;
}
