// Account lifecycle constants without zod, so the portal can import them at no bundle cost.

/** SPEC §3: the six secret question codes, in the order the form offers them. */
export const secretQuestions = [
  'mother-maiden-name',
  'father-middle-name',
  'town-where-born',
  'first-overseas-trip',
  'first-school',
  'first-pet-name',
] as const;
export type SecretQuestion = (typeof secretQuestions)[number];

/** Captcha actions (SPEC §1): sign-up covers activation and registration. */
export const captchaActions = ['SIGNUP', 'PASSWORD_RESET'] as const;
export type CaptchaAction = (typeof captchaActions)[number];

/** The lifecycle error codes live with every other code (errors.ts); re-exported here. */
export { type LifecycleError, lifecycleErrors } from './errors.ts';

/** API paths of the lifecycle calls (SPEC §7), so neither side types a URL twice. */
export const lifecycleApi = {
  validateToken: '/api/user/validate-token',
  activate: '/api/user/activate',
  validateRegistrationToken: '/api/validate-registration-token',
  register: '/api/user/register',
  /** PATCH: apply a password reset. */
  user: '/api/user',
  resetPassword: (email: string) => `/api/user/${encodeURIComponent(email)}/reset-password`,
  resendActivation: (email: string) => `/api/user/${encodeURIComponent(email)}/resend-activation`,
  sendVerification: (email: string) => `/api/user/${encodeURIComponent(email)}/send-verification`,
  validateEmailVerificationToken: '/api/validate-email-verification-token',
  /** PATCH: confirm the e-mail address. */
  verifyEmail: '/api/verify-email',
  /** GET: the tenant's captcha site key and script, or nulls when captcha is off. */
  captcha: '/api/captcha',
} as const;

/** Lifetimes of the lifecycle links (SPEC §9: e-mail verification 24 hours). */
export const lifecycleTokenTtl = {
  activationDays: 7,
  registrationDays: 7,
  resetMinutes: 60,
  verificationHours: 24,
} as const;
