import {
  activateRequest,
  applyResetRequest,
  type CaptchaAction,
  type CaptchaConfig,
  captchaConfigResponse,
  type ErrorCode,
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
  sendVerificationBody,
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
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  activateAccount,
  applyPasswordReset,
  checkActivationToken,
  checkRegistrationToken,
  checkResetToken,
  checkVerificationToken,
  limitMailRequests,
  registerAccount,
  requestActivationResend,
  requestPasswordReset,
  sendVerificationMail,
  verifyEmailAddress,
} from '../../features/accounts/index.ts';
import { idempotent } from '../../features/idempotency/index.ts';
import type { TenantContext } from '../../features/tenants/index.ts';
import { captchaSettingsOf, verifyCaptcha } from '../../features/tenants/index.ts';
import { AppError } from '../../platform/shared/errors.ts';
import type { Services } from '../context.ts';
import { defineRoute } from './api-route.ts';

/** Mail is committed with the change; the worker is nudged so it goes out at once. */
function deliver(services: Services): void {
  void services.outbox.kick().catch(() => undefined);
}

function outbound(services: Services) {
  return { allowPrivate: services.config.allowPrivateOutbound };
}

const idempotencyErrors: ErrorCode[] = [
  errorCodes.idempotencyKeyInvalid,
  errorCodes.idempotencyInProgress,
  errorCodes.idempotencyKeyReused,
];
const newPasswordErrors: ErrorCode[] = [
  lifecycleErrors.captchaFailed,
  lifecycleErrors.passwordHistory,
  lifecycleErrors.passwordLeaked,
  errorCodes.redirectNotAllowed,
];
const mailRequestErrors: ErrorCode[] = [
  lifecycleErrors.captchaFailed,
  errorCodes.rateLimited,
  ...idempotencyErrors,
];

/**
 * Reset and resend share their guards: captcha and the per-client limit. A repeat with the
 * same Idempotency-Key (a gateway retry) gets the first answer and sends no second mail;
 * captcha and limit sit inside, as a replay spends neither.
 */
async function mailRequest<T>(
  services: Services,
  { request, reply, tenant, email, recaptchaToken }: MailRequest,
  action: CaptchaAction,
  send: (tenant: TenantContext, email: string) => Promise<T>,
): Promise<T> {
  const { limiter, clock } = services;
  return idempotent(services, request, reply, { tenantCode: tenant.code, subject: email }, async () => {
    await verifyCaptcha(tenant, recaptchaToken, action, request.ip, outbound(services));
    await limitMailRequests(limiter, tenant, request.ip, clock.now());
    return send(tenant, email);
  });
}

interface MailRequest {
  request: FastifyRequest;
  reply: FastifyReply;
  tenant: TenantContext;
  email: string;
  recaptchaToken: string | undefined;
}

/**
 * Activation, registration, password reset, e-mail verification (issue 3). HTTP glue only:
 * each handler calls one service and maps the answer.
 */
