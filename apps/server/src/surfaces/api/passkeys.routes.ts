import {
  accountErrors,
  apiPaths,
  errorCodes,
  loginResponse,
  passkeyCreationOptionsResponse,
  passkeyErrors,
  passkeyItemParams,
  passkeyListResponse,
  passkeyOptionsRequest,
  passkeyRegisterRequest,
  passkeyRenameRequest,
  passkeyRequestOptionsResponse,
  passkeyResponse,
  passkeySignInRequest,
  passkeyVerifyRequest,
  passkeyVerifyResponse,
  routePattern,
} from '@keycard/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  ceremonyToken,
  ensureCeremonyToken,
  listPasskeys,
  type PasskeyDeps,
  type PasskeyHost,
  passkeyLimit,
  passkeyRegistrationOptions,
  passkeySignInOptions,
  passkeyVerifyOptions,
  registerPasskey,
  removePasskey,
  renamePasskey,
  signInWithPasskey,
  verifyWithPasskey,
} from '../../features/passkeys/index.ts';
import { knownBrowserToken, sessionToken } from '../../features/sessions/index.ts';
import { loadSignIn } from '../../features/sign-in/index.ts';
import type { TenantContext } from '../../features/tenants/index.ts';
import { hostnameOf, ownOriginOf } from '../../platform/http/host.ts';
import type { ApiDeps } from './api-route.ts';
import { defineRoute } from './api-route.ts';

/** The relying party of this request: the host it came to, its public origin, the browser. */
function hostOf(
  deps: ApiDeps,
  request: FastifyRequest,
  tenant: TenantContext,
  browserToken: string | undefined,
): PasskeyHost {
  const userAgent = request.headers['user-agent'];
  return {
    tenant,
    rpId: hostnameOf(request.host),
    origin: ownOriginOf(deps.config, request),
    // No cookie: no challenge matches (passkey.challenge_invalid).
    browserToken: browserToken ?? '',
    ip: request.ip,
    userAgent: typeof userAgent === 'string' ? userAgent : undefined,
  };
}

/** Options calls bind the ceremony to this browser, making its cookie when it has none. */
function optionsHostOf(deps: ApiDeps, request: FastifyRequest, reply: FastifyReply, tenant: TenantContext) {
  return hostOf(deps, request, tenant, ensureCeremonyToken(request, reply, deps.config));
}

function passkeyDepsOf(deps: ApiDeps, request: FastifyRequest): PasskeyDeps {
  return { db: deps.db, limiter: deps.limiter, config: deps.config, log: request.log, outbox: deps.outbox };
}

const offered = [passkeyErrors.notOffered, passkeyErrors.rateLimited];
const assertion = [passkeyErrors.challengeInvalid, passkeyErrors.verificationFailed];
const recent = [errorCodes.sessionIncomplete, accountErrors.recentSignInRequired];

