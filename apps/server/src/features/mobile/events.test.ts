import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresAdminUrl } from '../../test/helper.ts';
import { type MobileEvents, memoryEvents, postgresEvents, redisEvents, watchRow } from './events.ts';

const quiet = { warn() {} };
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Two buses as two instances hold them: a publish on one wakes a wait on the other. */
describe.each([
  [
    'in-process',
    () => {
      const bus = memoryEvents();
      return [bus, bus] as const;
    },
  ],
  [
    'PostgreSQL LISTEN/NOTIFY',
    () => [postgresEvents(postgresAdminUrl, quiet), postgresEvents(postgresAdminUrl, quiet)] as const,
  ],
  ['Redis pub/sub', () => [redisEvents(redisUrl, quiet), redisEvents(redisUrl, quiet)] as const],
] as const)('mobile events over %s', (_name, make) => {
  const [first, second] = make() as readonly [MobileEvents, MobileEvents];
  afterAll(async () => {
    await first.close();
    if (second !== first) await second.close();
  });

  it('wakes a waiter on another bus at once, and only for its topic', async () => {
    const topic = `challenge:${randomUUID()}`;
    // Let both connections listen before publishing.
    await Promise.all([first.wait('warm-up', 50), second.wait('warm-up', 50)]);
    const started = Date.now();
    const woken = second.wait(topic, 5000);
    await first.publish(`challenge:${randomUUID()}`);
    await first.publish(topic);
    await woken;
    expect(Date.now() - started).toBeLessThan(500);
  });

  it('times out a wait that hears nothing', async () => {
    const started = Date.now();
    await second.wait(`setup:${randomUUID()}`, 200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  });
});

describe('a subscription driven by the database', () => {
  it('yields each change once and stops after a final state, polling when nobody publishes', async () => {
    const bus = memoryEvents();
    const states = ['PENDING', 'PENDING', 'PENDING', 'APPROVED'];
    let reads = 0;
    const seen: string[] = [];
    for await (const state of watchRow(bus, 'challenge:x', async () => states[Math.min(reads++, 3)]!, {
      fingerprint: (value) => value,
      isFinal: (value) => value !== 'PENDING',
    })) {
      seen.push(state);
    }
    expect(seen).toEqual(['PENDING', 'APPROVED']);
    expect(reads).toBe(4);
  });
});
