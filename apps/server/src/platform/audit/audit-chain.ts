import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { type ChainedContent, entryHash, genesisHash } from '../db/audit-chain-format.ts';
import type { Database } from '../db/schema.ts';

/**
 * The audit log's hash chain (docs/security.md#audit-chain). Every entry carries its position
 * (`seq`, 1, 2, 3 …), the hash of the entry before it (`prev_hash`; 64 zeros for the first)
 * and its own hash: SHA-256 of the previous hash and the entry's canonical content. Changing,
 * removing or inserting an entry breaks the chain at that entry, which `keycard audit verify`
 * reports. The head of the chain (last position and hash) is one row, `audit_chain_head`,
 * locked by each append until its transaction ends, so concurrent writers on any number of
 * instances append one after the other and the chain never forks. The hash itself is part of
 * the stored format (`db/audit-chain-format.ts`), which migration 9101 also uses.
 */

/**
 * Appends an entry at the head of the chain. Must run inside a transaction (recordAudit makes
 * one when given none): the head row stays locked until it ends, so the next writer reads the
 * head this one wrote. PostgreSQL locks it with FOR UPDATE; SQLite has one writer at a time.
 */
export async function appendChained(trx: Kysely<Database>, entry: ChainedContent): Promise<void> {
  const head = await sql<{ seq: number | string; hash: string }>`
    select seq, hash from audit_chain_head where id = 1 ${sql.raw(await forUpdate(trx))}`.execute(trx);
  const current = head.rows[0];
  if (!current) throw new Error('audit_chain_head is missing: run the migrations');
  const seq = Number(current.seq) + 1;
  const hash = entryHash(current.hash, entry);
  await trx
    .insertInto('audit_log')
    .values({ ...entry, seq, prev_hash: current.hash, hash })
    .execute();
  await trx.updateTable('audit_chain_head').set({ seq, hash }).where('id', '=', 1).execute();
}

async function forUpdate(db: Kysely<Database>): Promise<string> {
  return (await isPostgres(db)) ? 'for update' : '';
}

