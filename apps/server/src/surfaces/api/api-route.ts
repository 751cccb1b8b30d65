import { storageKeys } from '@keycard/contract';
import { PartnerKeys } from '../../features/partners/index.ts';
import { noteSessionUse, sessionToken } from '../../features/sessions/index.ts';
import { loadSignIn, type SignIn } from '../../features/sign-in/index.ts';
import type { TenantContext } from '../../features/tenants/index.ts';
import { publicOrigin } from '../../platform/config.ts';
import type { OpenApiOptions } from '../../platform/http/openapi.ts';
import { type RouteSurface, routeKit } from '../../platform/http/route.ts';
import type { Services } from '../context.ts';

/** The portal API's routes: tenant by Host, the session by its cookie; no admin tokens here. */
/** What /api handlers work with: the services, and the partners' key sets (cached per process). */
export type ApiDeps = Services & { partnerKeys: PartnerKeys };

export interface ApiTypes {
  deps: ApiDeps;
  tenant: TenantContext;
  session: SignIn;
  admin: never;
  scope: never;
}

export const { defineRoute } = routeKit<ApiTypes>();

/** How /api requests find their tenant (resolved from the Host in app.ts) and session (its cookie). */
export function apiSurface(services: Services): RouteSurface<ApiTypes> {
  const { db, clock, config } = services;
  return {
    config,
    deps: { ...services, partnerKeys: new PartnerKeys({ allowPrivate: config.allowPrivateOutbound }) },
    tenantOf: (request) => request.tenant,
    sessionOf: async (request, tenant) => {
      if (!tenant) return null;
      const signIn = await loadSignIn(db, tenant, sessionToken(request), clock.now());
      // The account page's "last used" (at most one write per session every few minutes per
      // instance, not awaited: the request does not wait for it).
      if (signIn) {
        const seen = { userAgent: request.headers['user-agent'], ip: request.ip };
        void noteSessionUse(db, signIn.session, seen, clock.now());
      }
      return signIn;
    },
  };
}

/** What /api/openapi.json says beside its routes. */
export function apiOpenApiOptions(services: Pick<Services, 'config'>): OpenApiOptions<ApiTypes> {
  const { config } = services;
  return {
    title: 'Keycard portal API',
    description:
      "The portal's API (SPEC §7), on every tenant's login domains; the tenant is the Host's. " +
      'State-changing calls are taken from the same origin only (Origin, or Sec-Fetch-Site).',
    version: '1',
    servers: [
      {
        url: publicOrigin(config, '{loginDomain}'),
        variables: { loginDomain: { default: 'login.example.com', description: "A tenant's login domain" } },
      },
    ],
    securitySchemes: {
      session: { type: 'apiKey', in: 'cookie', name: storageKeys.sessionCookie },
    },
    describeAuth: (auth) =>
      auth === 'session'
        ? { security: [{ session: [] }], description: 'A signed-in session (its cookie).' }
        : auth === 'optional-session'
          ? {
              security: [{}, { session: [] }],
              description: 'The session, when the request carries one, says who the user is.',
            }
          : { security: [], description: 'No sign-in needed.' },
  };
}
