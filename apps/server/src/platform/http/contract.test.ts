import { errorCodes } from '@keycard/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildTestApp, call, type TestApp } from '../../test/helper.ts';
import { captureLog } from '../../test/log-capture.ts';
import { loadConfig } from '../config.ts';
import { AppError } from '../shared/errors.ts';
import { type RouteDefinition, registerRoutes, routeKit } from './route.ts';

const okSchema = z.object({ ok: z.boolean() });

interface TestTypes {
  deps: undefined;
  tenant: never;
  session: never;
  admin: never;
  scope: never;
}
const { defineRoute } = routeKit<TestTypes>();

/** A declared test route whose handler answers whatever JSON it is given (typed or not). */
function answering(path: string, json: string, status?: number): RouteDefinition<TestTypes> {
  return defineRoute({
    method: 'GET',
    path,
    summary: 'test',
    auth: 'none',
    origin: 'any',
    tenant: 'none',
    responses: { 200: okSchema },
    errors: [errorCodes.redirectNotAllowed],
    handler: async ({ reply }) => {
      if (status) reply.status(status);
      return JSON.parse(json);
    },
  });
}

/** Test-only routes: one on contract, and each way an answer can drift from its declaration. */
function driftingRoutes(app: FastifyInstance): void {
  registerRoutes(
    app,
    [
      answering('/api/test/on-contract', '{"ok":true}'),
      answering('/api/test/wrong-type', '{"ok":"yes"}'),
      answering('/api/test/extra-field', '{"ok":true,"passwordHash":"x"}'),
      answering('/api/test/missing-field', '{}'),
      answering('/api/test/undeclared-status', '{"ok":true}', 201),
      answering('/api/test/error-off-contract', '{"error":"bad input"}', 400),
      answering('/api/test/unknown-code', '{"code":"test.not_in_catalogue","message":"Nope."}', 409),
      defineRoute({
        method: 'GET',
        path: '/api/test/declared-code',
        summary: 'test',
        auth: 'none',
        origin: 'any',
        tenant: 'none',
        responses: { 200: okSchema },
        errors: [errorCodes.redirectNotAllowed],
        handler: async () => {
          throw new AppError(errorCodes.redirectNotAllowed);
        },
      }),
      defineRoute({
        method: 'GET',
        path: '/api/test/undeclared-code',
        summary: 'test',
        auth: 'none',
        origin: 'any',
        tenant: 'none',
        responses: { 200: okSchema },
        errors: [],
        handler: async () => {
          throw new AppError(errorCodes.redirectNotAllowed);
        },
      }),
    ],
    { config: loadConfig({}), deps: undefined },
  );
  app.get('/api/test/undeclared', async () => ({ ok: true }));
}

const drifting = [
  '/api/test/wrong-type',
  '/api/test/extra-field',
  '/api/test/missing-field',
  '/api/test/undeclared',
  '/api/test/undeclared-status',
  '/api/test/error-off-contract',
  '/api/test/unknown-code',
  '/api/test/undeclared-code',
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

  it('passes a failure with a code the route declares', async () => {
    const response = await call(t.app, 'GET', '/api/test/declared-code');
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe(errorCodes.redirectNotAllowed);
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
    const undeclaredCode = await call(t.app, 'GET', '/api/test/undeclared-code');
    expect(undeclaredCode.statusCode).toBe(400);
    expect(undeclaredCode.json().code).toBe(errorCodes.redirectNotAllowed);
  });
});
