import {
  activateRequest,
  applyResetRequest,
  type CaptchaAction,
  type CaptchaConfig,
  captchaConfigResponse,
  emptyResponse,
  errorCodes,
  lifecycleApi,
  lifecycleErrors,
  type RegisterResponse,
  type ResetRequestResponse,
  registerRequest,
  registerResponse,
  resetRequestBody,
  resetRequestResponse,
  routePattern,
  userEmailParams,
  type ValidateTokenResponse,
  type VerifyEmailResponse,
  validateEmailVerificationTokenRequest,
  validateRegistrationTokenRequest,
  validateRegistrationTokenResponse,
  validateTokenRequest,
  validateTokenResponse,
  verifyEmailRequest,
  verifyEmailResponse,
} from '@keycard/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  activateAccount,
  checkActivationToken,
  checkRegistrationToken,
  registerAccount,
} from '../../features/accounts/activation.service.ts';
import {
  checkVerificationToken,
  sendVerificationMail,
  verifyEmailAddress,
} from '../../features/accounts/email-verification.service.ts';
import {
  applyPasswordReset,
  checkResetToken,
  limitMailRequests,
  requestActivationResend,
  requestPasswordReset,
} from '../../features/accounts/password-reset.service.ts';
import { idempotent } from '../../features/idempotency/idempotent.ts';
import { sessionToken } from '../../features/sessions/cookies.ts';
import { loadSignIn } from '../../features/sign-in/sign-in-state.ts';
import { captchaSettingsOf, cspWithCaptcha, verifyCaptcha } from '../../features/tenants/captcha.ts';
import type { TenantContext } from '../../features/tenants/tenant.types.ts';
import { answers } from '../../platform/http/contract.ts';
import { assertSameOrigin, securityHeaders } from '../../platform/http/security.ts';
import { parseInput } from '../../platform/http/validate.ts';
import { AppError } from '../../platform/shared/errors.ts';
import type { Services } from '../context.ts';
import { requireTenant } from '../tenant.ts';

/**
 * Activation, registration, password reset, e-mail verification (issue 3). HTTP glue only:
 * each handler checks the origin, parses its contract, calls one service and maps the answer.
 */
