import {
  apiPaths,
  type ErrorCode,
  errorCodes,
  type GenerateTokenResponse,
  generateTokenRequest,
  generateTokenResponse,
  type HelpLinkResponse,
  helpLinkResponse,
  type PartnerLinksResponse,
  type PartnerSsoResponse,
  partnerErrors,
  partnerLinkChangeResponse,
  partnerLinkParams,
  partnerLinksResponse,
  partnerSsoRequest,
  partnerSsoResponse,
  routePattern,
  userEmailParams,
} from '@keycard/contract';
import { z } from 'zod';
import {
  dropPartnerLink,
  generatePartnerHandoff,
  keepPartnerLink,
  listPartnerLinks,
  partnerHelpLink,
  signInWithPartner,
} from '../../features/partners/index.ts';
import { deviceToken, sessionToken, setSessionCookie } from '../../features/sessions/index.ts';
import { type ApiDeps, defineRoute } from './api-route.ts';

/** A path of a partner route, its parameters named as Fastify does (`:partnerCode`). */
function patternOf(path: string, ...names: string[]): string {
  return names.reduce((pattern, name) => pattern.replace(encodeURIComponent(`:${name}`), `:${name}`), path);
}

const partnerParams = z.object({ partnerCode: z.string() });
const helpLinkParams = z.object({ partnerCode: z.string(), ...userEmailParams.shape });

const partnerRouteErrors: ErrorCode[] = [
  ...Object.values(partnerErrors),
  errorCodes.rateLimited,
  errorCodes.redirectNotAllowed,
  errorCodes.sessionRequired,
  errorCodes.sessionIncomplete,
];

function partnerDeps(deps: ApiDeps) {
  return { db: deps.db, config: deps.config, limiter: deps.limiter, keys: deps.partnerKeys };
}

/**
 * Partner single sign-on (issue 8): HTTP glue only. The partner token is verified, its account
 * found and its session opened in partner-sso.service.ts; the hand-off code it leads to is
 * redeemed at /oidc/token (oidc/token-exchange.ts).
 */
export const partnerRoutes = [
  defineRoute({
    method: 'POST',
    path: routePattern(apiPaths.partners.sso, 'partnerCode'),
    summary: "Sign in with a partner's token: opens a session of the linked account",
    auth: 'none',
    origin: 'same-origin',
    tenant: 'required',
    params: partnerParams,
    body: partnerSsoRequest,
    responses: { 200: partnerSsoResponse },
    errors: partnerRouteErrors,
    handler: async ({ deps, request, reply, tenant, params, body }): Promise<PartnerSsoResponse> => {
      const opened = await signInWithPartner(
        partnerDeps(deps),
        tenant,
        params.partnerCode,
        {
          ...body,
          userDeviceToken: deviceToken(request, body.userDeviceToken),
          ip: request.ip,
          previousToken: sessionToken(request),
        },
        deps.clock.now(),
        request.log,
      );
      setSessionCookie(reply, deps.config, opened.sessionToken);
      return { token: opened.identityToken, tenantCode: tenant.code };
    },
  }),

  defineRoute({
    method: 'POST',
    path: routePattern(apiPaths.partners.generateToken, 'partnerCode'),
    summary: "A hand-off code for the partner's app, from this partner's session",
    auth: 'optional-session',
    origin: 'same-origin',
    tenant: 'required',
    params: partnerParams,
    body: generateTokenRequest,
    responses: { 200: generateTokenResponse },
    errors: partnerRouteErrors,
    handler: async ({ deps, tenant, session, params, body }): Promise<GenerateTokenResponse> =>
      generatePartnerHandoff(partnerDeps(deps), tenant, params.partnerCode, session, body, deps.clock.now()),
  }),

  // The signed-in account's partner links (issue 16): read, keep, drop.
  defineRoute({
    method: 'GET',
    path: apiPaths.partners.links,
    summary: "The signed-in account's partner links and the ones removed from it",
    auth: 'optional-session',
    origin: 'any',
    tenant: 'required',
    responses: { 200: partnerLinksResponse },
    errors: partnerRouteErrors,
    handler: async ({ deps, tenant, session }): Promise<PartnerLinksResponse> =>
      listPartnerLinks(deps.db, tenant, session),
  }),

  defineRoute({
    method: 'PUT',
    path: patternOf(apiPaths.partners.link(':partnerCode', ':subject'), 'partnerCode', 'subject'),
    summary: 'Keep (confirm) a partner link of the signed-in account',
    auth: 'optional-session',
    origin: 'same-origin',
    tenant: 'required',
    params: partnerLinkParams,
    responses: { 200: partnerLinkChangeResponse },
    errors: partnerRouteErrors,
    handler: async ({ deps, tenant, session, params }): Promise<PartnerLinksResponse> =>
      keepPartnerLink(deps.db, tenant, session, params, deps.clock.now()),
  }),

  defineRoute({
    method: 'DELETE',
    path: patternOf(apiPaths.partners.link(':partnerCode', ':subject'), 'partnerCode', 'subject'),
    summary: 'Drop a partner link of the signed-in account for good',
    auth: 'optional-session',
    origin: 'same-origin',
    tenant: 'required',
    params: partnerLinkParams,
    responses: { 200: partnerLinkChangeResponse },
    errors: partnerRouteErrors,
    handler: async ({ deps, tenant, session, params }): Promise<PartnerLinksResponse> =>
      dropPartnerLink(deps.db, tenant, session, params, deps.clock.now()),
  }),

  defineRoute({
    method: 'GET',
    path: patternOf(apiPaths.partners.helpLink(':partnerCode', ':email'), 'partnerCode', 'email'),
    summary: "The partner's help link for an address (the same for every address without a template)",
    auth: 'none',
    origin: 'any',
    tenant: 'required',
    params: helpLinkParams,
    responses: { 200: helpLinkResponse },
    errors: partnerRouteErrors,
    handler: async ({ deps, tenant, params }): Promise<HelpLinkResponse> =>
      partnerHelpLink(deps.db, tenant, params.partnerCode, params.email),
  }),
];
