import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMachineClient } from '../../features/operators/operators.service.ts';
import { runCli } from '../../surfaces/cli/cli.ts';
import { engines } from '../../test/helper.ts';
import { type Cluster, twoInstances } from '../../test/instances.ts';
import { loadConfig } from '../config.ts';
import { entryHash, genesisHash } from '../db/audit-chain-format.ts';
import type { Db } from '../db/database.ts';
import { migrateTo, migrateToLatest } from '../db/migrations.ts';
import { cliActor, recordAudit } from './audit.service.ts';
import { chainRows, scratchDatabase, tamper } from './audit.test-support.ts';
import { verifyChain } from './audit-chain.ts';

/** Writes n entries, each in its own transaction as a change would, a millisecond apart. */
async function writeEntries(db: Db, n: number): Promise<void> {
  const start = Date.now();
  for (let i = 0; i < n; i++) {
    await db.kysely.transaction().execute((trx) =>
      recordAudit(
        trx,
        cliActor,
        {
          tenant: 'grand-hotel',
          action: 'user.disable',
          target: { kind: 'user', id: `user-${i + 1}` },
          before: { status: 'active' },
          after: { status: 'disabled', password: 'never-stored' },
        },
        start + i,
      ),
    );
  }
}

async function verifyCli(db: Db): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(['audit', 'verify'], {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    database: db,
    config: loadConfig({ NODE_ENV: 'test' }),
  });
  return { code, out, err };
}

