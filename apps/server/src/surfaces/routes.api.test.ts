import { errorCatalogue, mobileGraphqlPath } from '@keycard/contract';
import { adminOperations, adminRoutePattern } from '@keycard/contract/admin-paths';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiPath } from '../platform/http/openapi.ts';
import {
  pathParameters,
  type RouteDefinition,
  type RouteTypes,
  routeErrors,
  successStatus,
} from '../platform/http/route.ts';
import { buildTestApp, call, demo, type TestApp } from '../test/helper.ts';
import { adminApiDefinitions, adminRoutes } from './admin/admin.routes.ts';
import { adminCall } from './admin/admin.test-support.ts';
import { adminAuthentication } from './admin/admin-route.ts';
import { apiOpenApiPath, apiRoutes } from './api/api.routes.ts';

interface Operation {
  parameters: Array<{ name: string; in: string; required: boolean; schema: unknown }>;
  requestBody?: { content: Record<string, { schema?: unknown }> };
  responses: Record<
    string,
    { content?: Record<string, { schema?: unknown }>; 'x-keycard-error-codes'?: string[] }
  >;
  security: unknown[];
}
interface Document {
  openapi: string;
  info: { title: string; version: string };
  servers: Array<{ url: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
}

/** The method and full path of every route Fastify holds, from its route tree. */
function registeredRoutes(app: FastifyInstance): Array<{ method: string; path: string }> {
  const out: Array<{ method: string; path: string }> = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^((?:│ {3}| {4})*)(?:├── |└── )(.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    stack.length = (match[1] ?? '').length / 4;
    stack.push(match[2] ?? '');
    for (const method of match[3]?.split(', ') ?? []) out.push({ method, path: stack.join('') });
  }
  return out;
}

/** Checks a document against the declarations it was made from. */
function expectDocumentOf<T extends RouteTypes>(
  document: Document,
  routes: readonly RouteDefinition<T>[],
  admin?: Parameters<typeof routeErrors<T>>[1],
): void {
  expect(document.openapi).toBe('3.1.0');
  expect(document.info.title).toBeTruthy();
  expect(document.servers.length).toBeGreaterThan(0);
  expect(Object.keys(document.components.schemas)).toContain('Error');
  for (const route of routes) {
    const label = `${route.method} ${route.path}`;
    const operation = document.paths[openApiPath(route.path)]?.[route.method.toLowerCase()];
    expect(operation, label).toBeDefined();
    if (!operation) continue;
    // Every :name of the path is a required path parameter, and nothing else is.
    const inPath = operation.parameters.filter((each) => each.in === 'path');
    expect(inPath.map((each) => each.name).sort(), label).toEqual(pathParameters(route.path).sort());
    for (const each of inPath) expect(each.required, label).toBe(true);
    for (const each of operation.parameters)
      expect(each.schema, `${label} ${each.name}`).toBeTypeOf('object');
    const queryNames = Object.keys(route.query?.shape ?? {}).sort();
    expect(
      operation.parameters
        .filter((each) => each.in === 'query')
        .map((each) => each.name)
        .sort(),
      label,
    ).toEqual(queryNames);
    // A request body exactly when the route takes one, with a schema per media type.
    expect(operation.requestBody !== undefined, label).toBe(
      route.body !== undefined || route.raw !== undefined,
    );
    for (const media of Object.values(operation.requestBody?.content ?? {})) {
      expect(media.schema, label).toBeTypeOf('object');
    }
    // Each declared success status, with its schema unless it answers no body.
    for (const [status, schema] of Object.entries(route.responses)) {
      const answer = operation.responses[status];
      expect(answer, `${label} ${status}`).toBeDefined();
      const media = Object.values(answer?.content ?? {});
      if (schema === null) expect(media, `${label} ${status}`).toEqual([]);
      else expect(media[0]?.schema, `${label} ${status}`).toBeTypeOf('object');
    }
    expect(operation.responses[String(successStatus(route))], label).toBeDefined();
    // Every code the route can answer, under its status.
    for (const code of routeErrors(route, admin)) {
      const listed = operation.responses[String(errorCatalogue[code].status)]?.['x-keycard-error-codes'];
      expect(listed, `${label} ${code}`).toContain(code);
    }
  }
  // Every reference points at a schema the document holds.
  for (const [, name] of JSON.stringify(document).matchAll(/"\$ref":"#\/components\/schemas\/(\w+)"/g)) {
    expect(document.components.schemas, name).toHaveProperty(name ?? '');
  }
}

describe('route declarations', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp('sqlite');
  });
  afterAll(() => t.close());

  it('serve the portal API as OpenAPI 3.1 at /api/openapi.json, every route with its parameters, body, answers and codes', async () => {
    const answer = await call(t.app, 'GET', apiOpenApiPath, { host: demo.grandHotel.host });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.headers['cache-control']).toBe('no-store');
    expectDocumentOf(answer.json(), apiRoutes);
  });

  it('serve the admin API as OpenAPI 3.1 at /admin/api/openapi.json, every operation with who may call it', async () => {
    const answer = await adminCall(t.app, 'GET', '/admin/api/openapi.json');
    expect(answer.statusCode, answer.body).toBe(200);
    const document: Document = answer.json();
    expectDocumentOf(document, adminApiDefinitions, adminAuthentication(t.services));
    expect(document.paths['/admin/api/v1/tenants/{code}']?.get?.security).toEqual([
      { clientCredentials: [] },
    ]);
  });

  it("make each of the contract's admin operations a route, in the contract's order", () => {
    expect(adminRoutes.map((route) => `${route.method} ${route.path}`)).toEqual(
      Object.values(adminOperations).map(
        (operation) => `${operation.method} ${adminRoutePattern(operation)}`,
      ),
    );
  });

  it('leave no route under /api or /admin/api registered by hand, and every declaration registered', () => {
    const declared = new Set(
      [...apiRoutes, ...adminApiDefinitions].map((route) => `${route.method} ${route.path}`),
    );
    const registered = registeredRoutes(t.app).filter(
      ({ path }) => path.startsWith('/api/') || path.startsWith('/admin/api/'),
    );
    expect(registered.length).toBeGreaterThan(40);
    const byHand = registered.filter(
      ({ method, path }) =>
        // HEAD answers of GET routes are Fastify's own; GraphQL's contract is its schema.
        method !== 'HEAD' && path !== mobileGraphqlPath && !declared.has(`${method} ${path}`),
    );
    expect(byHand).toEqual([]);
    for (const route of [...apiRoutes, ...adminApiDefinitions]) {
      // Twilio's callback exists only with Twilio configured.
      if (route.path.includes('call-status')) continue;
      expect(t.app.hasRoute({ method: route.method, url: route.path }), `${route.method} ${route.path}`).toBe(
        true,
      );
    }
  });
});