export async function lifecycleRoutes(app: FastifyInstance, services: Services): Promise<void> {
  const { db, clock, config, limiter, tenants } = services;
  const deps = { db, config, limiter };
  const outbound = { allowPrivate: config.allowPrivateOutbound };
  /** Mail is committed with the change; the worker is nudged so it goes out at once. */
  const deliver = () => void services.outbox.kick().catch(() => undefined);

  // Captcha scripts come from the provider's origin: only tenants that use one widen their CSP.
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return;
    const path = request.url.split('?')[0] ?? '/';
    if (path.startsWith('/api/') || path.startsWith('/oidc') || path.startsWith('/_') || path.includes('.')) {
      return;
    }
    const tenant = await tenants.resolveHost(request.host).catch(() => null);
    if (!tenant) return;
    const captcha = captchaSettingsOf(tenant);
    if (!captcha.siteKey) return;
    const csp = securityHeaders(config, path, request.host)['content-security-policy'] ?? '';
    reply.header('content-security-policy', cspWithCaptcha(csp, captcha.scriptUrl));
  });

  app.get(
    lifecycleApi.captcha,
    answers(captchaConfigResponse),
    async (request, reply): Promise<CaptchaConfig> => {
      const tenant = requireTenant(request);
      reply.header('cache-control', 'no-cache');
      const captcha = captchaSettingsOf(tenant);
      return captcha.siteKey
        ? { siteKey: captcha.siteKey, scriptUrl: captcha.scriptUrl }
        : { siteKey: null, scriptUrl: null };
    },
  );

  app.post(
    lifecycleApi.validateToken,
    answers(validateTokenResponse),
    async (request): Promise<ValidateTokenResponse> => {
      assertSameOrigin(request, config);
      const tenant = requireTenant(request);
      const input = parseInput(validateTokenRequest, request.body);
      const check = input.purpose === 'RESET' ? checkResetToken : checkActivationToken;
      const user = await check(db, tenant, input.token, clock.now());
      return { email: user.email };
    },
  );

  app.post(lifecycleApi.activate, answers(registerResponse), async (request) => {
    assertSameOrigin(request, config);
    const tenant = requireTenant(request);
    const input = parseInput(activateRequest, request.body);
    await verifyCaptcha(tenant, input.recaptchaToken, 'SIGNUP', request.ip, outbound);
    const activated = await activateAccount(deps, tenant, input, clock.now());
    deliver(); // a claim may have queued the partner-links mail
    return activated;
  });

  app.post(
    lifecycleApi.validateRegistrationToken,
    answers(validateRegistrationTokenResponse),
    async (request) => {
      assertSameOrigin(request, config);
      const tenant = requireTenant(request);
      const input = parseInput(validateRegistrationTokenRequest, request.body);
      const grant = await checkRegistrationToken(db, tenant, input.token, clock.now());
      return { email: grant.email };
    },
  );

  app.post(lifecycleApi.register, answers(registerResponse), async (request): Promise<RegisterResponse> => {
    assertSameOrigin(request, config);
    const tenant = requireTenant(request);
    const input = parseInput(registerRequest, request.body);
    await verifyCaptcha(tenant, input.recaptchaToken, 'SIGNUP', request.ip, outbound);
    return registerAccount(deps, tenant, input, clock.now());
  });

  /**
   * Reset and resend share their guards: origin, captcha, the per-client limit. A repeat with
   * the same Idempotency-Key (a gateway retry) gets the first answer and sends no second
   * mail; captcha and limit sit inside, as a replay spends neither.
   */
  async function mailRequest<T>(
    request: FastifyRequest,
    reply: FastifyReply,
    action: CaptchaAction,
    send: (tenant: TenantContext, email: string) => Promise<T>,
  ): Promise<T> {
    assertSameOrigin(request, config);
    const tenant = requireTenant(request);
    const { email } = parseInput(userEmailParams, request.params);
    const body = parseInput(resetRequestBody, request.body);
    return idempotent(services, request, reply, { tenantCode: tenant.code, subject: email }, async () => {
      await verifyCaptcha(tenant, body.recaptchaToken, action, request.ip, outbound);
      await limitMailRequests(limiter, tenant, request.ip, clock.now());
      return send(tenant, email);
    });
  }

  app.post(
    routePattern(lifecycleApi.resetPassword, 'email'),
    answers(resetRequestResponse),
    async (request, reply): Promise<ResetRequestResponse> =>
      mailRequest(request, reply, 'PASSWORD_RESET', async (tenant, email) => {
        const { state, messageId } = await requestPasswordReset(deps, tenant, email, clock.now());
        if (messageId) deliver();
        return { state };
      }),
  );

  app.post(
    routePattern(lifecycleApi.resendActivation, 'email'),
    answers(emptyResponse),
    async (request, reply) =>
      // A new activation link is part of signing up.
      mailRequest(request, reply, 'SIGNUP', async (tenant, email) => {
        const { messageId } = await requestActivationResend(deps, tenant, email, clock.now());
        if (messageId) deliver();
        return {};
      }),
  );

  app.patch(lifecycleApi.user, answers(emptyResponse), async (request) => {
    assertSameOrigin(request, config);
    const tenant = requireTenant(request);
    const input = parseInput(applyResetRequest, request.body);
    await verifyCaptcha(tenant, input.recaptchaToken, 'PASSWORD_RESET', request.ip, outbound);
    await applyPasswordReset(deps, tenant, input, clock.now());
    deliver(); // a claim may have queued the partner-links mail
    return {};
  });

  app.post(
    routePattern(lifecycleApi.sendVerification, 'email'),
    answers(emptyResponse),
    async (request, reply) => {
      assertSameOrigin(request, config);
      const tenant = requireTenant(request);
      const { email } = parseInput(userEmailParams, request.params);
      const signIn = await loadSignIn(db, tenant, sessionToken(request), clock.now());
      if (!signIn) throw new AppError(errorCodes.sessionRequired);
      if (signIn.user.email !== email) throw new AppError(lifecycleErrors.verifyNotSessionEmail);
      return idempotent(
        services,
        request,
        reply,
        { tenantCode: tenant.code, subject: signIn.session.id },
        async () => {
          const { messageId } = await sendVerificationMail(deps, tenant, signIn.user, clock.now());
          if (messageId) deliver();
          return {};
        },
      );
    },
  );

  app.post(lifecycleApi.validateEmailVerificationToken, answers(emptyResponse), async (request) => {
    assertSameOrigin(request, config);
    const tenant = requireTenant(request);
    const input = parseInput(validateEmailVerificationTokenRequest, request.body);
    await checkVerificationToken(db, tenant, input.token, clock.now());
    return {};
  });

  app.patch(
    lifecycleApi.verifyEmail,
    answers(verifyEmailResponse),
    async (request): Promise<VerifyEmailResponse> => {
      assertSameOrigin(request, config);
      const tenant = requireTenant(request);
      const input = parseInput(verifyEmailRequest, request.body);
      const verified = await verifyEmailAddress(deps, tenant, input, clock.now());
      deliver(); // a claim may have queued the partner-links mail
      return verified;
    },
  );
}

// Registered at the root (as fastify-plugin does), so the captcha CSP hook above also covers
// the portal pages, which another plugin serves.
Object.assign(lifecycleRoutes, { [Symbol.for('skip-override')]: true });
