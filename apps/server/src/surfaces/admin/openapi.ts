import { type AdminPermission, adminApi, apiErrorSchema, rolePermissions } from '@keycard/contract';
import { z } from 'zod';
import { type Config, publicOrigin } from '../../platform/config.ts';
import type { AdminRoute } from './admin.routes.ts';

type JsonSchema = Record<string, unknown>;

function schemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

function rolesWith(permission: AdminPermission): string[] {
  return Object.entries(rolePermissions)
    .filter(([, permissions]) => permissions.includes(permission))
    .map(([role]) => role);
}

/** Path and query parameters of a route, from its zod object schemas. */
function parametersOf(route: AdminRoute): JsonSchema[] {
  const out: JsonSchema[] = [];
  const add = (schema: z.ZodType | undefined, where: 'path' | 'query') => {
    if (!schema) return;
    const json = schemaOf(schema, 'input') as {
      properties?: Record<string, JsonSchema>;
      required?: string[];
    };
    for (const [name, property] of Object.entries(json.properties ?? {})) {
      out.push({
        name,
        in: where,
        required: where === 'path' || (json.required ?? []).includes(name),
        schema: property,
      });
    }
  };
  add(route.params, 'path');
  add(route.query, 'query');
  return out;
}

/**
 * The admin API as an OpenAPI 3.1 document, generated from the route table and the
 * contract's zod schemas (zod's own JSON Schema output, draft 2020-12, which OpenAPI 3.1
 * uses as is). Served at /admin/api/openapi.json.
 */
export function adminOpenApiDocument(routes: AdminRoute[], config: Config): JsonSchema {
  const origin = publicOrigin(config, config.adminDomain);
  const paths: Record<string, Record<string, unknown>> = {};
  const error = { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
  for (const route of routes) {
    const path = `${adminApi.base}${route.path}`.replace(/:(\w+)/g, '{$1}');
    const status = String(route.status ?? 200);
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = {
      summary: route.summary,
      description: route.permission
        ? `Permission ${route.permission}: roles ${rolesWith(route.permission).join(', ')}.`
        : 'Any operator with a valid token: every role.',
      ...(route.permission ? { 'x-keycard-permission': route.permission } : {}),
      parameters: parametersOf(route),
      ...(route.upload
        ? {
            requestBody: {
              required: true,
              content: Object.fromEntries(
                ['image/png', 'image/webp', 'image/x-icon', 'image/svg+xml'].map((type) => [
                  type,
                  { schema: { type: 'string', contentMediaType: type } },
                ]),
              ),
            },
          }
        : {}),
      ...(route.body
        ? {
            requestBody: {
              required: true,
              content: { 'application/json': { schema: schemaOf(route.body, 'input') } },
            },
          }
        : {}),
      responses: {
        [status]: {
          description: 'Success',
          content: route.response
            ? { 'application/json': { schema: schemaOf(route.response, 'output') } }
            : { 'application/x-ndjson': { schema: { type: 'string' } } },
        },
        '400': { description: 'Invalid input (common.validation_failed)', ...error },
        '401': { description: 'No valid bearer token (admin.unauthenticated)', ...error },
        '403': { description: 'The role or tenant scope does not allow this (admin.forbidden)', ...error },
        '404': { description: 'Not found', ...error },
        '409': { description: 'Conflict', ...error },
        '429': {
          description: 'Over a request limit (admin.rate_limited); Retry-After says when to try again',
          headers: { 'Retry-After': { schema: { type: 'integer', minimum: 1 } } },
          ...error,
        },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Keycard admin API',
      version: '1',
      description: 'Served on the operator host only. See docs/admin-api.md.',
    },
    servers: [{ url: origin }],
    security: [{ clientCredentials: [] }],
    paths,
    components: {
      schemas: { Error: schemaOf(apiErrorSchema, 'output') },
      securitySchemes: {
        clientCredentials: {
          type: 'oauth2',
          description: 'A bearer access token of the operator tenant for the admin API resource.',
          flows: { clientCredentials: { tokenUrl: `${origin}/oidc/token`, scopes: {} } },
        },
      },
    },
  };
}
