import { errorCodes } from '@keycard/contract';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadConfig } from '../config.ts';
import { AppError } from '../shared/errors.ts';
import { installResponseContract } from './contract.ts';
import { installErrorHandling } from './errors.ts';
import { type RouteDefinition, type RouteSurface, registerRoutes, routeKit } from './route.ts';

/** A surface of its own, without any feature: tenants and sessions by header, admins by token. */
interface KernelTypes {
  deps: { calls: string[] };
  tenant: { code: string };
  session: { user: string };
  admin: { name: string };
  scope: 'read' | 'write';
}
const { defineRoute } = routeKit<KernelTypes>();
const config = loadConfig({ PUBLIC_SCHEME: 'http', PORT: '3000' });
const origin = 'http://a.localhost:3000';
const deps = { calls: [] as string[] };

const surface: RouteSurface<KernelTypes> = {
  config,
  deps,
  tenantOf: (request) => (request.headers['x-tenant'] ? { code: String(request.headers['x-tenant']) } : null),
  sessionOf: async (request) =>
    request.headers['x-user'] ? { user: String(request.headers['x-user']) } : null,
  admin: {
    authenticate: async (request) => {
      deps.calls.push('authenticate');
      if (request.headers.authorization !== 'Bearer ok') throw new AppError(errorCodes.sessionRequired);
      return { name: 'ops' };
    },
    authorize: (_caller, scope, params) => {
      deps.calls.push(`authorize ${scope} ${JSON.stringify(params)}`);
      if (scope === 'write') throw new AppError(errorCodes.forbiddenOrigin);
    },
    errors: () => [errorCodes.sessionRequired, errorCodes.forbiddenOrigin],
  },
};

const echo = z.object({ tenant: z.string(), user: z.string(), id: z.string(), n: z.number() });

