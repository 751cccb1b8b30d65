/** Every portal route (ARCHITECTURE: one paths object, so no URL is typed twice). */
export const paths = {
  root: '/',
  login: '/login',
  loginPassword: '/login/password',
  logout: '/logout',
  activate: '/activate/',
  register: '/register/',
  activateSent: '/activate/sent/',
  partnerSso: '/partners/:partnerCode/sso/:token',
  resetPassword: '/reset-password/',
  resetPasswordSent: '/reset-password/sent',
  resetPasswordUpdate: '/reset-password/update',
  authenticate: '/authenticate/',
  authenticated: '/authenticated',
  authorize: '/authorize',
  verifyEmail: '/verify-email/',
  mfa: '/mfa',
  mfaReset: '/mfa/reset',
  error: '/error/',
  accountDisabled: '/error/account-disabled/',
  activateExpired: '/error/activate-expired/',
  passwordExpired: '/error/password-expired/',
  passwordWillExpire: '/error/password-will-expire/',
  verifyExpired: '/error/verify-expired/',
  /** The account page: sign-in methods, where you are signed in, recent activity (docs/account.md). */
  account: '/account',
  /** Where a sign-in that no application asked for ends: who is signed in, the account, log out. */
  signedIn: '/signed-in',
  /**
   * The identity provider's own pages (its error page, RP-initiated logout) at the provider's
   * addresses (/oidc/auth, /oidc/session/end, …): the server renders them as portal pages and
   * the portal's provider screen takes them over.
   */
  providerPage: '/oidc/:endpoint/:step?/:action?',
  /**
   * A real portal screen drawn with a draft theme for the admin console's live preview
   * (`@keycard/contract/preview`): framed by the console on the operator host only, nothing
   * on it calls the API.
   */
  preview: '/preview/:screen',
} as const;
