import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helper.ts';
import { isOutage } from '../shared/outage.ts';
import { preparingPool } from './prepared-pool.ts';

/** Prepared statements on PostgreSQL (db/prepared-pool.ts), against a real server. */
describe('prepared statements on PostgreSQL', () => {
  let t: TestApp;
  /** One connection, so every statement meets what the previous ones prepared. */
  let db: Kysely<Record<string, Record<string, unknown>>>;
  let admin: pg.Client;
  beforeAll(async () => {
    t = await buildTestApp('postgres', { seed: false });
    db = new Kysely({
      dialect: new PostgresDialect({
        pool: preparingPool(new pg.Pool({ connectionString: t.config.databaseUrl, max: 1 })),
      }),
    });
    admin = new pg.Client({ connectionString: t.config.databaseUrl });
    await admin.connect();
    await admin.query('create table shape_test (id int primary key)');
    await admin.query('insert into shape_test values (1)');
  });
  afterAll(async () => {
    await admin.end();
    await db.destroy();
    await t.close();
  });

  const prepared = async () =>
    (await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(db)).rows.map(
      (row) => row.statement,
    );

  it('prepares a data statement once per connection and reuses it; schema statements stay unnamed', async () => {
    for (let i = 0; i < 3; i++) await sql`select id from shape_test where id = ${i}`.execute(db);
    await sql`create index shape_test_index on shape_test (id)`.execute(db);
    const statements = await prepared();
    expect(statements.filter((text) => text.includes('select id from shape_test'))).toHaveLength(1);
    expect(statements.filter((text) => /create index/i.test(text))).toEqual([]);
  });

  it('runs a statement again when another instance changed its table, with the new shape', async () => {
    const read = () => sql<Record<string, unknown>>`select * from shape_test`.execute(db);
    expect((await read()).rows).toEqual([{ id: 1 }]);
    // Another instance migrates: the prepared plan's result type no longer holds.
    await admin.query(`alter table shape_test add column label text default 'new'`);
    expect((await read()).rows).toEqual([{ id: 1, label: 'new' }]);
    expect((await read()).rows).toEqual([{ id: 1, label: 'new' }]);
  });

  it('fails a transaction that meets a stale plan as an outage (503), and the next one works', async () => {
    const read = (trx: Kysely<Record<string, Record<string, unknown>>>) =>
      sql<Record<string, unknown>>`select * from shape_test where id = ${1}`.execute(trx);
    await read(db);
    await admin.query('alter table shape_test add column note text');
    const failed = await db
      .transaction()
      .execute(read)
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(failed).not.toBeNull();
    expect(isOutage(failed)).toBe(true);
    expect((await db.transaction().execute(read)).rows).toEqual([{ id: 1, label: 'new', note: null }]);
  });
});
