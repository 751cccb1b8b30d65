import {
  type DeviceTokenResponse,
  deviceTokenRequest,
  errorCodes,
  type MfaResetResponse,
  type MfaStatusResponse,
  type MfaVerifyResponse,
  mfaResetRequest,
  mfaVerifyRequest,
  type PhoneCodeSentResponse,
  type PhoneDeliveryResponse,
  type RecoveryCodesResponse,
  type RegisterTotpResponse,
  registerPhoneRequest,
  registerTotpRequest,
  sendPhoneCodeRequest,
} from '@keycard/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { publicOrigin } from '../config.ts';
import type { Services } from '../http/context.ts';
import { sessionToken } from '../http/cookies.ts';
import { resolveRedirect } from '../http/redirects.ts';
import { assertSameOrigin } from '../http/security.ts';
import { requireTenant } from '../http/tenant.ts';
import { parseInput } from '../http/validate.ts';
import { callFailureOf, isValidTwilioSignature } from '../messaging/phone/twilio.provider.ts';
import { resolveSession } from '../sessions/session-identity.ts';
import { AppError } from '../shared/errors.ts';
import type { TenantContext } from '../tenants/tenant.types.ts';
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
} from './mfa.service.ts';
import { recordDeliveryFailure } from './phone.service.ts';

export function mfaDepsOf(services: Services): MfaDeps {
  const { config } = services;
  return {
    db: services.db,
    key: services.secrets.encryptionKey,
    limiter: services.limiter,
    outbox: services.outbox,
    phoneCodesPerTenantHour: config.mfa.phoneCodesPerTenantHour,
    phoneAvailable: services.phone.available,
    callStatusUrl: config.twilio
      ? (tenant: TenantContext, codeId: string) =>
          `${publicOrigin(config, tenant.loginDomain)}/api/mfa/phone/call-status/${codeId}`
      : undefined,
  };
}

/** Multi-factor authentication API (issue 4; SPEC §7 /mfa calls). */
export async function mfaRoutes(app: FastifyInstance, services: Services): Promise<void> {
  const { db, clock, config } = services;
  const deps = mfaDepsOf(services);

  /** Every MFA call needs the session that passed the password step on this tenant. */
  async function signedIn(request: FastifyRequest, reply: FastifyReply) {
    assertSameOrigin(request);
    const tenant = requireTenant(request);
    const resolved = await resolveSession(db, tenant, sessionToken(request), clock.now());
    if (!resolved) throw new AppError(errorCodes.sessionRequired, 401, 'Sign in first.');
    reply.header('cache-control', 'no-store');
    return { tenant, resolved };
  }

  app.get('/api/mfa/status', async (request, reply): Promise<MfaStatusResponse> => {
    const { tenant, resolved } = await signedIn(request, reply);
    return mfaStatus(deps, tenant, resolved, clock.now());
  });

  app.post('/api/mfa/register-totp', async (request, reply): Promise<RegisterTotpResponse> => {
    const { tenant, resolved } = await signedIn(request, reply);
    parseInput(registerTotpRequest, request.body);
    return registerTotp(deps, tenant, resolved, clock.now());
  });

  app.post('/api/mfa/register-phone', async (request, reply): Promise<PhoneCodeSentResponse> => {
    const { tenant, resolved } = await signedIn(request, reply);
    const input = parseInput(registerPhoneRequest, request.body);
    return registerPhone(deps, tenant, resolved, input, clock.now());
  });

  app.post('/api/mfa/send-phone-code', async (request, reply): Promise<PhoneCodeSentResponse> => {
    const { tenant, resolved } = await signedIn(request, reply);
    const input = parseInput(sendPhoneCodeRequest, request.body);
    return resendPhoneCode(deps, tenant, resolved, input.deliveryType, clock.now());
  });

  app.get('/api/mfa/delivery', async (request, reply): Promise<PhoneDeliveryResponse> => {
    const { tenant, resolved } = await signedIn(request, reply);
    return phoneDelivery(deps, tenant, resolved);
  });

  app.post('/api/mfa/verify', async (request, reply): Promise<MfaVerifyResponse> => {
    const { tenant, resolved } = await signedIn(request, reply);
    const proof = parseInput(mfaVerifyRequest, request.body);
    const now = clock.now();
    const result = await verifyMfa(deps, tenant, resolved, proof, now);
    const after = await resolveSession(db, tenant, sessionToken(request), now);
    return { state: after?.identity.state ?? resolved.identity.state, ...result };
  });

  app.post('/api/mfa/user-device-tokens', async (request, reply): Promise<DeviceTokenResponse> => {
    const { tenant, resolved } = await signedIn(request, reply);
    parseInput(deviceTokenRequest, request.body);
    const { token, trustedUntil } = await trustDevice(deps, tenant, resolved, clock.now());
    return { userDeviceToken: token, trustedUntil };
  });

  app.post('/api/mfa/recovery-codes', async (request, reply): Promise<RecoveryCodesResponse> => {
    const { tenant, resolved } = await signedIn(request, reply);
    return { recoveryCodes: await regenerateRecoveryCodes(deps, tenant, resolved, clock.now()) };
  });

  app.post('/api/mfa/reset', async (request, reply): Promise<MfaResetResponse> => {
    const { tenant, resolved } = await signedIn(request, reply);
    const input = parseInput(mfaResetRequest, request.body);
    const now = clock.now();
    await resetMfa(deps, tenant, resolved, input.proof, now);
    const after = await resolveSession(db, tenant, sessionToken(request), now);
    // Invariant 2: the mfaResetRedirectUri is answered back only when registered for the tenant.
    return {
      state: after?.identity.state ?? resolved.identity.state,
      redirectUri: resolveRedirect(tenant, request, input.redirectUri),
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
      webhook.post('/api/mfa/phone/call-status/:codeId', async (request, reply) => {
        const tenant = requireTenant(request);
        const { codeId } = request.params as { codeId: string };
        const params = (request.body ?? {}) as Record<string, string>;
        const url = `${publicOrigin(config, tenant.loginDomain)}${request.url}`;
        const signature = request.headers['x-twilio-signature'];
        if (
          !isValidTwilioSignature(
            twilio.authToken,
            url,
            params,
            typeof signature === 'string' ? signature : undefined,
          )
        ) {
          return reply.status(403).send({ code: errorCodes.forbiddenOrigin, message: 'Invalid signature.' });
        }
        const failure = callFailureOf(String(params.CallStatus ?? ''));
        if (failure && codeId.length <= 36) {
          await recordDeliveryFailure(db, {
            tenantCode: tenant.code,
            codeId,
            failure: `${failure.kind}:${failure.code}`,
          });
        }
        return reply.status(204).send();
      });
    });
  }
}
