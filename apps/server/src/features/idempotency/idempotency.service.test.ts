import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../platform/shared/errors.ts';
import { buildTestApp, engines, type TestApp } from '../../test/helper.ts';
import { type IdempotencyScope, runOnce } from './idempotency.service.ts';

describe.each(engines)('runOnce on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(engine);
  });
  afterAll(() => t.close());

  const scope = (): IdempotencyScope => ({
    tenantCode: 'grand-hotel',
    route: 'POST /test',
    subject: 'someone@grand-hotel.test',
    key: randomUUID(),
  });
  const options = { waitMs: 300, pollMs: 10, staleMs: 60_000 };
  const codeOf = (error: unknown) => (error instanceof AppError ? error.code : String(error));

  it('answers 409 in_progress to a duplicate that waited longer than allowed, and the first still completes', async () => {
    const s = scope();
    let release: () => void = () => undefined;
    const slow = new Promise<void>((resolve) => {
      release = resolve;
    });
    let runs = 0;
    const first = runOnce(
      t.services.db,
      t.clock,
      s,
      'fp',
      async () => {
        runs += 1;
        await slow;
        return { status: 200, body: { sent: true } };
      },
      options,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    const duplicate = await runOnce(
      t.services.db,
      t.clock,
      s,
      'fp',
      async () => {
        runs += 1;
        return { status: 200, body: { sent: 'twice' } };
      },
      options,
    ).catch(codeOf);
    expect(duplicate).toBe('idempotency.in_progress');
    release();
    expect(await first).toEqual({ status: 200, body: { sent: true }, replayed: false });
    expect(runs).toBe(1);
  });

  it('lets one retry take over a claim whose request never finished (a crashed process), after 60 s', async () => {
    const s = scope();
    // A claim left behind: its run never returns.
    void runOnce(t.services.db, t.clock, s, 'fp', () => new Promise(() => undefined), options);
    await new Promise((resolve) => setTimeout(resolve, 50));
    t.clock.advance(61_000);
    let runs = 0;
    const retries = await Promise.all(
      Array.from({ length: 5 }, () =>
        runOnce(
          t.services.db,
          t.clock,
          s,
          'fp',
          async () => {
            runs += 1;
            await new Promise((resolve) => setTimeout(resolve, 30));
            return { status: 200, body: { n: runs } };
          },
          { ...options, waitMs: 2_000 },
        ),
      ),
    );
    expect(runs).toBe(1);
    expect(retries.map((r) => r.body)).toEqual(Array(5).fill({ n: 1 }));
    expect(retries.filter((r) => !r.replayed)).toHaveLength(1);
  });
});
