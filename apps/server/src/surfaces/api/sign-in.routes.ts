import {
  apiPaths,
  authenticateRequest,
  authorizeAbortRequest,
  authorizeAbortResponse,
  authorizeInteractionQuery,
  authorizeInteractionResponse,
  authorizeRequest,
  authorizeResponse,
  errorCodes,
  logoutRequest,
  logoutResponse,
  passkeyErrors,
  type SessionResponse,
  sessionResponse,
  toLocale,
  userIdentitySchema,
} from '@keycard/contract';
import {
  abortAuthorization,
  authorizeSession,
  completeSignIn,
  describeInteraction,
  endSignIn,
} from '../../features/oidc/index.ts';
import {
  clearSessionCookie,
  deviceToken,
  sessionToken,
  setDeviceIdCookie,
  setKnownBrowserCookie,
  setSessionCookie,
} from '../../features/sessions/index.ts';
import { resolveRedirect } from '../../features/tenants/index.ts';
import { ownOriginOf } from '../../platform/http/host.ts';
import { defineRoute } from './api-route.ts';

/**
 * The critical path after the password step (ARCHITECTURE "The login, end to end", 3–5):
 * HTTP glue only. Each handler calls one service and answers; what a session may do is
 * decided in sign-in-state.ts.
 */
export const signInRoutes = [
  defineRoute({
    method: 'POST',
    path: apiPaths.authenticate,
    summary: 'Redeem the login code: opens the session (its cookie) and answers the user identity',
    auth: 'none',
    origin: 'same-origin',
    tenant: 'required',
    body: authenticateRequest,
    responses: { 200: userIdentitySchema },
    errors: [errorCodes.codeInvalid],
    handler: async ({ deps, request, reply, tenant, body }) => {
      const { db, clock, config } = deps;
      const userDeviceToken = deviceToken(request, body.userDeviceToken);
      const { token, signIn, knownBrowserToken } = await completeSignIn(
        db,
        tenant,
        { ...body, userDeviceToken, previousToken: sessionToken(request) },
        clock.now(),
      );
      setSessionCookie(reply, config, token);
      if (knownBrowserToken) setKnownBrowserCookie(reply, config, knownBrowserToken);
      // A device trusted before the cookie (its token in the page's storage) moves into it.
      if (userDeviceToken && !deviceToken(request)) setDeviceIdCookie(reply, config, userDeviceToken);
      return signIn.identity;
    },
  }),

  defineRoute({
    method: 'GET',
    path: apiPaths.session,
    summary: 'Whether this browser has a session, its provider and partner, and the user identity',
    auth: 'optional-session',
    origin: 'any',
    tenant: 'required',
    responses: { 200: sessionResponse },
    errors: [],
    handler: async ({ session }): Promise<SessionResponse> => {
      if (!session) return { exists: false };
      return {
        exists: true,
        provider: session.session.provider === 'authx' ? 'authx' : 'keycard',
        partnerCode: session.session.partner_code,
        identity: session.identity,
      };
    },
  }),

  defineRoute({
    method: 'POST',
    path: apiPaths.authorize,
    summary: "Silent authorize: finish the app's pending sign-in, or go to a registered redirect",
    auth: 'optional-session',
    origin: 'same-origin',
    tenant: 'required',
    body: authorizeRequest,
    responses: { 200: authorizeResponse },
    errors: [
      errorCodes.sessionRequired,
      errorCodes.sessionIncomplete,
      errorCodes.reauthenticationRequired,
      passkeyErrors.stepUpRequired,
      errorCodes.interactionNotFound,
      errorCodes.redirectNotAllowed,
    ],
    handler: async ({ deps, request, reply, tenant, session, body }) => {
      // SPEC §4: the redirect carries the device token as user-device-token, now from the cookie.
      const userDeviceToken = deviceToken(request, body.userDeviceToken);
      return authorizeSession(
        { providers: deps.providers },
        tenant,
        session,
        { ...body, userDeviceToken },
        { req: request.raw, res: reply.raw },
        ownOriginOf(deps.config, request),
      );
    },
  }),

  defineRoute({
    method: 'GET',
    path: apiPaths.authorizeInteraction,
    summary: "The app this browser's pending sign-in is for (its interaction cookie), by name",
    auth: 'none',
    origin: 'any',
    tenant: 'required',
    query: authorizeInteractionQuery,
    responses: { 200: authorizeInteractionResponse },
    errors: [errorCodes.interactionNotFound],
    handler: async ({ deps, request, reply, tenant, query }) =>
      describeInteraction({ providers: deps.providers }, tenant, query.iid, {
        req: request.raw,
        res: reply.raw,
      }),
  }),

  defineRoute({
    method: 'POST',
    path: apiPaths.authorizeAbort,
    summary: "Back to the app without signing in: ends this browser's pending sign-in with access_denied",
    auth: 'none',
    origin: 'same-origin',
    tenant: 'required',
    body: authorizeAbortRequest,
    responses: { 200: authorizeAbortResponse },
    errors: [errorCodes.interactionNotFound],
    handler: async ({ deps, request, reply, tenant, body }) =>
      abortAuthorization({ providers: deps.providers }, tenant, body.iid, {
        req: request.raw,
        res: reply.raw,
      }),
  }),

  defineRoute({
    method: 'POST',
    path: apiPaths.logout,
    summary: 'End the session; answers where to go next (a registered redirect, or the login page)',
    auth: 'none',
    origin: 'same-origin',
    tenant: 'required',
    body: logoutRequest,
    responses: { 200: logoutResponse },
    errors: [],
    handler: async ({ deps, request, reply, tenant, body }) => {
      const { db, config } = deps;
      await endSignIn(db, tenant, sessionToken(request) ?? body.token);
      clearSessionCookie(reply, config);
      const target = resolveRedirect(tenant, ownOriginOf(config, request), body.redirectUri);
      if (target) return { location: target };
      const login = new URLSearchParams({ loggedOut: 'true' });
      const lang = toLocale(body.langCode);
      if (lang) login.set('langCode', lang);
      return { location: `/login?${login}` };
    },
  }),
];