/** Passkeys (docs/passkeys.md): sign-in, MFA and step-up, creation and management. HTTP glue only. */
export const passkeyRoutes = [
  defineRoute({
    method: 'POST',
    path: apiPaths.passkeys.signInOptions,
    summary: 'Options for a passkey sign-in on this domain (discoverable credentials, autofill or button)',
    auth: 'none',
    origin: 'same-origin',
    tenant: 'required',
    body: passkeyOptionsRequest,
    responses: { 200: passkeyRequestOptionsResponse },
    errors: offered,
    handler: async ({ deps, request, reply, tenant }) => ({
      options: await passkeySignInOptions(
        passkeyDepsOf(deps, request),
        optionsHostOf(deps, request, reply, tenant),
        deps.clock.now(),
      ),
    }),
  }),

  defineRoute({
    method: 'POST',
    path: apiPaths.passkeys.signIn,
    summary: "A passkey sign-in's assertion: answers a single-use code for /api/authenticate",
    auth: 'none',
    origin: 'same-origin',
    tenant: 'required',
    body: passkeySignInRequest,
    responses: { 200: loginResponse },
    errors: [...offered, ...assertion, passkeyErrors.unknownCredential],
    handler: async ({ deps, request, tenant, body }) => {
      const { code } = await signInWithPasskey(
        passkeyDepsOf(deps, request),
        hostOf(deps, request, tenant, ceremonyToken(request)),
        { ...body, knownBrowserToken: knownBrowserToken(request) },
        deps.clock.now(),
      );
      return { code, state: body.state };
    },
  }),

  defineRoute({
    method: 'POST',
    path: apiPaths.passkeys.registrationOptions,
    summary: 'Options for creating a passkey on the signed-in account (a recent sign-in needed)',
    auth: 'session',
    origin: 'same-origin',
    tenant: 'required',
    body: passkeyOptionsRequest,
    responses: { 200: passkeyCreationOptionsResponse },
    errors: [...offered, ...recent, passkeyErrors.limitReached],
    handler: async ({ deps, request, reply, tenant, session }) => ({
      options: await passkeyRegistrationOptions(
        passkeyDepsOf(deps, request),
        optionsHostOf(deps, request, reply, tenant),
        session,
        deps.clock.now(),
      ),
    }),
  }),

  defineRoute({
    method: 'POST',
    path: apiPaths.passkeys.register,
    summary: "The new passkey's attestation: stores it for this domain",
    auth: 'session',
    origin: 'same-origin',
    tenant: 'required',
    body: passkeyRegisterRequest,
    responses: { 201: passkeyResponse },
    errors: [
      ...offered,
      ...recent,
      ...assertion,
      passkeyErrors.limitReached,
      passkeyErrors.alreadyRegistered,
    ],
    handler: async ({ deps, request, tenant, session, body, answer }) =>
      answer(201, {
        passkey: await registerPasskey(
          passkeyDepsOf(deps, request),
          hostOf(deps, request, tenant, ceremonyToken(request)),
          session,
          body,
          deps.clock.now(),
        ),
      }),
  }),

  defineRoute({
    method: 'POST',
    path: apiPaths.passkeys.verifyOptions,
    summary: "Options to pass MFA, a step-up or the recent-sign-in check with one of the account's passkeys",
    auth: 'session',
    origin: 'same-origin',
    tenant: 'required',
    body: passkeyOptionsRequest,
    responses: { 200: passkeyRequestOptionsResponse },
    errors: [...offered, passkeyErrors.notFound],
    handler: async ({ deps, request, reply, tenant, session }) => ({
      options: await passkeyVerifyOptions(
        passkeyDepsOf(deps, request),
        optionsHostOf(deps, request, reply, tenant),
        session,
        deps.clock.now(),
      ),
    }),
  }),

  defineRoute({
    method: 'POST',
    path: apiPaths.passkeys.verify,
    summary: 'The assertion that passes MFA for this session with a passkey or security key',
    auth: 'session',
    origin: 'same-origin',
    tenant: 'required',
    body: passkeyVerifyRequest,
    responses: { 200: passkeyVerifyResponse },
    errors: [...offered, ...assertion],
    handler: async ({ deps, request, tenant, session, body }) => {
      const now = deps.clock.now();
      await verifyWithPasskey(
        passkeyDepsOf(deps, request),
        hostOf(deps, request, tenant, ceremonyToken(request)),
        session,
        body.credential,
        now,
      );
      const after = await loadSignIn(deps.db, tenant, sessionToken(request), now);
      return { state: after?.identity.state ?? session.identity.state };
    },
  }),

  defineRoute({
    method: 'GET',
    path: apiPaths.passkeys.list,
    summary: "The signed-in account's passkeys on every domain of the tenant",
    auth: 'session',
    origin: 'any',
    tenant: 'required',
    responses: { 200: passkeyListResponse },
    errors: [],
    handler: async ({ deps, request, tenant, session }) => ({
      ...(await listPasskeys(deps.db, { tenant, rpId: hostnameOf(request.host) }, session)),
      limit: passkeyLimit,
    }),
  }),

  defineRoute({
    method: 'PATCH',
    path: routePattern(apiPaths.passkeys.item, 'id'),
    summary: "Rename one of the signed-in account's passkeys",
    auth: 'session',
    origin: 'same-origin',
    tenant: 'required',
    params: passkeyItemParams,
    body: passkeyRenameRequest,
    responses: { 200: passkeyResponse },
    errors: [passkeyErrors.notFound],
    handler: async ({ deps, request, tenant, session, params, body }) => ({
      passkey: await renamePasskey(deps.db, { tenant, rpId: hostnameOf(request.host) }, session, {
        id: params.id,
        name: body.name,
      }),
    }),
  }),

  defineRoute({
    method: 'DELETE',
    path: routePattern(apiPaths.passkeys.item, 'id'),
    summary: "Remove one of the signed-in account's passkeys (a recent sign-in needed)",
    auth: 'session',
    origin: 'same-origin',
    tenant: 'required',
    params: passkeyItemParams,
    responses: { 204: null },
    errors: [...recent, passkeyErrors.notFound, accountErrors.factorRequired],
    handler: async ({ deps, request, tenant, session, params }) => {
      await removePasskey(
        passkeyDepsOf(deps, request),
        hostOf(deps, request, tenant, undefined),
        session,
        params.id,
        deps.clock.now(),
      );
    },
  }),
];
