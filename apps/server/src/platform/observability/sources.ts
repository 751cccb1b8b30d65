import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * The outbox's backlog for a scrape, in one query on the (status, next_attempt_at) index:
 * messages waiting or being delivered, the oldest of them, and those given up on.
 */
export function outboxBacklog(
  db: Kysely<Database>,
): () => Promise<{ pending: number; oldestCreatedAt: number | null; failed: number }> {
  return async () => {
    const row = await db
      .selectFrom('outbox')
      .select([
        sql<number>`sum(case when status <> 'failed' then 1 else 0 end)`.as('pending'),
        sql<number | null>`min(case when status <> 'failed' then created_at end)`.as('oldest'),
        sql<number>`sum(case when status = 'failed' then 1 else 0 end)`.as('failed'),
      ])
      .where('status', 'in', ['pending', 'sending', 'failed'])
      .executeTakeFirst();
    return {
      pending: Number(row?.pending ?? 0),
      oldestCreatedAt: row?.oldest === null || row?.oldest === undefined ? null : Number(row.oldest),
      failed: Number(row?.failed ?? 0),
    };
  };
}
