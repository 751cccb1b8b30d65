import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, engines, type TestApp } from '../../test/helper.ts';
import type { OutboxMessage, Transport, Transports } from './message.types.ts';
import { enqueueMessage } from './outbox.ts';
import { OutboxWorker } from './outbox.worker.ts';

/** A relay that takes 50 ms per message and counts how many it is given at once. */
function slowRelay() {
  const received: string[] = [];
  let inFlight = 0;
  let most = 0;
  const email: Transport = {
    async send(message: OutboxMessage) {
      inFlight++;
      most = Math.max(most, inFlight);
      await sleep(50);
      received.push(message.id);
      inFlight--;
    },
  };
  const refuse: Transport = {
    async send() {
      throw new Error('not in this test');
    },
  };
  const transports: Transports = { email, sms: refuse, voice: refuse, push: refuse };
  return { transports, received, most: () => most };
}

describe.each(engines)('the outbox worker on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(engine);
  });
  afterAll(async () => {
    await t.close();
  });

  async function queue(count: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      ids.push(
        await enqueueMessage(
          t.services.db,
          {
            tenantCode: 'grand-hotel',
            channel: 'email',
            recipient: `guest${i}@grand-hotel.test`,
            template: 'test.note',
            content: { subject: 'Note', html: '<p>Note</p>', text: 'Note' },
          },
          t.clock.now(),
        ),
      );
    }
    return ids;
  }

  it('delivers a pass a few at a time, and two instances at once deliver each message once', async () => {
    const ids = await queue(24);
    const relay = slowRelay();
    const options = { concurrency: 4, batchSize: 12 };
    const deps = { db: t.services.db, transports: relay.transports, clock: t.clock };
    const [one, two] = [new OutboxWorker(deps, options), new OutboxWorker(deps, options)];
    const started = Date.now();
    const first = await Promise.all([one.runOnce(), two.runOnce()]);
    const second = await Promise.all([one.runOnce(), two.runOnce()]);
    const elapsed = Date.now() - started;
    // Four at a time in each worker, never more.
    expect(relay.most()).toBeGreaterThan(4);
    expect(relay.most()).toBeLessThanOrEqual(8);
    // Side by side, not one after another (24 × 50 ms = 1.2 s).
    expect(elapsed).toBeLessThan(24 * 50);
    const delivered = [...first, ...second].reduce((sum, n) => sum + n, 0);
    expect(delivered).toBe(24);
    expect([...relay.received].sort()).toEqual([...ids].sort());
    const rows = await t.services.db
      .selectFrom('outbox')
      .select(['status', 'attempts'])
      .where('id', 'in', ids)
      .execute();
    expect(rows.every((row) => row.status === 'sent' && row.attempts === 1)).toBe(true);
  });

  it('drains a backlog without waiting a poll between full batches', async () => {
    const ids = await queue(30);
    const relay = slowRelay();
    const worker = new OutboxWorker(
      { db: t.services.db, transports: relay.transports, clock: t.clock },
      { concurrency: 4, batchSize: 5, pollMs: 60_000 },
    );
    worker.start();
    try {
      const deadline = Date.now() + 10_000;
      while (relay.received.length < ids.length && Date.now() < deadline) await sleep(20);
      // Six full batches: with a minute's poll between them this would take six minutes.
      expect([...relay.received].sort()).toEqual([...ids].sort());
    } finally {
      await worker.stop();
    }
  });
});
