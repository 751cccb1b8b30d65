import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type * as client from 'openid-client';
import { afterEach, describe, expect, it } from 'vitest';
import { demo, postgresAdminUrl } from '../../test/helper.ts';
import { Browser } from '../../test/http-client.ts';
import { discoverIssuer } from '../../test/oidc.ts';
import { runKeycard, type ServerProcess, startServerProcess } from '../../test/server-process.ts';
import { appSignIn, passwordStep, sessionExists } from '../../test/sign-in-flow.ts';

/**
 * `keycard backup` and `keycard restore` on the embedded mode, as an operator runs them: the
 * server and the command are processes of their own, and full OpenID Connect sign-ins
 * (password, code, tokens through openid-client) go on while the copy is taken.
 */
// Each test starts server processes and runs the CLI several times: a few seconds apiece on a
// busy two-core machine, so the 30 s default is too close.
describe('keycard backup and restore', { timeout: 120_000 }, () => {
  let dir: string;
  let server: ServerProcess | undefined;

  afterEach(async () => {
    await server?.stop('SIGKILL');
    server = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  async function fullSignIn(issuer: client.Configuration, origin: string): Promise<Browser> {
    const browser = new Browser();
    await passwordStep(browser, origin, 'grand-hotel', demo.grandHotel.email);
    const tokens = await appSignIn(issuer, browser, origin);
    expect(tokens.claims()?.email).toBe(demo.grandHotel.email);
    return browser;
  }

  function countRows(file: string, table: string): number {
    const db = new DatabaseSync(file, { readOnly: true });
    try {
      return Number((db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n);
    } finally {
      db.close();
    }
  }

  it('copies the database while sign-ins go on, and the restored copy signs people in', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'keycard-backup-'));
    const env = { DATA_DIR: path.join(dir, 'data') };
    const backupFile = path.join(dir, 'keycard-backup.sqlite');
    server = await startServerProcess(env);
    const origin = server.origin('grand-hotel');
    const issuer = await discoverIssuer(origin);
    const before = await fullSignIn(issuer, origin);

    // Four sign-ins at a time, without a pause, from before the backup starts to after it ends.
    let loading = true;
    const finishedAt: number[] = [];
    const failures: unknown[] = [];
    const load = (async () => {
      while (loading) {
        await Promise.all(
          Array.from({ length: 4 }, () =>
            fullSignIn(issuer, origin).then(
              () => finishedAt.push(Date.now()),
              (error) => failures.push(error),
            ),
          ),
        );
      }
    })();
    while (finishedAt.length < 8) await new Promise((resolve) => setTimeout(resolve, 20));
    const backupStarted = Date.now();
    const backup = await runKeycard(['backup', backupFile], env);
    const backupEnded = Date.now();
    while (finishedAt.filter((at) => at > backupEnded).length < 4) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    loading = false;
    await load;

    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    expect(backup.stdout).toMatch(/Backed up to .*integrity ok/);
    expect(failures).toEqual([]);
    expect(finishedAt.filter((at) => at > backupStarted).length).toBeGreaterThan(0);
    // The copy is one file, whole and consistent: SQLite's own checks pass on it.
    const copy = new DatabaseSync(backupFile, { readOnly: true });
    expect(copy.prepare('PRAGMA integrity_check').all()).toEqual([{ integrity_check: 'ok' }]);
    expect(copy.prepare('PRAGMA foreign_key_check').all()).toEqual([]);
    expect(copy.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'delete' });
    copy.close();
    const sessionsInCopy = countRows(backupFile, 'sessions');
    expect(sessionsInCopy).toBeGreaterThan(8);

    // Signed in after the copy: in the live database only.
    const after = await fullSignIn(issuer, origin);

    const underServer = await runKeycard(['restore', backupFile, '--force'], env);
    expect(underServer.code).toBe(1);
    expect(underServer.stderr).toMatch(/a Keycard server \(process \d+\) is running/);

    expect((await server.stop('SIGTERM')).code).toBe(0);
    const port = server.port;
    server = undefined;
    const live = path.join(env.DATA_DIR, 'keycard.sqlite');
    const sessionsLive = countRows(live, 'sessions');
    expect(sessionsLive).toBeGreaterThan(sessionsInCopy);

    const withoutForce = await runKeycard(['restore', backupFile], env);
    expect(withoutForce.code).toBe(1);
    expect(withoutForce.stderr).toMatch(/exists\. Pass --force/);

    const restore = await runKeycard(['restore', backupFile, '--force'], env);
    expect(restore.stderr).toBe('');
    expect(restore.code).toBe(0);
    const keptAside = /kept as (\S+)\.$/m.exec(restore.stdout)?.[1];
    expect(keptAside).toBeDefined();
    // The database it replaced is kept whole, with what was written after the copy.
    expect(countRows(keptAside ?? '', 'sessions')).toBe(sessionsLive);
    expect(countRows(live, 'sessions')).toBe(sessionsInCopy);

    server = await startServerProcess(env, { port });
    // The restored database is the copy's moment: the session from before it is there, the
    // one made after it is not, and people sign in as before.
    expect(await sessionExists(before, origin)).toBe(true);
    expect(await sessionExists(after, origin)).toBe(false);
    await fullSignIn(await discoverIssuer(origin), origin);
  });

  it('refuses a file that is not a whole Keycard database, or one from a newer Keycard', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'keycard-backup-'));
    const env = { DATA_DIR: path.join(dir, 'data') };
    server = await startServerProcess(env);
    const good = path.join(dir, 'good.sqlite');
    expect((await runKeycard(['backup', good], env)).code).toBe(0);
    const again = await runKeycard(['backup', good], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/exists; choose another file or pass --force/);
    await server.stop('SIGTERM');
    server = undefined;

    const garbage = path.join(dir, 'garbage.sqlite');
    writeFileSync(garbage, Buffer.alloc(8192, 7));
    const fromGarbage = await runKeycard(['restore', garbage, '--force'], env);
    expect(fromGarbage.code).toBe(1);
    expect(fromGarbage.stderr).toMatch(/cannot be read as an SQLite database|does not check out/);

    const newer = path.join(dir, 'newer.sqlite');
    copyFileSync(good, newer);
    const db = new DatabaseSync(newer);
    db.prepare('INSERT INTO kysely_migration (name, timestamp) VALUES (?, ?)').run(
      '9999_from_the_future',
      new Date().toISOString(),
    );
    db.close();
    const fromNewer = await runKeycard(['restore', newer, '--force'], env);
    expect(fromNewer.code).toBe(1);
    expect(fromNewer.stderr).toMatch(/newer Keycard \(migrations 9999_from_the_future/);

    const foreign = path.join(dir, 'foreign.sqlite');
    const other = new DatabaseSync(foreign);
    other.exec('CREATE TABLE notes (body TEXT)');
    other.close();
    const fromForeign = await runKeycard(['restore', foreign, '--force'], env);
    expect(fromForeign.code).toBe(1);
    expect(fromForeign.stderr).toMatch(/not a Keycard database/);

    // Nothing above touched the database: the good copy still restores.
    expect((await runKeycard(['restore', good, '--force'], env)).code).toBe(0);
  });

  it('points PostgreSQL deployments to pg_dump', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'keycard-backup-'));
    const env = { DATA_DIR: dir, DATABASE_URL: postgresAdminUrl };
    const backup = await runKeycard(['backup', path.join(dir, 'x.sqlite')], env);
    expect(backup.code).toBe(1);
    expect(backup.stderr).toMatch(/pg_dump/);
    const restore = await runKeycard(['restore', path.join(dir, 'x.sqlite')], env);
    expect(restore.code).toBe(1);
    expect(restore.stderr).toMatch(/pg_restore/);
  });
});
