import {
  apiPaths,
  type DeviceTokenResponse,
  deviceTokenRequest,
  deviceTokenResponse,
  type ErrorCode,
  errorCodes,
  type MfaResetResponse,
  type MfaStatusResponse,
  type MfaVerifyResponse,
  mfaErrors,
  mfaResetRequest,
  mfaResetResponse,
  mfaStatusResponse,
  mfaVerifyRequest,
  mfaVerifyResponse,
  type PhoneCodeSentResponse,
  type PhoneDeliveryResponse,
  phoneCodeSentResponse,
  phoneDeliveryResponse,
  type RecoveryCodesResponse,
  type RegisterTotpResponse,
  recoveryCodesResponse,
  registerPhoneRequest,
  registerTotpRequest,
  registerTotpResponse,
  routePattern,
  sendPhoneCodeRequest,
} from '@keycard/contract';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { recordCallStatus } from '../../features/factors/index.ts';
import { idempotent } from '../../features/idempotency/index.ts';
import {
  type MfaDeps,
  mfaStatus,
  phoneDelivery,
  regenerateRecoveryCodes,
  registerPhone,
  registerTotp,
  resendPhoneCode,
  resetMfa,
  trustDevice,
  verifyMfa,
} from '../../features/mfa/index.ts';
import { sessionToken, setDeviceIdCookie } from '../../features/sessions/index.ts';
import { loadSignIn } from '../../features/sign-in/index.ts';
import type { TenantContext } from '../../features/tenants/index.ts';
import { resolveRedirect } from '../../features/tenants/index.ts';
import { publicOrigin } from '../../platform/config.ts';
import { hostnameOf, ownOriginOf } from '../../platform/http/host.ts';
import { AppError } from '../../platform/shared/errors.ts';
import type { Services } from '../context.ts';
import { defineRoute } from './api-route.ts';

export function mfaDepsOf(services: Services, request: FastifyRequest): MfaDeps {
  const { config } = services;
  const userAgent = request.headers['user-agent'];
  return {
    config,
    seen: {
      host: hostnameOf(request.host),
      userAgent: typeof userAgent === 'string' ? userAgent : undefined,
      ip: request.ip,
    },
    db: services.db,
    key: services.secrets.encryptionKey,
    limiter: services.limiter,
    outbox: services.outbox,
    phoneCodesPerTenantHour: config.mfa.phoneCodesPerTenantHour,
    phoneAvailable: services.phone.available,
    clock: services.clock,
    callStatusUrl: config.twilio
      ? (tenant: TenantContext, codeId: string) =>
          `${publicOrigin(config, tenant.loginDomain)}${apiPaths.mfa.callStatus(codeId)}`
      : undefined,
  };
}

/** What an MFA call can answer beyond the kernel's codes: the MFA catalogue. */
const mfaRouteErrors: ErrorCode[] = Object.values(mfaErrors);
const sendErrors: ErrorCode[] = [
  ...mfaRouteErrors,
  errorCodes.idempotencyKeyInvalid,
  errorCodes.idempotencyInProgress,
  errorCodes.idempotencyKeyReused,
];

/**
 * Multi-factor authentication API (issue 4; SPEC §7 /mfa calls). Every MFA call needs the
 * session that passed the password step on this tenant, from the tenant's own pages.
 */
