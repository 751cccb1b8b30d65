import {
  apiPaths,
  authenticateRequest,
  authorizeRequest,
  authorizeResponse,
  logoutRequest,
  logoutResponse,
  type SessionResponse,
  sessionResponse,
  toLocale,
  type UserIdentity,
  userIdentitySchema,
} from '@keycard/contract';
import type { FastifyInstance } from 'fastify';
import { authorizeSession, completeSignIn, endSignIn } from '../../features/sign-in/sign-in.service.ts';
import { loadSignIn } from '../../features/sign-in/sign-in-state.ts';
import { answers } from '../../platform/http/contract.ts';
import {
  clearSessionCookie,
  deviceToken,
  sessionToken,
  setDeviceIdCookie,
  setKnownBrowserCookie,
  setSessionCookie,
} from '../../platform/http/cookies.ts';
import { ownOriginOf, resolveRedirect } from '../../platform/http/redirects.ts';
import { assertSameOrigin } from '../../platform/http/security.ts';
import { requireTenant } from '../../platform/http/tenant.ts';
import { parseInput } from '../../platform/http/validate.ts';
import type { Services } from '../context.ts';

/**
 * The critical path after the password step (ARCHITECTURE "The login, end to end", 3–5):
 * HTTP glue only. Each handler checks the origin, parses its contract, calls one service and
 * answers; what a session may do is decided in sign-in-state.ts.
 */
export async function signInRoutes(app: FastifyInstance, services: Services): Promise<void> {
  const { db, clock, config, providers } = services;

  app.post(
    apiPaths.authenticate,
    answers(userIdentitySchema),
    async (request, reply): Promise<UserIdentity> => {
      assertSameOrigin(request, config);
      const tenant = requireTenant(request);
      const input = parseInput(authenticateRequest, request.body);
      const userDeviceToken = deviceToken(request, input.userDeviceToken);
      const { token, signIn, knownBrowserToken } = await completeSignIn(
        db,
        tenant,
        { ...input, userDeviceToken, previousToken: sessionToken(request) },
        clock.now(),
      );
      setSessionCookie(reply, config, token);
      if (knownBrowserToken) setKnownBrowserCookie(reply, config, knownBrowserToken);
      // A device trusted before the cookie (its token in the page's storage) moves into it.
      if (userDeviceToken && !deviceToken(request)) setDeviceIdCookie(reply, config, userDeviceToken);
      return signIn.identity;
    },
  );

  app.get(apiPaths.session, answers(sessionResponse), async (request): Promise<SessionResponse> => {
    const tenant = requireTenant(request);
    const signIn = await loadSignIn(db, tenant, sessionToken(request), clock.now());
    if (!signIn) return { exists: false };
    return {
      exists: true,
      provider: signIn.session.provider === 'authx' ? 'authx' : 'keycard',
      partnerCode: signIn.session.partner_code,
      identity: signIn.identity,
    };
  });

  /** Silent authorize: finish the app's pending sign-in, or go to a registered redirect. */
  app.post(apiPaths.authorize, answers(authorizeResponse), async (request) => {
    assertSameOrigin(request, config);
    const tenant = requireTenant(request);
    const input = parseInput(authorizeRequest, request.body);
    const signIn = await loadSignIn(db, tenant, sessionToken(request), clock.now());
    // SPEC §4: the redirect carries the device token as user-device-token, now from the cookie.
    const userDeviceToken = deviceToken(request, input.userDeviceToken);
    return authorizeSession(
      { providers },
      tenant,
      signIn,
      { ...input, userDeviceToken },
      ownOriginOf(config, request),
    );
  });

  app.post(apiPaths.logout, answers(logoutResponse), async (request, reply) => {
    assertSameOrigin(request, config);
    const tenant = requireTenant(request);
    const input = parseInput(logoutRequest, request.body);
    await endSignIn(db, tenant, sessionToken(request) ?? input.token);
    clearSessionCookie(reply, config);
    const target = resolveRedirect(tenant, ownOriginOf(config, request), input.redirectUri);
    if (target) return { location: target };
    const login = new URLSearchParams({ loggedOut: 'true' });
    const lang = toLocale(input.langCode);
    if (lang) login.set('langCode', lang);
    return { location: `/login?${login}` };
  });
}
