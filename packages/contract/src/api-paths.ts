// API paths of every portal call (SPEC §7), so neither side types a URL twice. No zod here:
// the portal imports this at run time.
import { lifecycleApi } from './lifecycle-api.ts';

export const apiPaths = {
  loginDomain: (domain: string) => `/api/login-domains/${encodeURIComponent(domain)}`,
  login: '/api/login',
  authenticate: '/api/authenticate',
  session: '/api/session',
  authorize: '/api/authorize',
  /** GET: the app this browser's pending sign-in is for (its name), by the interaction cookie. */
  authorizeInteraction: '/api/authorize/interaction',
  /** POST: go back to the app without signing in (`error=access_denied`, OIDC Core §3.1.2.6). */
  authorizeAbort: '/api/authorize/abort',
  logout: '/api/logout',
  analyticsEvents: '/api/analytics/events',
  /** GET: the tenant's messenger widget configuration (SPEC §3). */
  messenger: '/api/messenger',
  mfa: {
    status: '/api/mfa/status',
    registerTotp: '/api/mfa/register-totp',
    registerPhone: '/api/mfa/register-phone',
    sendPhoneCode: '/api/mfa/send-phone-code',
    delivery: '/api/mfa/delivery',
    verify: '/api/mfa/verify',
    userDeviceTokens: '/api/mfa/user-device-tokens',
    recoveryCodes: '/api/mfa/recovery-codes',
    reset: '/api/mfa/reset',
    /** Twilio's call status callback for one sent code. */
    callStatus: (codeId: string) => `/api/mfa/phone/call-status/${encodeURIComponent(codeId)}`,
  },
  lifecycle: lifecycleApi,
  partners: {
    sso: (partnerCode: string) => `/api/partners/${encodeURIComponent(partnerCode)}/sso`,
    generateToken: (partnerCode: string) => `/api/partners/${encodeURIComponent(partnerCode)}/generate-token`,
    helpLink: (partnerCode: string, email: string) =>
      `/api/partners/${encodeURIComponent(partnerCode)}/users/${encodeURIComponent(email)}/help-link`,
    /** GET: the signed-in account's partner links and the ones removed from it. */
    links: '/api/account/partner-links',
    /** PUT: the owner keeps (confirms) the link; DELETE: drops it for good. */
    link: (partnerCode: string, subject: string) =>
      `/api/account/partner-links/${encodeURIComponent(partnerCode)}/${encodeURIComponent(subject)}`,
  },
} as const;

/**
 * The route pattern of a path builder, for the server: `apiPaths.loginDomain` with 'domain'
 * gives '/api/login-domains/:domain'.
 */
export function routePattern(build: (value: string) => string, name: string): string {
  return build(`:${name}`).replace(encodeURIComponent(`:${name}`), `:${name}`);
}
