import type { LoginResponse, SessionResponse } from '@keycard/contract/api';
import { apiPaths } from '@keycard/contract/api-paths';
import type {
  ActivateRequest,
  ApplyResetRequest,
  CaptchaConfig,
  RegisterRequest,
  RegisterResponse,
  ResetRequestResponse,
  ValidateTokenResponse,
  VerifyEmailResponse,
} from '@keycard/contract/lifecycle';
import { apiRequest } from '../../../lib/api.ts';
import { deviceTokenField } from '../../../lib/device-id.ts';
import { pageLanguage } from '../../../lib/language.ts';

/** Calls that send a mail carry an idempotency key: a gateway retry sends no second mail. */
const once = { idempotent: true };

/** The lifecycle calls of SPEC §7 (types only from the contract: no zod in the bundle). */
export const accountApi = {
  session: () => apiRequest<SessionResponse>('GET', apiPaths.session),
  /** The password step, as the login page makes it (with the trusted browser's device token). */
  login: (email: string, password: string, state: string) =>
    apiRequest<LoginResponse>('POST', apiPaths.login, { email, password, state, ...deviceTokenField() }),
  captchaConfig: () => apiRequest<CaptchaConfig>('GET', apiPaths.lifecycle.captcha),
  validateActivation: (token: string) =>
    apiRequest<ValidateTokenResponse>('POST', apiPaths.lifecycle.validateToken, { token }),
  validateReset: (token: string) =>
    apiRequest<ValidateTokenResponse>('POST', apiPaths.lifecycle.validateToken, { token, purpose: 'RESET' }),
  activate: (body: ActivateRequest) =>
    apiRequest<{ email: string }>('POST', apiPaths.lifecycle.activate, body),
  validateRegistration: (token: string) =>
    apiRequest<{ email: string }>('POST', apiPaths.lifecycle.validateRegistrationToken, { token }),
  register: (body: RegisterRequest) =>
    apiRequest<RegisterResponse>('POST', apiPaths.lifecycle.register, body),
  requestReset: (email: string, recaptchaToken: string | undefined) =>
    apiRequest<ResetRequestResponse>(
      'POST',
      apiPaths.lifecycle.resetPassword(email),
      { recaptchaToken, ...pageLanguage() },
      once,
    ),
  resendActivation: (email: string, recaptchaToken: string | undefined) =>
    apiRequest<object>(
      'POST',
      apiPaths.lifecycle.resendActivation(email),
      { recaptchaToken, ...pageLanguage() },
      once,
    ),
  applyReset: (body: ApplyResetRequest) => apiRequest<object>('PATCH', apiPaths.lifecycle.user, body),
  sendVerification: (email: string) =>
    apiRequest<object>('POST', apiPaths.lifecycle.sendVerification(email), pageLanguage(), once),
  validateVerification: (token: string) =>
    apiRequest<object>('POST', apiPaths.lifecycle.validateEmailVerificationToken, { token }),
  verifyEmail: (email: string, token: string) =>
    apiRequest<VerifyEmailResponse>('PATCH', apiPaths.lifecycle.verifyEmail, { email, token }),
};