const routes: RouteDefinition<KernelTypes>[] = [
  defineRoute({
    method: 'POST',
    path: '/api/things/:id',
    summary: 'echo',
    auth: 'session',
    origin: 'same-origin',
    tenant: 'required',
    params: z.object({ id: z.string().max(3) }),
    body: z.object({ n: z.number() }),
    responses: { 200: echo },
    errors: [],
    handler: async ({ tenant, session, params, body }) => ({
      tenant: tenant.code,
      user: session.user,
      id: params.id,
      n: body.n,
    }),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/maybe',
    summary: 'optional session, 304',
    auth: 'optional-session',
    origin: 'any',
    tenant: 'none',
    query: z.object({ fresh: z.enum(['yes', 'no']) }),
    responses: { 200: z.object({ user: z.string().nullable() }), 304: null },
    errors: [],
    handler: async ({ session, query, answer }) =>
      query.fresh === 'yes' ? answer(304, undefined) : { user: session?.user ?? null },
  }),
  defineRoute({
    method: 'POST',
    path: '/admin/api/items/:code',
    summary: 'admin',
    auth: { admin: 'read' },
    origin: 'any',
    tenant: 'none',
    params: z.object({ code: z.string() }),
    body: z.object({ n: z.number() }),
    responses: { 201: z.object({ by: z.string(), n: z.number() }) },
    errors: [],
    beforeInput: async ({ caller }) => {
      deps.calls.push(`before input ${caller.name}`);
    },
    handler: async ({ caller, body }) => ({ by: caller.name, n: body.n }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/admin/api/items/:code',
    summary: 'admin write',
    auth: { admin: 'write' },
    origin: 'any',
    tenant: 'none',
    params: z.object({ code: z.string() }),
    responses: { 204: null },
    errors: [],
    handler: async () => undefined,
  }),
  defineRoute({
    method: 'GET',
    path: '/api/lines',
    summary: 'ndjson',
    auth: 'none',
    origin: 'any',
    tenant: 'none',
    responses: { 200: z.object({ i: z.number() }) },
    format: 'ndjson',
    errors: [],
    handler: async () =>
      (async function* () {
        yield '{"i":1}\n';
        yield '{"i":2}\n';
      })(),
  }),
];

describe('route kernel', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = Fastify();
    installErrorHandling(app, { enforceContract: true });
    installResponseContract(app, { enforce: true });
    registerRoutes(app, routes, surface);
    await app.ready();
  });
  afterAll(() => app.close());

  const post = (url: string, headers: Record<string, string>, payload?: string | object) =>
    app.inject({ method: 'POST', url, headers: { host: 'a.localhost:3000', ...headers }, payload });

  it('runs a route with its tenant, session, parameters and body, typed from its declaration', async () => {
    const answer = await post('/api/things/abc', { origin, 'x-tenant': 't1', 'x-user': 'u1' }, { n: 2 });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({ tenant: 't1', user: 'u1', id: 'abc', n: 2 });
  });

  it('checks the origin first, then the tenant, then the session, then the input', async () => {
    const bad = { n: 'x' };
    const codeOf = async (headers: Record<string, string>, url = '/api/things/abc') =>
      (await post(url, headers, bad)).json().code;
    expect(await codeOf({ origin: 'https://evil.example' })).toBe(errorCodes.forbiddenOrigin);
    expect(await codeOf({ origin })).toBe(errorCodes.unknownDomain);
    expect(await codeOf({ origin, 'x-tenant': 't1' })).toBe(errorCodes.sessionRequired);
    const invalid = await post('/api/things/abcd', { origin, 'x-tenant': 't1', 'x-user': 'u1' }, bad);
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().fields).toEqual({ id: expect.any(String) });
    const badBody = await post('/api/things/abc', { origin, 'x-tenant': 't1', 'x-user': 'u1' }, bad);
    expect(badBody.json().fields).toEqual({ n: expect.any(String) });
  });

  it('gives an optional session or null, and answers another declared status through answer()', async () => {
    const withSession = await app.inject({ url: '/api/maybe?fresh=no', headers: { 'x-user': 'u2' } });
    expect(withSession.json()).toEqual({ user: 'u2' });
    expect((await app.inject({ url: '/api/maybe?fresh=no' })).json()).toEqual({ user: null });
    const notModified = await app.inject({ url: '/api/maybe?fresh=yes' });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.body).toBe('');
  });

  it('authenticates an admin before the body is read, authorizes with the parameters, then runs beforeInput', async () => {
    deps.calls.length = 0;
    const unauthenticated = await post(
      '/admin/api/items/x',
      { 'content-type': 'application/json' },
      '{not json',
    );
    expect(unauthenticated.statusCode).toBe(401);
    expect(deps.calls).toEqual(['authenticate']);
    deps.calls.length = 0;
    const created = await post('/admin/api/items/x', { authorization: 'Bearer ok' }, { n: 5 });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toEqual({ by: 'ops', n: 5 });
    expect(deps.calls).toEqual(['authenticate', 'authorize read {"code":"x"}', 'before input ops']);
    const refused = await app.inject({
      method: 'DELETE',
      url: '/admin/api/items/x',
      headers: { authorization: 'Bearer ok' },
    });
    expect(refused.json().code).toBe(errorCodes.forbiddenOrigin);
  });

  it('streams JSON lines', async () => {
    const answer = await app.inject({ url: '/api/lines' });
    expect(answer.headers['content-type']).toContain('application/x-ndjson');
    expect(answer.body).toBe('{"i":1}\n{"i":2}\n');
  });

  it('refuses a declaration whose params are not its path parameters', () => {
    const wrong = defineRoute({
      method: 'GET',
      path: '/api/wrong/:id',
      summary: 'wrong',
      auth: 'none',
      origin: 'any',
      tenant: 'none',
      params: z.object({ code: z.string() }),
      responses: { 200: z.object({}) },
      errors: [],
      handler: async () => ({}),
    });
    expect(() => registerRoutes(Fastify(), [wrong], surface)).toThrow(
      /params \(code\) are not the path's \(id\)/,
    );
  });
});