describe.each(engines)('the audit hash chain on %s', (engine) => {
  let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
  afterEach(() => scratch?.drop());

  it('links every entry to the one before it, and `keycard audit verify` finds the chain whole', async () => {
    scratch = await scratchDatabase(engine);
    await writeEntries(scratch.db, 5);
    // An entry written outside a transaction still takes its place at the head.
    await recordAudit(
      scratch.db.kysely,
      cliActor,
      { tenant: null, action: 'operator.create', target: { kind: 'operator', id: 'o-1' } },
      Date.now(),
    );
    const rows = await chainRows(scratch.db.kysely);
    expect(rows.map((row) => Number(row.seq))).toEqual([1, 2, 3, 4, 5, 6]);
    expect(rows[0]!.prev_hash).toBe(genesisHash);
    for (const [index, row] of rows.entries()) {
      if (index > 0) expect(row.prev_hash).toBe(rows[index - 1]!.hash);
      expect(row.hash).toBe(entryHash(row.prev_hash, row));
    }
    expect(rows[0]!.after).not.toContain('never-stored');
    expect(await verifyChain(scratch.db.kysely)).toEqual({
      ok: true,
      entries: 6,
      head: { seq: 6, hash: rows[5]!.hash },
    });
    const cli = await verifyCli(scratch.db);
    expect(cli.code).toBe(0);
    expect(cli.out.join('\n')).toContain('6 entries');
  });

  it('reports an entry whose content was changed, by id and position, and exits with 1', async () => {
    scratch = await scratchDatabase(engine);
    await writeEntries(scratch.db, 5);
    const rows = await chainRows(scratch.db.kysely);
    await tamper(scratch.db, `update audit_log set after = '{"status":"active"}' where seq = 3`);
    expect(await verifyChain(scratch.db.kysely)).toMatchObject({
      ok: false,
      problem: 'changed',
      id: rows[2]!.id,
      position: 3,
    });
    const cli = await verifyCli(scratch.db);
    expect(cli.code).toBe(1);
    expect(cli.err.join('\n')).toBe(
      `The audit chain is broken at position 3: entry ${rows[2]!.id} was changed (its content no longer gives its hash).`,
    );
  });

  it('reports entries removed from the middle at the entry that follows them', async () => {
    scratch = await scratchDatabase(engine);
    await writeEntries(scratch.db, 5);
    const rows = await chainRows(scratch.db.kysely);
    await tamper(scratch.db, 'delete from audit_log where seq = 3');
    expect(await verifyChain(scratch.db.kysely)).toMatchObject({
      ok: false,
      problem: 'removed',
      id: rows[3]!.id,
      position: 3,
    });
    expect((await verifyCli(scratch.db)).code).toBe(1);
  });

  it('reports a removal that renumbered the entries after it (the link is broken)', async () => {
    scratch = await scratchDatabase(engine);
    await writeEntries(scratch.db, 5);
    const rows = await chainRows(scratch.db.kysely);
    await tamper(scratch.db, 'delete from audit_log where seq = 2');
    await tamper(scratch.db, 'update audit_log set seq = seq + 1000 where seq > 2');
    await tamper(scratch.db, 'update audit_log set seq = seq - 1001 where seq > 1000');
    await tamper(scratch.db, 'update audit_chain_head set seq = 4');
    expect(await verifyChain(scratch.db.kysely)).toMatchObject({
      ok: false,
      problem: 'removed',
      id: rows[2]!.id,
      position: 2,
    });
  });

  it('reports entries removed from the end (the head names more)', async () => {
    scratch = await scratchDatabase(engine);
    await writeEntries(scratch.db, 5);
    await tamper(scratch.db, 'delete from audit_log where seq = 5');
    expect(await verifyChain(scratch.db.kysely)).toMatchObject({
      ok: false,
      problem: 'removed',
      id: null,
      position: 5,
    });
    const cli = await verifyCli(scratch.db);
    expect(cli.code).toBe(1);
    expect(cli.err.join('\n')).toContain('from position 5 on were removed');
  });

  it('reports an entry inserted into the chain, even one hashed onto the entry before it', async () => {
    scratch = await scratchDatabase(engine);
    await writeEntries(scratch.db, 5);
    const rows = await chainRows(scratch.db.kysely);
    // The forger makes room at position 3 and writes a well-formed entry linked to entry 2.
    await tamper(scratch.db, 'update audit_log set seq = seq + 1000 where seq >= 3');
    await tamper(scratch.db, 'update audit_log set seq = seq - 999 where seq > 1000');
    const forged = {
      id: '00000000-0000-7000-8000-000000000003',
      at: Number(rows[1]!.at),
      actor_kind: 'cli',
      actor_id: null,
      tenant_code: 'grand-hotel',
      action: 'user.enable',
      target_kind: 'user',
      target_id: 'user-x',
      before: null,
      after: null,
    };
    const hash = entryHash(rows[1]!.hash, forged);
    await tamper(
      scratch.db,
      `insert into audit_log (id, at, actor_kind, actor_id, tenant_code, action, target_kind, target_id, before, after, seq, prev_hash, hash)
       values ('${forged.id}', ${forged.at}, 'cli', null, 'grand-hotel', 'user.enable', 'user', 'user-x', null, null, 3, '${rows[1]!.hash}', '${hash}')`,
    );
    await tamper(scratch.db, 'update audit_chain_head set seq = 6');
    expect(await verifyChain(scratch.db.kysely)).toMatchObject({
      ok: false,
      problem: 'inserted',
      id: forged.id,
      position: 3,
    });
    const cli = await verifyCli(scratch.db);
    expect(cli.code).toBe(1);
    expect(cli.err.join('\n')).toBe(
      `The audit chain is broken at position 3: entry ${forged.id} was inserted into the chain.`,
    );
  });

  it('reports an entry appended behind the head’s back', async () => {
    scratch = await scratchDatabase(engine);
    await writeEntries(scratch.db, 3);
    const rows = await chainRows(scratch.db.kysely);
    const forged = { ...rows[2]!, id: '00000000-0000-7000-8000-000000000009', target_id: 'user-y' };
    const hash = entryHash(rows[2]!.hash, forged);
    await tamper(
      scratch.db,
      `insert into audit_log (id, at, actor_kind, actor_id, tenant_code, action, target_kind, target_id, before, after, seq, prev_hash, hash)
       values ('${forged.id}', ${Number(forged.at)}, 'cli', null, 'grand-hotel', '${forged.action}', 'user', 'user-y', null, null, 4, '${rows[2]!.hash}', '${hash}')`,
    );
    expect(await verifyChain(scratch.db.kysely)).toMatchObject({
      ok: false,
      problem: 'inserted',
      id: forged.id,
      position: 4,
    });
  });

  it('chains the entries that existed before the chain (migration 9101), in the order written', async () => {
    scratch = await scratchDatabase(engine, { migrate: false });
    const db = scratch.db.kysely;
    await migrateTo(db, '8005_client_secret_digests');
    const at = Date.now();
    for (const [id, ms] of [
      ['00000000-0000-7000-8000-00000000000b', at + 1],
      ['00000000-0000-7000-8000-00000000000a', at + 1],
      ['00000000-0000-7000-8000-00000000000c', at],
    ] as const) {
      await sql`insert into audit_log (id, at, actor_kind, actor_id, tenant_code, action, target_kind, target_id, before, after)
        values (${id}, ${ms}, 'cli', null, 'grand-hotel', 'user.disable', 'user', ${id}, null, '{"status":"disabled"}')`.execute(
        db,
      );
    }
    await migrateToLatest(db);
    const rows = await chainRows(db);
    expect(rows.map((row) => row.id)).toEqual([
      '00000000-0000-7000-8000-00000000000c',
      '00000000-0000-7000-8000-00000000000a',
      '00000000-0000-7000-8000-00000000000b',
    ]);
    expect(await verifyChain(db)).toMatchObject({ ok: true, entries: 3 });
    // The append-only triggers are back after the migration.
    await expect(sql`update audit_log set action = 'x'`.execute(db)).rejects.toThrow(/append-only/);
    await expect(sql`delete from audit_log`.execute(db)).rejects.toThrow(/append-only/);
    await writeEntries(scratch.db, 1);
    expect(await verifyChain(db)).toMatchObject({ ok: true, entries: 4 });
  });
});

