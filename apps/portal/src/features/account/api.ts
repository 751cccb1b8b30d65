import type { SessionResponse } from '@keycard/contract/api';
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
import { lifecycleApi } from '@keycard/contract/lifecycle-api';
import { apiRequest } from '../../lib/api.ts';

/** The lifecycle calls of SPEC §7 (types only from the contract: no zod in the bundle). */
export const accountApi = {
  session: () => apiRequest<SessionResponse>('GET', '/api/session'),
  captchaConfig: () => apiRequest<CaptchaConfig>('GET', lifecycleApi.captcha),
  validateActivation: (token: string) =>
    apiRequest<ValidateTokenResponse>('POST', lifecycleApi.validateToken, { token }),
  validateReset: (token: string) =>
    apiRequest<ValidateTokenResponse>('POST', lifecycleApi.validateToken, { token, purpose: 'RESET' }),
  activate: (body: ActivateRequest) => apiRequest<{ email: string }>('POST', lifecycleApi.activate, body),
  validateRegistration: (token: string) =>
    apiRequest<{ email: string }>('POST', lifecycleApi.validateRegistrationToken, { token }),
  register: (body: RegisterRequest) => apiRequest<RegisterResponse>('POST', lifecycleApi.register, body),
  requestReset: (email: string, recaptchaToken: string | undefined) =>
    apiRequest<ResetRequestResponse>('POST', lifecycleApi.resetPassword(email), { recaptchaToken }),
  resendActivation: (email: string, recaptchaToken: string | undefined) =>
    apiRequest<object>('POST', lifecycleApi.resendActivation(email), { recaptchaToken }),
  applyReset: (body: ApplyResetRequest) => apiRequest<object>('PATCH', lifecycleApi.user, body),
  sendVerification: (email: string) => apiRequest<object>('POST', lifecycleApi.sendVerification(email), {}),
  validateVerification: (token: string) =>
    apiRequest<object>('POST', lifecycleApi.validateEmailVerificationToken, { token }),
  verifyEmail: (email: string, token: string) =>
    apiRequest<VerifyEmailResponse>('PATCH', lifecycleApi.verifyEmail, { email, token }),
};
