import {
  type AdminPermission,
  adminErrors,
  type ErrorCode,
  errorCodes,
  operatorTenantCode,
  rolePermissions,
} from '@keycard/contract';
import { type AdminImageSlot, type AdminOperation, adminRoutePattern } from '@keycard/contract/admin-paths';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { AdminDeps } from '../../features/admin/index.ts';
import { imageContentTypes, imageSlots } from '../../features/assets/index.ts';
import { publicOrigin } from '../../platform/config.ts';
import type { OpenApiOptions } from '../../platform/http/openapi.ts';
import {
  type AdminAuthentication,
  type AnyRouteArgs,
  type HandlerResult,
  type RouteArgs,
  type RouteDefinition,
  type RouteSurface,
  routeKit,
} from '../../platform/http/route.ts';
import { AppError } from '../../platform/shared/errors.ts';
import type { Services } from '../context.ts';
import { type AdminCaller, assertAllowed, authenticateCaller } from './admin-auth.ts';
import { adminLimits } from './admin-limits.ts';

/** Who may call an admin route. */
export interface AdminAccess {
  /** Null: any operator with a valid token (what the token itself may see). */
  readonly permission: AdminPermission | null;
  /**
   * Owners only: claims with effects beyond the tenant (a domain, with no proof of ownership
   * yet, could be another customer's).
   */
  readonly ownerOnly?: true;
  /**
   * Refused on the operator tenant, even to owners: its operators change through /operators
   * (which keeps an owner), the rest of it through `keycard apply`. A client, partner, setting
   * or account slipped into it through these routes could sign someone in as an operator.
   */
  readonly operatorTenantManaged?: true;
}

/** The caller of an admin route: the operator, its audit actor, and the services as it acts. */
export interface AdminCall extends AdminCaller {
  deps: AdminDeps;
}

export interface AdminTypes {
  deps: Services;
  tenant: never;
  session: never;
  admin: AdminCall;
  scope: AdminAccess;
}

export const { defineRoute: defineAdminRoute } = routeKit<AdminTypes>();

/** The media types of an image slot's upload. */
function uploadTypesOf(slot: AdminImageSlot): string[] {
  return imageSlots[slot].types.map((type) => imageContentTypes[type]);
}

/** What a route made from an admin operation is typed by: the operation's own schemas. */
type OperationParts<O extends AdminOperation> = {
  auth: { readonly admin: AdminAccess };
  tenant: 'none';
  params: O extends { readonly params: infer P extends z.ZodObject } ? P : undefined;
  query: O extends { readonly query: infer Q extends z.ZodObject } ? Q : undefined;
  body: O extends { readonly body: infer B extends z.ZodType } ? B : undefined;
  raw: O extends { readonly upload: AdminImageSlot } ? readonly string[] : undefined;
  responses: O['responses'];
  format: O extends { readonly format: 'ndjson' } ? 'ndjson' : 'json';
};

/**
 * An admin route from its operation in the contract (`adminOperations`, which the console
 * calls too): method, path, summary, parameters, body and answers come from there; the
 * server adds who may call it, the codes it can answer and what it does.
 */
export function adminRoute<O extends AdminOperation>(
  operation: O,
  route: {
    access: AdminAccess;
    errors: readonly ErrorCode[];
    handler: (args: RouteArgs<AdminTypes, OperationParts<O>>) => Promise<HandlerResult<OperationParts<O>>>;
  },
): RouteDefinition<AdminTypes>;
// The declaration above types the handler by the operation; the kernel holds it as any route.
export function adminRoute(
  operation: AdminOperation,
  route: {
    access: AdminAccess;
    errors: readonly ErrorCode[];
    handler(args: AnyRouteArgs<AdminTypes>): Promise<unknown>;
  },
): RouteDefinition<AdminTypes> {
  return {
    method: operation.method,
    path: adminRoutePattern(operation),
    summary: operation.summary,
    auth: { admin: route.access },
    origin: 'any',
    tenant: 'none',
    params: operation.params,
    query: operation.query,
    body: operation.body,
    raw: operation.upload ? uploadTypesOf(operation.upload) : undefined,
    responses: operation.responses,
    format: operation.format ?? 'json',
    errors: route.errors,
    handler: route.handler,
  };
}

