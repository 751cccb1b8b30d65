import {
  accountActivityQuery,
  accountActivityResponse,
  accountAppParams,
  accountErrors,
  accountItemParams,
  accountOverviewResponse,
  accountSessionsResponse,
  apiPaths,
  changePasswordRequest,
  changePasswordResponse,
  endSessionsResponse,
  errorCodes,
  forgetBrowsersResponse,
  lifecycleErrors,
  reauthenticateRequest,
  reauthenticateResponse,
  routePattern,
  trustedBrowsersResponse,
} from '@keycard/contract';
import type { FastifyRequest } from 'fastify';
import {
  type AccountCaller,
  accountActivity,
  accountOverview,
  accountSessions,
  changeAccountPassword,
  endAccountSession,
  endOtherAccountSessions,
  forgetTrustedBrowser,
  forgetTrustedBrowsers,
  listTrustedBrowsers,
  reauthenticate,
  removeAccountFactor,
  signOutOfApp,
} from '../../features/self-service/index.ts';
import { clearSessionCookie, deviceToken, knownBrowserToken } from '../../features/sessions/index.ts';
import type { SignIn } from '../../features/sign-in/index.ts';
import type { TenantContext } from '../../features/tenants/index.ts';
import type { Services } from '../context.ts';
import { defineRoute } from './api-route.ts';

const paths = apiPaths.account;

/** The signed-in account, its browser and its address, for the account page's services. */
function callerOf(request: FastifyRequest, tenant: TenantContext, signIn: SignIn): AccountCaller {
  const userAgent = request.headers['user-agent'];
  return { tenant, signIn, userAgent: typeof userAgent === 'string' ? userAgent : undefined, ip: request.ip };
}

/** Mail is committed with the change; the worker is nudged so it goes out at once. */
function deliver(services: Services): void {
  void services.outbox.kick().catch(() => undefined);
}

const recent = accountErrors.recentSignInRequired;
const incomplete = errorCodes.sessionIncomplete;

