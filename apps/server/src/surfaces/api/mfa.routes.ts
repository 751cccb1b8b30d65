import {
  apiPaths,
  type DeviceTokenResponse,
  deviceTokenRequest,
  deviceTokenResponse,
  errorCodes,
  type MfaResetResponse,
  type MfaStatusResponse,
  type MfaVerifyResponse,
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
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { recordCallStatus } from '../../features/factors/phone.service.ts';
import { idempotent } from '../../features/idempotency/idempotent.ts';
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
} from '../../features/mfa/mfa.service.ts';
import { sessionToken, setDeviceIdCookie } from '../../features/sessions/cookies.ts';
import { loadSignIn } from '../../features/sign-in/sign-in-state.ts';
import { resolveRedirect } from '../../features/tenants/redirects.ts';
import type { TenantContext } from '../../features/tenants/tenant.types.ts';
import { publicOrigin } from '../../platform/config.ts';
import { answers } from '../../platform/http/contract.ts';
import { ownOriginOf } from '../../platform/http/host.ts';
import { assertSameOrigin } from '../../platform/http/security.ts';
import { parseInput } from '../../platform/http/validate.ts';
import { AppError } from '../../platform/shared/errors.ts';
import type { Services } from '../context.ts';
import { requireTenant } from '../tenant.ts';

export function mfaDepsOf(services: Services): MfaDeps {
  const { config } = services;
  return {
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

/** Multi-factor authentication API (issue 4; SPEC §7 /mfa calls). */
export async function mfaRoutes(app: FastifyInstance, services: Services): Promise<void> {
  const { db, clock, config } = services;
  const deps = mfaDepsOf(services);

  /** Every MFA call needs the session that passed the password step on this tenant. */
  async function signedIn(request: FastifyRequest) {
    assertSameOrigin(request, config);
    const tenant = requireTenant(request);
    const signIn = await loadSignIn(db, tenant, sessionToken(request), clock.now());
    if (!signIn) throw new AppError(errorCodes.sessionRequired);
    return { tenant, signIn };
  }

  app.get(apiPaths.mfa.status, answers(mfaStatusResponse), async (request): Promise<MfaStatusResponse> => {
    const { tenant, signIn } = await signedIn(request);
    return mfaStatus(deps, tenant, signIn, clock.now());
  });

  app.post(
    apiPaths.mfa.registerTotp,
    answers(registerTotpResponse),
    async (request): Promise<RegisterTotpResponse> => {
      const { tenant, signIn } = await signedIn(request);
      parseInput(registerTotpRequest, request.body);
      return registerTotp(deps, tenant, signIn, clock.now());
    },
  );

  app.post(
    apiPaths.mfa.registerPhone,
    answers(phoneCodeSentResponse),
    async (request, reply): Promise<PhoneCodeSentResponse> => {
      const { tenant, signIn } = await signedIn(request);
      const input = parseInput(registerPhoneRequest, request.body);
      return idempotent(
        services,
        request,
        reply,
        { tenantCode: tenant.code, subject: signIn.session.id },
        () => registerPhone(deps, tenant, signIn, input, clock.now()),
      );
    },
  );

  app.post(
    apiPaths.mfa.sendPhoneCode,
    answers(phoneCodeSentResponse),
    async (request, reply): Promise<PhoneCodeSentResponse> => {
      const { tenant, signIn } = await signedIn(request);
      const input = parseInput(sendPhoneCodeRequest, request.body);
      return idempotent(
        services,
        request,
        reply,
        { tenantCode: tenant.code, subject: signIn.session.id },
        () => resendPhoneCode(deps, tenant, signIn, input.deliveryType, clock.now()),
      );
    },
  );

  app.get(
    apiPaths.mfa.delivery,
    answers(phoneDeliveryResponse),
    async (request): Promise<PhoneDeliveryResponse> => {
      const { tenant, signIn } = await signedIn(request);
      return phoneDelivery(deps, tenant, signIn);
    },
  );

  app.post(apiPaths.mfa.verify, answers(mfaVerifyResponse), async (request): Promise<MfaVerifyResponse> => {
    const { tenant, signIn } = await signedIn(request);
    const proof = parseInput(mfaVerifyRequest, request.body);
    const now = clock.now();
    const result = await verifyMfa(deps, tenant, signIn, proof, now);
    const after = await loadSignIn(db, tenant, sessionToken(request), now);
    return { state: after?.identity.state ?? signIn.identity.state, ...result };
  });

  app.post(
    apiPaths.mfa.userDeviceTokens,
    answers(deviceTokenResponse),
    async (request, reply): Promise<DeviceTokenResponse> => {
      const { tenant, signIn } = await signedIn(request);
      parseInput(deviceTokenRequest, request.body);
      const { token, trustedUntil } = await trustDevice(deps, tenant, signIn, clock.now());
      setDeviceIdCookie(reply, config, token);
      return { userDeviceToken: token, trustedUntil };
    },
  );

  app.post(
    apiPaths.mfa.recoveryCodes,
    answers(recoveryCodesResponse),
    async (request): Promise<RecoveryCodesResponse> => {
      const { tenant, signIn } = await signedIn(request);
      return { recoveryCodes: await regenerateRecoveryCodes(deps, tenant, signIn, clock.now()) };
    },
  );

  app.post(apiPaths.mfa.reset, answers(mfaResetResponse), async (request): Promise<MfaResetResponse> => {
    const { tenant, signIn } = await signedIn(request);
    const input = parseInput(mfaResetRequest, request.body);
    const now = clock.now();
    await resetMfa(deps, tenant, signIn, input.proof, now);
    const after = await loadSignIn(db, tenant, sessionToken(request), now);
    // Invariant 2: the mfaResetRedirectUri is answered back only when registered for the tenant.
    return {
      state: after?.identity.state ?? signIn.identity.state,
      redirectUri: resolveRedirect(tenant, ownOriginOf(config, request), input.redirectUri),
    };
  });

  // Twilio's call status callback: a busy line or an unanswered call is known only after the
  // call, so it is recorded on the code and the portal learns it from /api/mfa/delivery.
  const twilio = config.twilio;
  if (twilio) {
    await app.register(async (webhook) => {
      webhook.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string', bodyLimit: 16 * 1024 },
        (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
      );
      webhook.post(routePattern(apiPaths.mfa.callStatus, 'codeId'), async (request, reply) => {
        const tenant = requireTenant(request);
        const signature = request.headers['x-twilio-signature'];
        await recordCallStatus(db, tenant, {
          authToken: twilio.authToken,
          url: `${publicOrigin(config, tenant.loginDomain)}${request.url}`,
          params: (request.body ?? {}) as Record<string, string>,
          signature: typeof signature === 'string' ? signature : undefined,
          codeId: (request.params as { codeId: string }).codeId,
        });
        return reply.status(204).send();
      });
    });
  }
}
