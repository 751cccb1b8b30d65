import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildTestApp, call, type TestApp } from '../../test/helper.ts';
import { captureLog } from '../../test/log-capture.ts';
import { answers } from './contract.ts';

const okSchema = z.object({ ok: z.boolean() });

/** Test-only routes: one on contract, and each way an answer can drift from its contract. */
function driftingRoutes(app: FastifyInstance): void {
  app.get('/api/test/on-contract', answers(okSchema), async () => ({ ok: true }));
  app.get('/api/test/wrong-type', answers(okSchema), async () => ({ ok: 'yes' }));
  app.get('/api/test/extra-field', answers(okSchema), async () => ({ ok: true, passwordHash: 'x' }));
  app.get('/api/test/missing-field', answers(okSchema), async () => ({}));
  app.get('/api/test/undeclared', async () => ({ ok: true }));
  app.get('/api/test/error-off-contract', answers(okSchema), async (_request, reply) =>
    reply.status(400).send({ error: 'bad input' }),
  );
  app.get('/api/test/unknown-code', answers(okSchema), async (_request, reply) =>
    reply.status(409).send({ code: 'test.not_in_catalogue', message: 'Nope.' }),
  );
}

const drifting = [
  '/api/test/wrong-type',
  '/api/test/extra-field',
  '/api/test/missing-field',
  '/api/test/undeclared',
  '/api/test/error-off-contract',
  '/api/test/unknown-code',
];

describe('response contract outside production', () => {
  let t: TestApp;
  const log = captureLog();
  beforeAll(async () => {
    t = await buildTestApp('sqlite', {
      env: { LOG_LEVEL: 'error' },
      logStream: log.stream,
      beforeReady: driftingRoutes,
    });
  });
  afterAll(() => t.close());

  it('passes an answer that matches its declared schema', async () => {
    const response = await call(t.app, 'GET', '/api/test/on-contract');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ok: true });
  });

  it.each(drifting)('fails %s with 500 common.internal and names the drift in the log', async (url) => {
    log.clear();
    const response = await call(t.app, 'GET', url);
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ code: 'common.internal', message: 'Something went wrong.' });
    expect(response.body).not.toContain('passwordHash');
    const [entry, ...more] = log.errors();
    expect(more).toEqual([]);
    expect(entry?.err?.message).toContain(`GET ${url}`);
  });
});

describe('response contract in production', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Production needs PostgreSQL (DATABASE_URL), which buildTestApp provides on a fresh database.
    t = await buildTestApp('postgres', { env: { NODE_ENV: 'production' }, beforeReady: driftingRoutes });
  });
  afterAll(() => t.close());

  it('does not check answers (the tests did): drifting answers go out as the route made them', async () => {
    expect(t.config.env).toBe('production');
    const wrongType = await call(t.app, 'GET', '/api/test/wrong-type');
    expect(wrongType.statusCode).toBe(200);
    expect(wrongType.json()).toEqual({ ok: 'yes' });
    const undeclared = await call(t.app, 'GET', '/api/test/undeclared');
    expect(undeclared.statusCode).toBe(200);
    expect(undeclared.json()).toEqual({ ok: true });
    const offContract = await call(t.app, 'GET', '/api/test/error-off-contract');
    expect(offContract.statusCode).toBe(400);
    expect(offContract.json()).toEqual({ error: 'bad input' });
  });
});