/** The account page (docs/account.md): HTTP glue only; every decision is in features/self-service. */
export const accountRoutes = [
  defineRoute({
    method: 'GET',
    path: paths.overview,
    summary: 'The account page: the account, its sign-in methods and the recent-sign-in window',
    auth: 'session',
    origin: 'any',
    tenant: 'required',
    responses: { 200: accountOverviewResponse },
    errors: [incomplete],
    handler: async ({ deps, tenant, session }) => accountOverview(deps.db, tenant, session, deps.clock.now()),
  }),
  defineRoute({
    method: 'POST',
    path: paths.password,
    summary: 'Changes the password (current and new); ends the other sessions, mails the owner',
    auth: 'session',
    origin: 'same-origin',
    tenant: 'required',
    body: changePasswordRequest,
    responses: { 200: changePasswordResponse },
    errors: [
      incomplete,
      recent,
      accountErrors.currentPasswordInvalid,
      errorCodes.tooManyAttempts,
      lifecycleErrors.passwordHistory,
      lifecycleErrors.passwordLeaked,
    ],
    handler: async ({ deps, request, tenant, session, body }) => {
      const caller = { ...callerOf(request, tenant, session), knownBrowserToken: knownBrowserToken(request) };
      const result = await changeAccountPassword(deps, caller, body, deps.clock.now());
      deliver(deps);
      return result;
    },
  }),
  defineRoute({
    method: 'POST',
    path: paths.reauthenticate,
    summary: 'Confirms it is you with the password (then the factor, when the account has one)',
    auth: 'session',
    origin: 'same-origin',
    tenant: 'required',
    body: reauthenticateRequest,
    responses: { 200: reauthenticateResponse },
    errors: [incomplete, accountErrors.currentPasswordInvalid, errorCodes.tooManyAttempts],
    handler: async ({ deps, request, tenant, session, body }) =>
      reauthenticate(deps, callerOf(request, tenant, session), body.password, deps.clock.now()),
  }),
  defineRoute({
    method: 'GET',
    path: paths.sessions,
    summary: "The account's sessions (this browser's first) and the apps it is signed in to",
    auth: 'session',
    origin: 'any',
    tenant: 'required',
    responses: { 200: accountSessionsResponse },
    errors: [incomplete],
    handler: async ({ deps, request, tenant, session }) =>
      accountSessions(deps.db, callerOf(request, tenant, session), deps.clock.now()),
  }),
  defineRoute({
    method: 'DELETE',
    path: paths.sessions,
    summary: 'Signs out everywhere else: every other session, and every app',
    auth: 'session',
    origin: 'same-origin',
    tenant: 'required',
    responses: { 200: endSessionsResponse },
    errors: [incomplete, recent],
    handler: async ({ deps, request, tenant, session }) =>
      endOtherAccountSessions(deps.db, callerOf(request, tenant, session), deps.clock.now()),
  }),
  defineRoute({
    method: 'DELETE',
    path: routePattern(paths.session, 'id'),
    summary: 'Signs one browser out (this one needs no recent sign-in)',
    auth: 'session',
    origin: 'same-origin',
    tenant: 'required',
    params: accountItemParams,
    responses: { 204: null },
    errors: [incomplete, recent, accountErrors.notFound],
    handler: async ({ deps, request, reply, tenant, session, params }) => {
      const ended = await endAccountSession(
        deps.db,
        callerOf(request, tenant, session),
        params.id,
        deps.clock.now(),
      );
      if (ended.current) clearSessionCookie(reply, deps.config);
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: routePattern(paths.app, 'clientId'),
    summary: 'Signs out of one app: its grants and tokens for this account',
    auth: 'session',
    origin: 'same-origin',
    tenant: 'required',
    params: accountAppParams,
    responses: { 204: null },
    errors: [incomplete, recent, accountErrors.notFound],
    handler: async ({ deps, request, tenant, session, params }) => {
      await signOutOfApp(deps.db, callerOf(request, tenant, session), params.clientId, deps.clock.now());
    },
  }),
  defineRoute({
    method: 'GET',
    path: paths.trustedBrowsers,
    summary: 'Browsers trusted to skip the second step, this one marked',
    auth: 'session',
    origin: 'any',
    tenant: 'required',
    responses: { 200: trustedBrowsersResponse },
    errors: [incomplete],
    handler: async ({ deps, request, tenant, session }) => ({
      browsers: await listTrustedBrowsers(
        deps.db,
        callerOf(request, tenant, session),
        deviceToken(request),
        deps.clock.now(),
      ),
    }),
  }),
  defineRoute({
    method: 'DELETE',
    path: paths.trustedBrowsers,
    summary: 'Forgets every trusted browser: each asks for the second step again',
    auth: 'session',
    origin: 'same-origin',
    tenant: 'required',
    responses: { 200: forgetBrowsersResponse },
    errors: [incomplete, recent],
    handler: async ({ deps, request, tenant, session }) =>
      forgetTrustedBrowsers(deps.db, callerOf(request, tenant, session), deps.clock.now()),
  }),
  defineRoute({
    method: 'DELETE',
    path: routePattern(paths.trustedBrowser, 'id'),
    summary: 'Forgets one trusted browser',
    auth: 'session',
    origin: 'same-origin',
    tenant: 'required',
    params: accountItemParams,
    responses: { 204: null },
    errors: [incomplete, recent, accountErrors.notFound],
    handler: async ({ deps, request, tenant, session, params }) => {
      await forgetTrustedBrowser(deps.db, callerOf(request, tenant, session), params.id, deps.clock.now());
    },
  }),
  defineRoute({
    method: 'GET',
    path: paths.activity,
    summary: 'The last 30 days of sign-ins and security changes, newest first, a page at a time',
    auth: 'session',
    origin: 'any',
    tenant: 'required',
    query: accountActivityQuery,
    responses: { 200: accountActivityResponse },
    errors: [incomplete],
    handler: async ({ deps, request, tenant, session, query }) =>
      accountActivity(deps.db, callerOf(request, tenant, session), query, deps.clock.now()),
  }),
  defineRoute({
    method: 'DELETE',
    path: routePattern(paths.factor, 'id'),
    summary: 'Removes the authenticator app, phone or mobile app, as the tenant policy allows',
    auth: 'session',
    origin: 'same-origin',
    tenant: 'required',
    params: accountItemParams,
    responses: { 204: null },
    errors: [incomplete, recent, accountErrors.notFound, accountErrors.factorRequired],
    handler: async ({ deps, request, tenant, session, params }) => {
      await removeAccountFactor(deps, callerOf(request, tenant, session), params.id, deps.clock.now());
      deliver(deps);
    },
  }),
];
