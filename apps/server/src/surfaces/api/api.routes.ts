import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Config } from '../../platform/config.ts';
import { type JsonObject, openApiDocument } from '../../platform/http/openapi.ts';
import { type RouteDefinition, registerRoutes } from '../../platform/http/route.ts';
import type { Services } from '../context.ts';
import { accountRoutes } from './account.routes.ts';
import { analyticsRoutes } from './analytics.routes.ts';
import { type ApiTypes, apiOpenApiOptions, apiSurface, defineRoute } from './api-route.ts';
import { lifecycleRoutes } from './lifecycle.routes.ts';
import { loginRoutes } from './login.routes.ts';
import { messengerRoutes } from './messenger.routes.ts';
import { mfaCallStatusRoute, mfaRoutes } from './mfa.routes.ts';
import { partnerRoutes } from './partner.routes.ts';
import { passkeyRoutes } from './passkeys.routes.ts';
import { signInRoutes } from './sign-in.routes.ts';
import { tenantRoutes } from './tenant.routes.ts';

/** Where the portal API's OpenAPI document is served, beside the admin API's. */
export const apiOpenApiPath = '/api/openapi.json';

const documents = new WeakMap<Config, JsonObject>();

const openApiRoute = defineRoute({
  method: 'GET',
  path: apiOpenApiPath,
  summary: 'This document: the portal API as OpenAPI 3.1, generated from the route declarations',
  auth: 'none',
  origin: 'any',
  tenant: 'none',
  responses: { 200: z.record(z.string(), z.unknown()) },
  errors: [],
  handler: async ({ deps }) => {
    const known = documents.get(deps.config);
    if (known) return known;
    const document = openApiDocument(apiRoutes, apiOpenApiOptions(deps));
    documents.set(deps.config, document);
    return document;
  },
});

/** The JSON routes of /api, registered on every server. */
const jsonRoutes: RouteDefinition<ApiTypes>[] = [
  ...tenantRoutes,
  ...loginRoutes,
  ...signInRoutes,
  ...lifecycleRoutes,
  ...messengerRoutes,
  ...mfaRoutes,
  ...passkeyRoutes,
  ...accountRoutes,
  ...partnerRoutes,
  ...analyticsRoutes,
  openApiRoute,
];

/** Every /api route (the GraphQL endpoint aside: its contract is its schema, mobile-mfa.graphql). */
export const apiRoutes: RouteDefinition<ApiTypes>[] = [...jsonRoutes, mfaCallStatusRoute];

/**
 * The portal's API (SPEC §7): every route from its declaration. Twilio's callback, a form
 * post, only when Twilio is configured, in a context of its own that reads forms.
 */
export async function apiPlugin(app: FastifyInstance, services: Services): Promise<void> {
  const surface = apiSurface(services);
  registerRoutes(app, jsonRoutes, surface);
  if (!services.config.twilio) return;
  await app.register(async (webhook) => {
    webhook.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 16 * 1024 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    registerRoutes(webhook, [mfaCallStatusRoute], surface);
  });
}