/** Is db PostgreSQL? (Its adapter says so; no query needed.) */
export async function isPostgres(db: Kysely<Database>): Promise<boolean> {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** What `keycard audit verify` found. */
export type ChainReport =
  | { ok: true; entries: number; head: { seq: number; hash: string } }
  | {
      ok: false;
      /** changed: an entry's content no longer matches its hash; removed: entries are missing
       * before this one (or after the last); inserted: this entry was put into the chain. */
      problem: 'changed' | 'removed' | 'inserted';
      /** The entry at which the chain breaks (null: entries are missing at the end). */
      id: string | null;
      /** Its position in the chain (1-based), or where the missing entries were. */
      position: number;
      entries: number;
    };

interface ChainRow extends ChainedContent {
  seq: number;
  prev_hash: string | null;
  hash: string | null;
}

/**
 * Walks the whole chain in order, a page at a time, in one snapshot of the database, and
 * reports the first break: an entry whose content does not give its hash (changed), a position
 * or link that skips entries (removed), or an entry the chain goes around or that lies beyond
 * the head (inserted). The head row names the last entry, so entries removed from the end are
 * found too.
 */
export async function verifyChain(db: Kysely<Database>, pageSize = 1000): Promise<ChainReport> {
  const postgres = await isPostgres(db);
  const run = (trx: Kysely<Database>) => walkChain(trx, pageSize);
  return postgres
    ? db.transaction().setIsolationLevel('repeatable read').execute(run)
    : db.transaction().execute(run);
}

async function walkChain(db: Kysely<Database>, pageSize: number): Promise<ChainReport> {
  const head = await db
    .selectFrom('audit_chain_head')
    .select(['seq', 'hash'])
    .where('id', '=', 1)
    .executeTakeFirst();
  const headSeq = Number(head?.seq ?? 0);
  let previousHash = genesisHash;
  let beforePrevious: string | null = null;
  let lastId: string | null = null;
  let position = 0;
  let after = 0;
  const page = async () =>
    (await db
      .selectFrom('audit_log')
      .selectAll()
      .where('seq', '>', after)
      .orderBy('seq')
      .limit(pageSize)
      .execute()) as unknown as ChainRow[];
  let pending = await page();
  const broken = (
    problem: 'changed' | 'removed' | 'inserted',
    id: string | null,
    at: number,
  ): ChainReport => ({
    ok: false,
    problem,
    id,
    position: at,
    entries: position,
  });
  while (pending.length > 0) {
    for (let index = 0; index < pending.length; index++) {
      const row = pending[index]!;
      position += 1;
      const seq = Number(row.seq);
      if (position > headSeq) return broken('inserted', row.id, position);
      if (seq > position) return broken('removed', row.id, position);
      if (seq < position) return broken('inserted', row.id, position);
      if (!row.hash || !row.prev_hash || entryHash(row.prev_hash, row) !== row.hash) {
        return broken('changed', row.id, position);
      }
      if (row.prev_hash !== previousHash) {
        // The chain goes around the previous entry: that one was inserted; around this one: this one.
        if (beforePrevious !== null && row.prev_hash === beforePrevious) {
          return broken('inserted', lastId, position - 1);
        }
        let next = pending[index + 1];
        if (!next) {
          after = seq;
          const more = await page();
          next = more[0];
          pending = [...pending.slice(0, index + 1), ...more];
        }
        if (next && next.prev_hash === previousHash) return broken('inserted', row.id, position);
        return broken('removed', row.id, position);
      }
      beforePrevious = previousHash;
      previousHash = row.hash;
      lastId = row.id;
    }
    after = Number(pending.at(-1)!.seq);
    pending = await page();
  }
  if (position < headSeq) return broken('removed', null, position + 1);
  if (head && head.hash !== previousHash) return broken('changed', lastId, position);
  return { ok: true, entries: position, head: { seq: headSeq, hash: previousHash } };
}

export type CopyReport = { ok: true; entries: number } | Extract<ChainReport, { ok: false }>;

/** One line of a sink's copy (audit-sink.ts sinkLine), as far as the comparison needs it. */
export interface CopiedEntry {
  id: string;
  seq: number;
  hash: string;
}

/**
 * Compares the log with a copy kept outside the database (a sink's JSON lines, duplicates
 * allowed: delivery is at least once). A forger with the owner's rights can rewrite an entry
 * and recompute every hash after it, and the chain is whole again; the copy still holds the
 * old hashes. Reports the first position where the database no longer holds what the copy
 * does: the entry is gone (removed), another entry stands there (inserted), or its hash
 * differs (changed). Entries written after the copy's last line are the chain walk's to check.
 */
export async function compareWithCopy(
  db: Kysely<Database>,
  copy: AsyncIterable<CopiedEntry> | Iterable<CopiedEntry>,
): Promise<CopyReport> {
  let compared = 0;
  let last = 0;
  const broken = (problem: 'changed' | 'removed' | 'inserted', id: string, position: number): CopyReport => ({
    ok: false,
    problem,
    id,
    position,
    entries: compared,
  });
  let batch: CopiedEntry[] = [];
  const check = async (): Promise<CopyReport | null> => {
    if (batch.length === 0) return null;
    const rows = await db
      .selectFrom('audit_log')
      .select(['id', 'seq', 'hash'])
      .where(
        'seq',
        'in',
        batch.map((entry) => entry.seq),
      )
      .execute();
    const bySeq = new Map(rows.map((row) => [Number(row.seq), row]));
    for (const entry of batch) {
      const row = bySeq.get(entry.seq);
      if (!row) return broken('removed', entry.id, entry.seq);
      if (row.id !== entry.id) return broken('inserted', row.id, entry.seq);
      if (row.hash !== entry.hash) return broken('changed', row.id, entry.seq);
      compared += 1;
    }
    batch = [];
    return null;
  };
  for await (const entry of copy) {
    // A batch shipped again (at least once) comes after the lines it repeats: skip it.
    if (entry.seq <= last) continue;
    last = entry.seq;
    batch.push(entry);
    if (batch.length >= 500) {
      const report = await check();
      if (report) return report;
    }
  }
  const report = await check();
  if (report) return report;
  return { ok: true, entries: compared };
}