/** The tenant code a route's path names, if any. */
function tenantCodeOf(params: unknown): string | undefined {
  if (typeof params !== 'object' || params === null || !('code' in params)) return undefined;
  return typeof params.code === 'string' ? params.code : undefined;
}

/**
 * The admin API's authentication: the bearer token, checked as the request arrives (before
 * its body is read or parsed: without one, a request learns nothing from how its body is
 * judged and costs no parsing, a 401, never a 400 or 413). Limits first (per address, and
 * failed tokens per address, before the lookup), then per operator once the token says who it
 * is (admin-limits.ts).
 */
export function adminAuthentication(services: Services): AdminAuthentication<AdminTypes> {
  const { config } = services;
  const limits = adminLimits(services.limiter, config);
  return {
    async authenticate(request: FastifyRequest, reply: FastifyReply): Promise<AdminCall> {
      const now = services.clock.now();
      try {
        const charge = await limits.beforeAuthentication(request.ip, now);
        const caller = await authenticateCaller(services, request.headers.authorization).catch((error) => {
          // A full failed-token allowance refuses only tokens that fail: what others sent from
          // the same address (a shared NAT, or a forged one) never shuts out a valid token.
          if (!charge.charged && error instanceof AppError && error.code === adminErrors.unauthenticated) {
            throw charge.refusal;
          }
          reply.header('www-authenticate', 'Bearer realm="keycard-admin"');
          throw error;
        });
        if (charge.charged) await limits.authenticated(request.ip, now);
        await limits.forOperator(caller.operator.id, now);
        return {
          ...caller,
          deps: {
            db: services.db,
            engine: services.database.engine,
            encryptionKey: services.secrets.encryptionKey,
            config,
            tenants: services.tenants,
            limiter: services.limiter,
            actor: caller.actor,
            now: services.clock.now(),
          },
        };
      } catch (error) {
        if (error instanceof AppError && error.code === adminErrors.rateLimited) {
          const wait = error.fields?.retryAfterSeconds;
          if (wait) reply.header('retry-after', wait);
        }
        throw error;
      }
    },
    authorize(caller, access, params) {
      const code = tenantCodeOf(params);
      if (access.permission) assertAllowed(caller.operator, access.permission, code);
      if (access.ownerOnly && caller.operator.role !== 'owner') throw new AppError(adminErrors.forbidden);
      if (access.operatorTenantManaged && code === operatorTenantCode) {
        throw new AppError(adminErrors.operatorTenantManaged);
      }
    },
    errors: (access) => [
      // Any other host: every /admin address is nothing there.
      errorCodes.notFound,
      adminErrors.unauthenticated,
      adminErrors.rateLimited,
      ...(access.permission || access.ownerOnly ? [adminErrors.forbidden] : []),
      ...(access.operatorTenantManaged ? [adminErrors.operatorTenantManaged] : []),
    ],
  };
}

export function adminSurface(services: Services): RouteSurface<AdminTypes> {
  return { config: services.config, deps: services, admin: adminAuthentication(services) };
}

function rolesWith(permission: AdminPermission): string[] {
  return Object.entries(rolePermissions)
    .filter(([, permissions]) => permissions.includes(permission))
    .map(([role]) => role);
}

/** What /admin/api/openapi.json says beside its routes. */
export function adminOpenApiOptions(services: Services): OpenApiOptions<AdminTypes> {
  const { config } = services;
  const origin = publicOrigin(config, config.adminDomain);
  return {
    title: 'Keycard admin API',
    description: 'Served on the operator host only. See docs/admin-api.md.',
    version: '1',
    servers: [{ url: origin }],
    securitySchemes: {
      clientCredentials: {
        type: 'oauth2',
        description: 'A bearer access token of the operator tenant for the admin API resource.',
        flows: { clientCredentials: { tokenUrl: `${origin}/oidc/token`, scopes: {} } },
      },
    },
    describeAuth: (auth) => {
      if (typeof auth !== 'object') return { security: [], description: 'No token needed.' };
      const { permission, ownerOnly } = auth.admin;
      const who = permission
        ? `Permission ${permission}: roles ${(ownerOnly ? ['owner'] : rolesWith(permission)).join(', ')}.`
        : 'Any operator with a valid token: every role.';
      return {
        security: [{ clientCredentials: [] }],
        description: who,
        extensions: permission ? { 'x-keycard-permission': permission } : {},
      };
    },
    admin: { errors: adminAuthentication(services).errors },
  };
}