export const mfaRoutes = [
  defineRoute({
    method: 'GET',
    path: apiPaths.mfa.status,
    summary: "The account's factors, what the tenant requires and offers, and the device's trust",
    auth: 'session',
    origin: 'same-origin',
    tenant: 'required',
    responses: { 200: mfaStatusResponse },
    errors: mfaRouteErrors,
    handler: async ({ deps, request, tenant, session }): Promise<MfaStatusResponse> =>
      mfaStatus(mfaDepsOf(deps, request), tenant, session, deps.clock.now()),
  }),

  defineRoute({
    method: 'POST',
    path: apiPaths.mfa.registerTotp,
    summary: 'Start an authenticator app registration: its secret and QR code',
    auth: 'session',
    origin: 'same-origin',
    tenant: 'required',
    body: registerTotpRequest,
    responses: { 200: registerTotpResponse },
    errors: mfaRouteErrors,
    handler: async ({ deps, request, tenant, session }): Promise<RegisterTotpResponse> =>
      registerTotp(mfaDepsOf(deps, request), tenant, session, deps.clock.now()),
  }),

  defineRoute({
    method: 'POST',
    path: apiPaths.mfa.registerPhone,
    summary: 'Start a phone registration: a code by text or call; Idempotency-Key',
    auth: 'session',
    origin: 'same-origin',
    tenant: 'required',
    body: registerPhoneRequest,
    responses: { 200: phoneCodeSentResponse },
    errors: sendErrors,
    handler: async ({ deps, request, reply, tenant, session, body }): Promise<PhoneCodeSentResponse> =>
      idempotent(deps, request, reply, { tenantCode: tenant.code, subject: session.session.id }, () =>
        registerPhone(mfaDepsOf(deps, request), tenant, session, body, deps.clock.now()),
      ),
  }),

  defineRoute({
    method: 'POST',
    path: apiPaths.mfa.sendPhoneCode,
    summary: 'Send a new code to the registered (or registering) phone; Idempotency-Key',
    auth: 'session',
    origin: 'same-origin',
    tenant: 'required',
    body: sendPhoneCodeRequest,
    responses: { 200: phoneCodeSentResponse },
    errors: sendErrors,
    handler: async ({ deps, request, reply, tenant, session, body }): Promise<PhoneCodeSentResponse> =>
      idempotent(deps, request, reply, { tenantCode: tenant.code, subject: session.session.id }, () =>
        resendPhoneCode(
          mfaDepsOf(deps, request),
          tenant,
          session,
          body.deliveryType,
          deps.clock.now(),
          body.langCode,
        ),
      ),
  }),

  defineRoute({
    method: 'GET',
    path: apiPaths.mfa.delivery,
    summary: "How the last phone code's delivery went (a busy line, an unanswered call)",
    auth: 'session',
    origin: 'same-origin',
    tenant: 'required',
    responses: { 200: phoneDeliveryResponse },
    errors: mfaRouteErrors,
    handler: async ({ deps, request, tenant, session }): Promise<PhoneDeliveryResponse> =>
      phoneDelivery(mfaDepsOf(deps, request), tenant, session),
  }),

  defineRoute({
    method: 'POST',
    path: apiPaths.mfa.verify,
    summary: "Check a factor's code (or a recovery code); answers the user state after it",
    auth: 'session',
    origin: 'same-origin',
    tenant: 'required',
    body: mfaVerifyRequest,
    responses: { 200: mfaVerifyResponse },
    errors: mfaRouteErrors,
    handler: async ({ deps, request, tenant, session, body }): Promise<MfaVerifyResponse> => {
      const now = deps.clock.now();
      const result = await verifyMfa(mfaDepsOf(deps, request), tenant, session, body, now);
      const after = await loadSignIn(deps.db, tenant, sessionToken(request), now);
      return { state: after?.identity.state ?? session.identity.state, ...result };
    },
  }),

  defineRoute({
    method: 'POST',
    path: apiPaths.mfa.userDeviceTokens,
    summary: 'Trust this browser: MFA is not asked again on it for the trusted-device period',
    auth: 'session',
    origin: 'same-origin',
    tenant: 'required',
    body: deviceTokenRequest,
    responses: { 200: deviceTokenResponse },
    errors: mfaRouteErrors,
    handler: async ({ deps, request, reply, tenant, session }): Promise<DeviceTokenResponse> => {
      const { token, trustedUntil } = await trustDevice(
        mfaDepsOf(deps, request),
        tenant,
        session,
        deps.clock.now(),
      );
      setDeviceIdCookie(reply, deps.config, token);
      return { userDeviceToken: token, trustedUntil };
    },
  }),

  defineRoute({
    method: 'POST',
    path: apiPaths.mfa.recoveryCodes,
    summary: 'New recovery codes (the old ones stop working)',
    auth: 'session',
    origin: 'same-origin',
    tenant: 'required',
    responses: { 200: recoveryCodesResponse },
    errors: mfaRouteErrors,
    handler: async ({ deps, request, tenant, session }): Promise<RecoveryCodesResponse> => ({
      recoveryCodes: await regenerateRecoveryCodes(
        mfaDepsOf(deps, request),
        tenant,
        session,
        deps.clock.now(),
      ),
    }),
  }),

  defineRoute({
    method: 'POST',
    path: apiPaths.mfa.reset,
    summary: 'Remove every factor with a fresh proof; answers the state and a registered redirect',
    auth: 'session',
    origin: 'same-origin',
    tenant: 'required',
    body: mfaResetRequest,
    responses: { 200: mfaResetResponse },
    errors: mfaRouteErrors,
    handler: async ({ deps, request, tenant, session, body }): Promise<MfaResetResponse> => {
      const now = deps.clock.now();
      await resetMfa(mfaDepsOf(deps, request), tenant, session, body.proof, now);
      const after = await loadSignIn(deps.db, tenant, sessionToken(request), now);
      // Invariant 2: the mfaResetRedirectUri is answered back only when registered for the tenant.
      return {
        state: after?.identity.state ?? session.identity.state,
        redirectUri: resolveRedirect(tenant, ownOriginOf(deps.config, request), body.redirectUri),
      };
    },
  }),
];

/**
 * Twilio's call status callback: a busy line or an unanswered call is known only after the
 * call, so it is recorded on the code and the portal learns it from /api/mfa/delivery.
 * Registered only with Twilio configured, in a context that reads forms (api.routes.ts).
 */
export const mfaCallStatusRoute = defineRoute({
  method: 'POST',
  path: routePattern(apiPaths.mfa.callStatus, 'codeId'),
  summary: "Twilio's call status callback for one sent code (signed by Twilio)",
  auth: 'none',
  origin: 'any',
  tenant: 'required',
  params: z.object({ codeId: z.string() }),
  body: z.record(z.string(), z.string()),
  bodyType: 'application/x-www-form-urlencoded',
  responses: { 204: null },
  errors: [errorCodes.signatureInvalid, errorCodes.notFound],
  handler: async ({ deps, request, tenant, params, body }) => {
    const { config } = deps;
    if (!config.twilio) throw new AppError(errorCodes.notFound);
    const signature = request.headers['x-twilio-signature'];
    await recordCallStatus(deps.db, tenant, {
      authToken: config.twilio.authToken,
      url: `${publicOrigin(config, tenant.loginDomain)}${request.url}`,
      params: body,
      signature: typeof signature === 'string' ? signature : undefined,
      codeId: params.codeId,
    });
  },
});
