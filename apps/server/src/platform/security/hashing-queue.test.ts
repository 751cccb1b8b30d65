import { availableParallelism } from 'node:os';
import { errorCodes } from '@keycard/contract';
import { describe, expect, it } from 'vitest';
import {
  hashPassword,
  useHashingQueue,
  verifyDummyPassword,
  verifyPassword,
} from '../../features/accounts/password.service.ts';
import { AppError } from '../shared/errors.ts';
import {
  HashingQueue,
  type HashingTicket,
  hashingQueueSettings,
  libuvThreadPoolSize,
} from './hashing-queue.ts';

/** A hash that finishes when the test says so, recording when it started. */
function controlledWork(started: string[]) {
  const finishers = new Map<string, () => void>();
  const work = (name: string) => () =>
    new Promise<string>((resolve) => {
      started.push(name);
      finishers.set(name, () => resolve(name));
    });
  const finish = async (name: string) => {
    finishers.get(name)!();
    // Let the queue hand the freed slot on.
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { work, finish };
}

const of = (tenant: string, priority = false): HashingTicket => ({ tenant, priority });

function expectBusy(error: unknown) {
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe(errorCodes.busy);
  expect((error as AppError).status).toBe(503);
  expect(Number((error as AppError).fields?.retryAfterSeconds)).toBeGreaterThanOrEqual(1);
}

describe('the hashing queue', () => {
  it('runs by default no more hashes at once than the cores, nor than libuv has threads to run them', () => {
    const cores = availableParallelism();
    expect(hashingQueueSettings(undefined, undefined, 1024).concurrency).toBe(cores);
    expect(hashingQueueSettings(undefined, undefined, 1).concurrency).toBe(1);
    expect(hashingQueueSettings(undefined, undefined, 2).concurrency).toBe(Math.min(cores, 2));
    // A set concurrency is the operator's (docs: raise UV_THREADPOOL_SIZE with it).
    expect(hashingQueueSettings(12, undefined, 4)).toEqual({ concurrency: 12, queueLength: 384 });
    expect(libuvThreadPoolSize(undefined)).toBe(4);
    expect(libuvThreadPoolSize('16')).toBe(16);
    expect(libuvThreadPoolSize('zero')).toBe(4);
  });

  it('runs at most its concurrency, queues at most its length, and refuses the rest before any work', async () => {
    // Three at once: two for ordinary hashes, one kept for the priority lane.
    const queue = new HashingQueue({ concurrency: 3, queueLength: 3, refusalPauseMs: 0 });
    const started: string[] = [];
    const { work, finish } = controlledWork(started);
    const names = Array.from({ length: 10 }, (_, i) => `h${i}`);
    const outcomes = names.map((name) =>
      queue.run(of('a'), work(name)).then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      ),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(['h0', 'h1']);
    expect(queue.running).toBe(2);
    expect(queue.waiting).toBe(3);
    // Five refused at once, none of them started.
    const refused = await Promise.all(outcomes.slice(5));
    for (const outcome of refused) expectBusy((outcome as { error: unknown }).error);
    expect(queue.hasRoom).toBe(false);
    await expect(queue.admit()).rejects.toBeInstanceOf(AppError);
    // A known browser's hash does not wait for the ordinary ones: the kept slot runs it now.
    const known = queue.run(of('a', true), work('known'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(['h0', 'h1', 'known']);
    expect(queue.running).toBe(3);
    // While it runs, an ordinary hash that finishes hands its slot on to no one.
    await finish('h0');
    expect(started).toEqual(['h0', 'h1', 'known']);
    await finish('known');
    expect(await known).toBe('known');
    expect(started).toEqual(['h0', 'h1', 'known', 'h2']);
    expect(queue.running).toBe(2);
    // Each finished hash hands its slot to the next waiting one; never more than two run.
    for (const name of ['h1', 'h2', 'h3', 'h4']) {
      await finish(name);
      expect(queue.running).toBeLessThanOrEqual(2);
    }
    const done = await Promise.all(outcomes.slice(0, 5));
    expect(done.map((outcome) => (outcome as { value: string }).value)).toEqual([
      'h0',
      'h1',
      'h2',
      'h3',
      'h4',
    ]);
    expect(started).toEqual(['h0', 'h1', 'known', 'h2', 'h3', 'h4']);
    expect(queue.hasRoom).toBe(true);
    expect(queue.running).toBe(0);
    expect(queue.waiting).toBe(0);
  });

  it('takes waiting hashes round-robin across tenants: a flood of one does not hold the others back', async () => {
    const queue = new HashingQueue({ concurrency: 1, queueLength: 100, refusalPauseMs: 0 });
    const started: string[] = [];
    const { work, finish } = controlledWork(started);
    const all: Promise<string>[] = [queue.run(of('flood'), work('busy'))];
    for (let i = 1; i <= 5; i++) all.push(queue.run(of('flood'), work(`flood${i}`)));
    all.push(queue.run(of('hotel'), work('hotel1')));
    all.push(queue.run(of('hotel'), work('hotel2')));
    all.push(queue.run(of('spa'), work('spa1')));
    for (let i = 0; i < 9; i++) await finish(started.at(-1)!);
    await Promise.all(all);
    expect(started).toEqual([
      'busy',
      'flood1',
      'hotel1',
      'spa1',
      'flood2',
      'hotel2',
      'flood3',
      'flood4',
      'flood5',
    ]);
  });

  it("hashes a priority sign-in first, and when full gives it the place of the busiest tenant's newest hash", async () => {
    const queue = new HashingQueue({ concurrency: 1, queueLength: 3, refusalPauseMs: 0 });
    const started: string[] = [];
    const { work, finish } = controlledWork(started);
    const first = queue.run(of('flood'), work('busy'));
    const waiting = [
      queue.run(of('flood'), work('flood1')),
      queue.run(of('flood'), work('flood2')),
      queue.run(of('hotel'), work('hotel1')),
    ].map((promise) => promise.catch((error: unknown) => error));
    // Full: an ordinary hash is refused, a known browser's takes flood2's place.
    await expect(queue.run(of('hotel'), work('hotel2'))).rejects.toSatisfy((error) => {
      expectBusy(error);
      return true;
    });
    const known = queue.run(of('hotel', true), work('known'));
    expectBusy(await waiting[1]);
    expect(queue.waiting).toBe(3);
    await finish('busy');
    expect(started).toEqual(['busy', 'known']);
    await finish('known');
    await finish('flood1');
    await finish('hotel1');
    expect(await Promise.all([first, known, waiting[0], waiting[2]])).toEqual([
      'busy',
      'known',
      'flood1',
      'hotel1',
    ]);
    // With every place held by priority hashes, one more is refused too.
    const blocker = queue.run(of('a'), work('blocker'));
    const priorities = [1, 2, 3].map((i) => queue.run(of('a', true), work(`p${i}`)));
    await expect(queue.run(of('b', true), work('p4'))).rejects.toBeInstanceOf(AppError);
    await finish('blocker');
    for (const name of ['p1', 'p2', 'p3']) await finish(name);
    await Promise.all([blocker, ...priorities]);
  });

  it('answers a refusal after its pause, and admits what finds room within it', async () => {
    const queue = new HashingQueue({ concurrency: 1, queueLength: 0, refusalPauseMs: 200 });
    const started: string[] = [];
    const { work, finish } = controlledWork(started);
    const first = queue.run(of('a'), work('first'));
    const asked = performance.now();
    await expect(queue.run(of('a'), work('second'))).rejects.toBeInstanceOf(AppError);
    expect(performance.now() - asked).toBeGreaterThanOrEqual(190);
    expect(started).toEqual(['first']);
    // Room comes within the pause: admitted, not refused.
    const admitted = queue.admit();
    await finish('first');
    (await admitted).release();
    await first;
  });

  it('promises places at admission: counted as taken, never refused later, given back when unused', async () => {
    // One running slot and one waiting place: two places in all.
    const queue = new HashingQueue({ concurrency: 1, queueLength: 1, refusalPauseMs: 0 });
    const started: string[] = [];
    const { work, finish } = controlledWork(started);
    const one = await queue.admit();
    const two = await queue.admit();
    await expect(queue.admit()).rejects.toBeInstanceOf(AppError);
    // A hash without a place finds none left; those with one are queued.
    await expect(queue.run(of('a'), work('stranger'))).rejects.toBeInstanceOf(AppError);
    const first = queue.run({ ...of('a'), place: one }, work('first'));
    const second = queue.run({ ...of('a'), place: two }, work('second'));
    expect(started).toEqual(['first']);
    expect(queue.waiting).toBe(1);
    // A place is taken once: releasing it afterwards gives nothing back twice.
    one.release();
    expect(queue.hasRoom).toBe(false);
    await finish('first');
    await finish('second');
    expect(await Promise.all([first, second])).toEqual(['first', 'second']);
    // A place given back unused is room again.
    const unused = await queue.admit();
    const other = await queue.admit();
    await expect(queue.admit()).rejects.toBeInstanceOf(AppError);
    unused.release();
    (await queue.admit()).release();
    other.release();
    expect(queue.hasRoom).toBe(true);
  });

  it('is where every password hash of the process runs: new hashes and checks alike are refused when it is full', async () => {
    useHashingQueue({ concurrency: 1, queueLength: 0, refusalPauseMs: 0 });
    try {
      const running = hashPassword('Anchor-bay-2020');
      await expect(hashPassword('Another-one-2020')).rejects.toSatisfy((error) => {
        expectBusy(error);
        return true;
      });
      await expect(verifyPassword(await running, 'Anchor-bay-2020')).resolves.toBe(true);
      const again = hashPassword('Anchor-bay-2021');
      await expect(verifyPassword('$argon2id$v=19$m=19456,t=2,p=1$x$y', 'x')).rejects.toBeInstanceOf(
        AppError,
      );
      await expect(verifyDummyPassword('x')).rejects.toBeInstanceOf(AppError);
      await again;
    } finally {
      useHashingQueue(hashingQueueSettings());
    }
  });
});
