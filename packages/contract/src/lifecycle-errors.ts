/**
 * Error codes of the lifecycle flows (SPEC §8). Statuses: token_invalid 409 and token_expired
 * 410 (activation), token_not_found 409 and token_expired 410 (reset), registration 403,
 * verification 403/410 and email_invalid 400.
 */
export const lifecycleErrors = {
  activateTokenInvalid: 'activate.token_invalid',
  activateTokenExpired: 'activate.token_expired',
  registerTokenInvalid: 'register.token_invalid',
  registerAccountExists: 'register.account_exists',
  resetTokenNotFound: 'reset.token_not_found',
  resetTokenExpired: 'reset.token_expired',
  verifyTokenInvalid: 'verify.token_invalid',
  verifyTokenExpired: 'verify.token_expired',
  verifyEmailInvalid: 'verify.email_invalid',
  verifyNotSessionEmail: 'verify.not_session_email',
  passwordHistory: 'password.history',
  passwordLeaked: 'password.leaked',
  captchaFailed: 'captcha.failed',
  /** Operator CLI: the account exists and is not waiting for activation. */
  inviteAccountExists: 'invite.account_exists',
} as const;
export type LifecycleError = (typeof lifecycleErrors)[keyof typeof lifecycleErrors];