/**
 * Concurrent writers never fork the chain: 50 audited changes at once, split over two
 * instances on one PostgreSQL database, each entry written in its change's transaction (a
 * change that takes no other lock: nothing else puts the writers in a line), give one chain of
 * contiguous positions whose every link holds. Without the head's row lock they fork: two
 * writers read the same head and write the same position.
 */
describe('the audit chain under concurrent writers on two PostgreSQL instances', () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await twoInstances();
  });
  afterAll(() => cluster.close());

  it('appends 50 concurrent audited changes as one unbroken chain', async () => {
    const { t, instances } = cluster;
    const before = await chainRows(t.services.db);
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        instances[i % 2]!.services.db.transaction().execute(async (trx) => {
          await sql`select pg_sleep(0.01)`.execute(trx);
          await recordAudit(
            trx,
            cliActor,
            { tenant: 'grand-hotel', action: 'user.disable', target: { kind: 'user', id: `chain-${i}` } },
            Date.now(),
          );
          await sql`select pg_sleep(0.01)`.execute(trx);
        }),
      ),
    );
    expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
    const rows = await chainRows(t.services.db);
    expect(rows.length - before.length).toBe(50);
    expect(rows.map((row) => Number(row.seq))).toEqual(rows.map((_, index) => index + 1));
    expect(new Set(rows.map((row) => row.prev_hash)).size).toBe(rows.length);
    expect(await verifyChain(t.services.db)).toMatchObject({ ok: true, entries: rows.length });
  });

  it('appends 50 concurrent operator creations (a real audited change) as one unbroken chain', async () => {
    const { t, instances } = cluster;
    // The operator tenant is made by the first machine operator; the 50 then race on the chain.
    await createMachineClient(
      { db: t.services.db, config: t.config, actor: cliActor },
      { clientId: 'chain-first', role: 'auditor', tenants: null },
      Date.now(),
    );
    const before = await chainRows(t.services.db);
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        createMachineClient(
          { db: instances[i % 2]!.services.db, config: t.config, actor: cliActor },
          { clientId: `chain-op-${i}`, role: 'auditor', tenants: null },
          Date.now(),
        ),
      ),
    );
    expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
    const rows = await chainRows(t.services.db);
    expect(rows.length - before.length).toBeGreaterThanOrEqual(50);
    expect(rows.map((row) => Number(row.seq))).toEqual(rows.map((_, index) => index + 1));
    expect(await verifyChain(t.services.db)).toMatchObject({ ok: true, entries: rows.length });
  });
});
