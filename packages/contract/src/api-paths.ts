// API paths of every portal call (SPEC §7), so neither side types a URL twice. No zod here:
// the portal imports this at run time. Each flow's paths are an object of their own module,
// composed here: the portal's login route imports only the ones it calls (`signInApi`,
// `partnerApi`, `passkeyApi`), so its entry does not carry every flow's paths.
import { accountApi } from './account-api.ts';
import { lifecycleApi } from './lifecycle-api.ts';
import { partnerApi } from './partner-api.ts';
import { passkeyApi } from './passkey-api.ts';
import { signInApi } from './sign-in-api.ts';

export const apiPaths = {
  ...signInApi,
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
  passkeys: passkeyApi,
  account: accountApi,
  partners: partnerApi,
} as const;

/**
 * The route pattern of a path builder, for the server: `apiPaths.loginDomain` with 'domain'
 * gives '/api/login-domains/:domain'.
 */
export function routePattern(build: (value: string) => string, name: string): string {
  return build(`:${name}`).replace(encodeURIComponent(`:${name}`), `:${name}`);
}
