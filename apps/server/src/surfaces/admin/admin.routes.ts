import { adminApi, errorCodes } from '@keycard/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { imageSlots, uploadContentTypes } from '../../features/assets/index.ts';
import { repairOperatorTenant } from '../../features/operators/index.ts';
import { systemActor } from '../../platform/audit/audit.service.ts';
import type { Config } from '../../platform/config.ts';
import { errorAnswer } from '../../platform/http/errors.ts';
import { hostnameOf } from '../../platform/http/host.ts';
import { type JsonObject, openApiDocument } from '../../platform/http/openapi.ts';
import { type RouteDefinition, registerRoutes } from '../../platform/http/route.ts';
import { AppError } from '../../platform/shared/errors.ts';
import type { Services } from '../context.ts';
import { type AdminTypes, adminOpenApiOptions, adminSurface, defineAdminRoute } from './admin-route.ts';
import { auditRoutes } from './audit.routes.ts';
import { clientRoutes } from './clients.routes.ts';
import { keyRoutes } from './keys.routes.ts';
import { meRoute, operatorRoutes } from './operators.routes.ts';
import { partnerRoutes } from './partners.routes.ts';
import { deleteTenantRoute, tenantRoutes } from './tenants.routes.ts';
import { userRoutes } from './users.routes.ts';

/**
 * Every operation of the admin API (`adminOperations` in the contract), each with who may call
 * it, in the contract's order: the role matrix test calls them in this order, on one tenant
 * per role, so the tenant's removal comes last. The routes, the OpenAPI document and the role
 * tests are all made from this one table.
 */
export const adminRoutes: RouteDefinition<AdminTypes>[] = [
  meRoute,
  ...tenantRoutes,
  ...clientRoutes,
  ...partnerRoutes,
  ...keyRoutes,
  ...userRoutes,
  ...auditRoutes,
  ...operatorRoutes,
  deleteTenantRoute,
];

const documents = new WeakMap<Config, JsonObject>();

const openApiRoute = defineAdminRoute({
  method: 'GET',
  path: adminApi.openApi,
  summary: 'This document: the admin API as OpenAPI 3.1, generated from the route declarations',
  auth: 'none',
  origin: 'any',
  tenant: 'none',
  responses: { 200: z.record(z.string(), z.unknown()) },
  errors: [errorCodes.notFound],
  handler: async ({ deps }) => {
    const known = documents.get(deps.config);
    if (known) return known;
    const document = openApiDocument(adminApiDefinitions, adminOpenApiOptions(deps));
    documents.set(deps.config, document);
    return document;
  },
});

/** Every route under /admin/api: the operations and their document. */
export const adminApiDefinitions: RouteDefinition<AdminTypes>[] = [...adminRoutes, openApiRoute];

/**
 * The admin API on the operator host only (ADMIN_DOMAIN): elsewhere every /admin path is a
 * 404, as if it did not exist. Bearer tokens only; the body limit is the server's (64 KiB).
 */
export async function adminApiRoutes(app: FastifyInstance, services: Services): Promise<void> {
  const { config } = services;
  const onAdminHost = (request: FastifyRequest) => hostnameOf(request.host) === config.adminDomain;

  app.addHook('onRequest', async (request, reply) => {
    if (!onAdminHost(request)) {
      const { status, body } = errorAnswer(new AppError(errorCodes.notFound));
      return reply.status(status).send(body);
    }
    reply.header('cache-control', 'no-store');
  });

  // Theme images arrive as their own bytes; the slot's limit is checked after (256 KiB at most).
  app.addContentTypeParser(
    Object.keys(uploadContentTypes),
    { parseAs: 'buffer', bodyLimit: imageSlots.logo.maxBytes },
    (_request, body, done) => done(null, body),
  );

  // Nothing is created at start: a server without operators says how to make the first one.
  // An operator tenant made by an earlier version gets the console's addresses.
  app.addHook('onReady', async () => {
    await repairOperatorTenant({ db: services.db, config, actor: systemActor }, services.clock.now());
    const operators = await services.db.selectFrom('operators').select('id').limit(1).execute();
    if (operators.length === 0) {
      app.log.warn(
        { adminDomain: config.adminDomain },
        'no operator yet: the admin API lets nobody in until `keycard operators create-owner --email <address>` creates the first owner',
      );
    }
  });

  registerRoutes(app, adminApiDefinitions, adminSurface(services));
  // Any other /admin address is nothing, on every host (never the portal's page).
  app.all('/admin/*', async () => {
    throw new AppError(errorCodes.notFound);
  });
}
