import {
  apiPaths,
  type GenerateTokenResponse,
  generateTokenRequest,
  generateTokenResponse,
  type HelpLinkResponse,
  helpLinkResponse,
  type PartnerLinksResponse,
  type PartnerSsoResponse,
  partnerLinkChangeResponse,
  partnerLinkParams,
  partnerLinksResponse,
  partnerSsoRequest,
  partnerSsoResponse,
  routePattern,
  userEmailParams,
} from '@keycard/contract';
import type { FastifyInstance } from 'fastify';
import {
  dropPartnerLink,
  keepPartnerLink,
  listPartnerLinks,
} from '../../features/partners/partner-links.service.ts';
import {
  generatePartnerHandoff,
  partnerHelpLink,
  signInWithPartner,
} from '../../features/partners/partner-sso.service.ts';
import { PartnerKeys } from '../../features/partners/partner-token.service.ts';
import { deviceToken, sessionToken, setSessionCookie } from '../../features/sessions/cookies.ts';
import { loadSignIn } from '../../features/sign-in/sign-in-state.ts';
import { answers } from '../../platform/http/contract.ts';
import { assertSameOrigin } from '../../platform/http/security.ts';
import { parseInput } from '../../platform/http/validate.ts';
import type { Services } from '../context.ts';
import { requireTenant } from '../tenant.ts';

/** The path parameter both partner routes share; the help link's second one is the address. */
const partnerParam = 'partnerCode';
const helpLinkPattern = apiPaths.partners
  .helpLink(`:${partnerParam}`, ':email')
  .replace(encodeURIComponent(`:${partnerParam}`), `:${partnerParam}`)
  .replace(encodeURIComponent(':email'), ':email');

const linkPattern = apiPaths.partners
  .link(':partnerCode', ':subject')
  .replace(encodeURIComponent(':partnerCode'), ':partnerCode')
  .replace(encodeURIComponent(':subject'), ':subject');

function partnerCodeOf(params: unknown): string {
  return (params as Record<string, string>)[partnerParam] ?? '';
}

/**
 * Partner single sign-on (issue 8): HTTP glue only. The partner token is verified, its account
 * found and its session opened in partner-sso.service.ts; the hand-off code it leads to is
 * redeemed at /oidc/token (oidc/token-exchange.ts).
 */
export async function partnerRoutes(
  app: FastifyInstance,
  services: Services & { partnerKeys?: PartnerKeys },
): Promise<void> {
  const { db, config, clock, limiter } = services;
  const deps = {
    db,
    config,
    limiter,
    keys: services.partnerKeys ?? new PartnerKeys({ allowPrivate: config.allowPrivateOutbound }),
  };

  app.post(
    routePattern(apiPaths.partners.sso, partnerParam),
    answers(partnerSsoResponse),
    async (request, reply): Promise<PartnerSsoResponse> => {
      assertSameOrigin(request, config);
      const tenant = requireTenant(request);
      const input = parseInput(partnerSsoRequest, request.body);
      const opened = await signInWithPartner(
        deps,
        tenant,
        partnerCodeOf(request.params),
        {
          ...input,
          userDeviceToken: deviceToken(request, input.userDeviceToken),
          ip: request.ip,
          previousToken: sessionToken(request),
        },
        clock.now(),
        request.log,
      );
      setSessionCookie(reply, config, opened.sessionToken);
      return { token: opened.identityToken, tenantCode: tenant.code };
    },
  );

  app.post(
    routePattern(apiPaths.partners.generateToken, partnerParam),
    answers(generateTokenResponse),
    async (request): Promise<GenerateTokenResponse> => {
      assertSameOrigin(request, config);
      const tenant = requireTenant(request);
      const input = parseInput(generateTokenRequest, request.body);
      const now = clock.now();
      const signIn = await loadSignIn(db, tenant, sessionToken(request), now);
      return generatePartnerHandoff(deps, tenant, partnerCodeOf(request.params), signIn, input, now);
    },
  );

  // The signed-in account's partner links (issue 16): read, keep, drop.
  app.get(
    apiPaths.partners.links,
    answers(partnerLinksResponse),
    async (request): Promise<PartnerLinksResponse> => {
      const tenant = requireTenant(request);
      const signIn = await loadSignIn(db, tenant, sessionToken(request), clock.now());
      return listPartnerLinks(db, tenant, signIn);
    },
  );

  app.put(linkPattern, answers(partnerLinkChangeResponse), async (request): Promise<PartnerLinksResponse> => {
    assertSameOrigin(request, config);
    const tenant = requireTenant(request);
    const link = parseInput(partnerLinkParams, request.params);
    const now = clock.now();
    const signIn = await loadSignIn(db, tenant, sessionToken(request), now);
    return keepPartnerLink(db, tenant, signIn, link, now);
  });

  app.delete(
    linkPattern,
    answers(partnerLinkChangeResponse),
    async (request): Promise<PartnerLinksResponse> => {
      assertSameOrigin(request, config);
      const tenant = requireTenant(request);
      const link = parseInput(partnerLinkParams, request.params);
      const now = clock.now();
      const signIn = await loadSignIn(db, tenant, sessionToken(request), now);
      return dropPartnerLink(db, tenant, signIn, link, now);
    },
  );

  app.get(helpLinkPattern, answers(helpLinkResponse), async (request): Promise<HelpLinkResponse> => {
    const tenant = requireTenant(request);
    const { email } = parseInput(userEmailParams, request.params);
    return partnerHelpLink(db, tenant, partnerCodeOf(request.params), email);
  });
}
