// Account lifecycle contract (activation, registration, reset, e-mail verification, expiry).
import { z } from 'zod';
import { secretQuestions } from './lifecycle-api.ts';
import { locales } from './user-state.ts';
import { emailSchema, newPasswordSchema } from './validation.ts';

export * from './lifecycle-api.ts';

const tokenSchema = z.string().min(1).max(256);
const recaptchaTokenSchema = z.string().max(4096).optional();

/** A secret answer: required, trimmed; compared case-insensitively. */
export const secretAnswerSchema = z.string().trim().min(1).max(256);

/** POST /api/user/validate-token — activation by default; the reset page checks RESET tokens. */
export const validateTokenRequest = z.object({
  token: tokenSchema,
  purpose: z.enum(['ACTIVATE', 'RESET']).default('ACTIVATE'),
});
export const validateTokenResponse = z.object({ email: z.string() });
export type ValidateTokenResponse = z.infer<typeof validateTokenResponse>;

/** POST /api/user/activate — the activation draft (confirmPassword is never sent). */
export const activateRequest = z.object({
  token: tokenSchema,
  password: newPasswordSchema,
  secretQuestion: z.enum(secretQuestions),
  secretAnswer: secretAnswerSchema,
  recaptchaToken: recaptchaTokenSchema,
});
export type ActivateRequest = z.input<typeof activateRequest>;

/** POST /api/validate-registration-token — 403 means invalid. */
export const validateRegistrationTokenRequest = z.object({ token: tokenSchema });
export const validateRegistrationTokenResponse = z.object({ email: z.string() });

/** POST /api/user/register — same body as activation; answers the new account's e-mail. */
export const registerRequest = activateRequest;
export type RegisterRequest = ActivateRequest;
export const registerResponse = z.object({ email: z.string() });
export type RegisterResponse = z.infer<typeof registerResponse>;

/** POST /api/user/{email}/reset-password and /resend-activation */
export const userEmailParams = z.object({ email: emailSchema });
/**
 * langCode: the language the page was in when the person asked; the mail and its link are in
 * it rather than in the account's stored language (issue 19, item 14).
 */
export const resetRequestBody = z
  .object({ recaptchaToken: recaptchaTokenSchema, langCode: z.enum(locales).optional() })
  .default({});
/** POST /api/user/{email}/send-verification: the language asked in, as for a reset request. */
export const sendVerificationBody = z.object({ langCode: z.enum(locales).optional() }).default({});

/** 'activate': the account is not activated yet, so its activation mail went out again. */
export const resetRequestResponse = z.object({ state: z.enum(['reset', 'activate']) });
export type ResetRequestResponse = z.infer<typeof resetRequestResponse>;

/** PATCH /api/user — apply a reset. */
export const applyResetRequest = z.object({
  token: tokenSchema,
  password: newPasswordSchema,
  recaptchaToken: recaptchaTokenSchema,
});
export type ApplyResetRequest = z.input<typeof applyResetRequest>;

/** POST /api/validate-email-verification-token */
export const validateEmailVerificationTokenRequest = z.object({ token: tokenSchema });

/** PATCH /api/verify-email */
export const verifyEmailRequest = z.object({ email: emailSchema, token: tokenSchema });
export const verifyEmailResponse = z.object({ homepageUrl: z.string() });
export type VerifyEmailResponse = z.infer<typeof verifyEmailResponse>;

/** GET /api/captcha */
export const captchaConfigResponse = z.object({
  siteKey: z.string().nullable(),
  scriptUrl: z.string().nullable(),
});
export type CaptchaConfig = z.infer<typeof captchaConfigResponse>;
