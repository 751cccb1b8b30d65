import { apiErrorSchema, type ErrorCode, errorCatalogue } from '@keycard/contract';
import { z } from 'zod';
import {
  type AdminAuthentication,
  type RouteAuth,
  type RouteShape,
  type RouteTypes,
  routeErrors,
} from './route.ts';

export type JsonObject = { [key: string]: unknown };

/** What the document says about a surface beyond its routes. */
export interface OpenApiOptions<T extends RouteTypes> {
  title: string;
  description: string;
  version: string;
  /** The servers (OpenAPI's), their variables included. */
  servers: JsonObject[];
  securitySchemes: JsonObject;
  /** A route's security requirement, description and extensions, from its `auth`. */
  describeAuth(auth: RouteAuth<T>): { security: JsonObject[]; description: string; extensions?: JsonObject };
  /** The codes admin authentication adds, as registerRoutes adds them. */
  admin?: Pick<AdminAuthentication<T>, 'errors'>;
}

/** zod's own JSON Schema (draft 2020-12, which OpenAPI 3.1 takes as is), without `$schema`. */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonObject {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' });
  return rest;
}

/** `/tenants/:code` → `/tenants/{code}`. */
export function openApiPath(path: string): string {
  return path.replace(/:(\w+)/g, '{$1}');
}

function parametersOf(route: RouteShape<RouteTypes>): JsonObject[] {
  const out: JsonObject[] = [];
  const add = (schema: z.ZodObject | undefined, where: 'path' | 'query') => {
    if (!schema) return;
    const json = jsonSchemaOf(schema, 'input');
    const properties = isObject(json.properties) ? json.properties : {};
    const required = Array.isArray(json.required) ? json.required : [];
    for (const [name, property] of Object.entries(properties)) {
      out.push({ name, in: where, required: where === 'path' || required.includes(name), schema: property });
    }
  };
  add(route.params, 'path');
  add(route.query, 'query');
  return out;
}

function requestBodyOf(route: RouteShape<RouteTypes>): JsonObject | undefined {
  if (route.raw) {
    return {
      required: true,
      content: Object.fromEntries(
        route.raw.map((type) => [type, { schema: { type: 'string', contentMediaType: type } }]),
      ),
    };
  }
  if (!route.body) return undefined;
  return {
    required: true,
    content: { [route.bodyType ?? 'application/json']: { schema: jsonSchemaOf(route.body, 'input') } },
  };
}

function successesOf(route: RouteShape<RouteTypes>): JsonObject {
  const out: JsonObject = {};
  for (const [status, schema] of Object.entries(route.responses)) {
    if (schema === null) {
      out[status] = { description: status === '304' ? 'Not modified' : 'No content' };
    } else if (route.format === 'ndjson') {
      out[status] = {
        description: 'JSON lines, each one of the schema in x-keycard-line',
        content: {
          'application/x-ndjson': {
            schema: { type: 'string' },
            'x-keycard-line': jsonSchemaOf(schema, 'output'),
          },
        },
      };
    } else {
      out[status] = {
        description: 'Success',
        content: { 'application/json': { schema: jsonSchemaOf(schema, 'output') } },
      };
    }
  }
  return out;
}

/** The failures by status, each with the codes it carries (`{ code, message, fields? }`). */
function failuresOf(codes: readonly ErrorCode[]): JsonObject {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const { status } = errorCatalogue[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: JsonObject = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    const sorted = [...list].sort();
    out[String(status)] = {
      description: sorted.join(', '),
      ...(status === 429 || status === 503
        ? { headers: { 'Retry-After': { schema: { type: 'integer', minimum: 1 } } } }
        : {}),
      content: {
        'application/json': {
          schema: {
            allOf: [{ $ref: '#/components/schemas/Error' }, { properties: { code: { enum: sorted } } }],
          },
        },
      },
      'x-keycard-error-codes': sorted,
    };
  }
  return out;
}

/**
 * An OpenAPI 3.1 document made from route declarations: every route with its method, path
 * parameters, query, request body, each success status with its schema and each error status
 * with the codes the route can answer (its own and what the kernel adds).
 */
export function openApiDocument<T extends RouteTypes>(
  routes: readonly RouteShape<T>[],
  options: OpenApiOptions<T>,
): JsonObject {
  const paths: { [path: string]: JsonObject } = {};
  for (const route of routes) {
    const path = openApiPath(route.path);
    const auth = options.describeAuth(route.auth);
    const requestBody = requestBodyOf(route);
    const operations = paths[path] ?? {};
    operations[route.method.toLowerCase()] = {
      summary: route.summary,
      description: auth.description,
      security: auth.security,
      ...auth.extensions,
      parameters: parametersOf(route),
      ...(requestBody ? { requestBody } : {}),
      responses: { ...successesOf(route), ...failuresOf(routeErrors(route, options.admin)) },
    };
    paths[path] = operations;
  }
  return {
    openapi: '3.1.0',
    info: { title: options.title, version: options.version, description: options.description },
    servers: options.servers,
    paths,
    components: {
      schemas: { Error: jsonSchemaOf(apiErrorSchema, 'output') },
      securitySchemes: options.securitySchemes,
    },
  };
}

function isObject(value: unknown): value is { [key: string]: unknown } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