export const lifecycleRoutes = [
  defineRoute({
    method: 'GET',
    path: lifecycleApi.captcha,
    summary: "The tenant's captcha site key and script, or nulls when captcha is off",
    auth: 'none',
    origin: 'any',
    tenant: 'required',
    responses: { 200: captchaConfigResponse },
    errors: [],
    handler: async ({ reply, tenant }): Promise<CaptchaConfig> => {
      reply.header('cache-control', 'no-cache');
      const captcha = captchaSettingsOf(tenant);
      return captcha.siteKey
        ? { siteKey: captcha.siteKey, scriptUrl: captcha.scriptUrl }
        : { siteKey: null, scriptUrl: null };
    },
  }),

  defineRoute({
    method: 'POST',
    path: lifecycleApi.validateToken,
    summary: 'Check an activation or reset token; answers its address',
    auth: 'none',
    origin: 'same-origin',
    tenant: 'required',
    body: validateTokenRequest,
    responses: { 200: validateTokenResponse },
    errors: [
      lifecycleErrors.activateTokenInvalid,
      lifecycleErrors.activateTokenExpired,
      lifecycleErrors.resetTokenNotFound,
      lifecycleErrors.resetTokenExpired,
    ],
    handler: async ({ deps, tenant, body }): Promise<ValidateTokenResponse> => {
      const check = body.purpose === 'RESET' ? checkResetToken : checkActivationToken;
      const user = await check(deps.db, tenant, body.token, deps.clock.now());
      return { email: user.email };
    },
  }),

  defineRoute({
    method: 'POST',
    path: lifecycleApi.activate,
    summary: 'Activate an invited account: its password (and secret question when asked)',
    auth: 'none',
    origin: 'same-origin',
    tenant: 'required',
    body: activateRequest,
    responses: { 200: registerResponse },
    errors: [
      lifecycleErrors.activateTokenInvalid,
      lifecycleErrors.activateTokenExpired,
      ...newPasswordErrors,
    ],
    handler: async ({ deps, request, tenant, body }) => {
      await verifyCaptcha(tenant, body.recaptchaToken, 'SIGNUP', request.ip, outbound(deps));
      const activated = await activateAccount(deps, tenant, body, deps.clock.now());
      deliver(deps); // a claim may have queued the partner-links mail
      return activated;
    },
  }),

  defineRoute({
    method: 'POST',
    path: lifecycleApi.validateRegistrationToken,
    summary: 'Check a registration token; answers its address',
    auth: 'none',
    origin: 'same-origin',
    tenant: 'required',
    body: validateRegistrationTokenRequest,
    responses: { 200: validateRegistrationTokenResponse },
    errors: [lifecycleErrors.registerTokenInvalid, lifecycleErrors.registerAccountExists],
    handler: async ({ deps, tenant, body }) => {
      const grant = await checkRegistrationToken(deps.db, tenant, body.token, deps.clock.now());
      return { email: grant.email };
    },
  }),

  defineRoute({
    method: 'POST',
    path: lifecycleApi.register,
    summary: 'Register an account with a registration token',
    auth: 'none',
    origin: 'same-origin',
    tenant: 'required',
    body: registerRequest,
    responses: { 200: registerResponse },
    errors: [
      lifecycleErrors.registerTokenInvalid,
      lifecycleErrors.registerAccountExists,
      ...newPasswordErrors,
    ],
    handler: async ({ deps, request, tenant, body }): Promise<RegisterResponse> => {
      await verifyCaptcha(tenant, body.recaptchaToken, 'SIGNUP', request.ip, outbound(deps));
      return registerAccount(deps, tenant, body, deps.clock.now());
    },
  }),

  defineRoute({
    method: 'POST',
    path: routePattern(lifecycleApi.resetPassword, 'email'),
    summary: 'Send a password reset mail (an activation mail to a pending account); Idempotency-Key',
    auth: 'none',
    origin: 'same-origin',
    tenant: 'required',
    params: userEmailParams,
    body: resetRequestBody,
    responses: { 200: resetRequestResponse },
    errors: mailRequestErrors,
    handler: async ({ deps, request, reply, tenant, params, body }): Promise<ResetRequestResponse> =>
      mailRequest(
        deps,
        { request, reply, tenant, email: params.email, recaptchaToken: body.recaptchaToken },
        'PASSWORD_RESET',
        async (tenant, email) => {
          const { state, messageId } = await requestPasswordReset(
            deps,
            tenant,
            email,
            deps.clock.now(),
            body.langCode,
          );
          if (messageId) deliver(deps);
          return { state };
        },
      ),
  }),

  defineRoute({
    method: 'POST',
    path: routePattern(lifecycleApi.resendActivation, 'email'),
    summary: 'Send a pending account a new activation mail; Idempotency-Key',
    auth: 'none',
    origin: 'same-origin',
    tenant: 'required',
    params: userEmailParams,
    body: resetRequestBody,
    responses: { 200: emptyResponse },
    errors: mailRequestErrors,
    handler: async ({ deps, request, reply, tenant, params, body }) =>
      // A new activation link is part of signing up.
      mailRequest(
        deps,
        { request, reply, tenant, email: params.email, recaptchaToken: body.recaptchaToken },
        'SIGNUP',
        async (tenant, email) => {
          const { messageId } = await requestActivationResend(
            deps,
            tenant,
            email,
            deps.clock.now(),
            body.langCode,
          );
          if (messageId) deliver(deps);
          return {};
        },
      ),
  }),

  defineRoute({
    method: 'PATCH',
    path: lifecycleApi.user,
    summary: 'Apply a password reset: the token and the new password',
    auth: 'none',
    origin: 'same-origin',
    tenant: 'required',
    body: applyResetRequest,
    responses: { 200: emptyResponse },
    errors: [lifecycleErrors.resetTokenNotFound, lifecycleErrors.resetTokenExpired, ...newPasswordErrors],
    handler: async ({ deps, request, tenant, body }) => {
      await verifyCaptcha(tenant, body.recaptchaToken, 'PASSWORD_RESET', request.ip, outbound(deps));
      await applyPasswordReset(deps, tenant, body, deps.clock.now());
      deliver(deps); // a claim may have queued the partner-links mail
      return {};
    },
  }),

  defineRoute({
    method: 'POST',
    path: routePattern(lifecycleApi.sendVerification, 'email'),
    summary: "Send the signed-in account's address a verification mail; Idempotency-Key",
    // Looked up after the address is read, so a malformed address is a 400 with or without one.
    auth: 'optional-session',
    origin: 'same-origin',
    tenant: 'required',
    params: userEmailParams,
    body: sendVerificationBody,
    responses: { 200: emptyResponse },
    errors: [
      errorCodes.sessionRequired,
      lifecycleErrors.verifyNotSessionEmail,
      errorCodes.rateLimited,
      ...idempotencyErrors,
    ],
    handler: async ({ deps, request, reply, tenant, session, params, body }) => {
      if (!session) throw new AppError(errorCodes.sessionRequired);
      if (session.user.email !== params.email) throw new AppError(lifecycleErrors.verifyNotSessionEmail);
      return idempotent(
        deps,
        request,
        reply,
        { tenantCode: tenant.code, subject: session.session.id },
        async () => {
          const { messageId } = await sendVerificationMail(
            deps,
            tenant,
            session.user,
            deps.clock.now(),
            body.langCode,
          );
          if (messageId) deliver(deps);
          return {};
        },
      );
    },
  }),

  defineRoute({
    method: 'POST',
    path: lifecycleApi.validateEmailVerificationToken,
    summary: 'Check an e-mail verification token',
    auth: 'none',
    origin: 'same-origin',
    tenant: 'required',
    body: validateEmailVerificationTokenRequest,
    responses: { 200: emptyResponse },
    errors: [lifecycleErrors.verifyTokenInvalid, lifecycleErrors.verifyTokenExpired],
    handler: async ({ deps, tenant, body }) => {
      await checkVerificationToken(deps.db, tenant, body.token, deps.clock.now());
      return {};
    },
  }),

  defineRoute({
    method: 'PATCH',
    path: lifecycleApi.verifyEmail,
    summary: 'Confirm the e-mail address with its verification token',
    auth: 'none',
    origin: 'same-origin',
    tenant: 'required',
    body: verifyEmailRequest,
    responses: { 200: verifyEmailResponse },
    errors: [
      lifecycleErrors.verifyTokenInvalid,
      lifecycleErrors.verifyTokenExpired,
      lifecycleErrors.verifyEmailInvalid,
      errorCodes.redirectNotAllowed,
    ],
    handler: async ({ deps, tenant, body }): Promise<VerifyEmailResponse> => {
      const verified = await verifyEmailAddress(deps, tenant, body, deps.clock.now());
      deliver(deps); // a claim may have queued the partner-links mail
      return verified;
    },
  }),
];
