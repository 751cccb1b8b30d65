import type {
  AccountActivityResponse,
  AccountOverviewResponse,
  AccountSessionsResponse,
  ChangePasswordResponse,
  EndSessionsResponse,
  ForgetBrowsersResponse,
  ReauthenticateResponse,
  TrustedBrowsersResponse,
} from '@keycard/contract/account';
import { apiPaths } from '@keycard/contract/api-paths';
import type {
  MfaProof,
  MfaVerifyResponse,
  PhoneCodeSentResponse,
  PhoneDeliveryType,
  RecoveryCodesResponse,
} from '@keycard/contract/mfa';
import type {
  PasskeyAssertion,
  PasskeyAttestation,
  PasskeyCreationOptionsResponse,
  PasskeyListResponse,
  PasskeyRequestOptionsResponse,
  PasskeyResponse,
  PasskeyVerifyResponse,
} from '@keycard/contract/passkeys';
import { apiRequest } from '../../lib/api.ts';
import { pageLanguage } from '../../lib/language.ts';

const account = apiPaths.account;
const passkeys = apiPaths.passkeys;

/**
 * The account page's calls (docs/account.md), typed by the contract (types only: no zod in
 * the bundle). The MFA calls it needs (recovery codes, a code to confirm it is you) are made
 * here too, so the page imports no other flow.
 */
export const accountPageApi = {
  overview: () => apiRequest<AccountOverviewResponse>('GET', account.overview),
  changePassword: (currentPassword: string, newPassword: string) =>
    apiRequest<ChangePasswordResponse>('POST', account.password, { currentPassword, newPassword }),
  reauthenticate: (password: string) =>
    apiRequest<ReauthenticateResponse>('POST', account.reauthenticate, { password }),
  sessions: () => apiRequest<AccountSessionsResponse>('GET', account.sessions),
  endSession: (id: string) => apiRequest<object>('DELETE', account.session(id)),
  endOtherSessions: () => apiRequest<EndSessionsResponse>('DELETE', account.sessions),
  signOutOfApp: (clientId: string) => apiRequest<object>('DELETE', account.app(clientId)),
  trustedBrowsers: () => apiRequest<TrustedBrowsersResponse>('GET', account.trustedBrowsers),
  forgetBrowser: (id: string) => apiRequest<object>('DELETE', account.trustedBrowser(id)),
  forgetAllBrowsers: () => apiRequest<ForgetBrowsersResponse>('DELETE', account.trustedBrowsers),
  activity: (cursor?: string) =>
    apiRequest<AccountActivityResponse>(
      'GET',
      `${account.activity}?${new URLSearchParams({ limit: '20', ...(cursor ? { cursor } : {}) })}`,
    ),
  removeFactor: (id: string) => apiRequest<object>('DELETE', account.factor(id)),
  renewRecoveryCodes: () => apiRequest<RecoveryCodesResponse>('POST', apiPaths.mfa.recoveryCodes, {}),
  /** The factor's half of "confirm it's you": a code from the enrolled factor or a recovery code. */
  verifyFactor: (proof: MfaProof) => apiRequest<MfaVerifyResponse>('POST', apiPaths.mfa.verify, proof),
  sendPhoneCode: (deliveryType: PhoneDeliveryType) =>
    apiRequest<PhoneCodeSentResponse>(
      'POST',
      apiPaths.mfa.sendPhoneCode,
      // The text or call in the language the page is in (issue 19, item 14).
      { deliveryType, ...pageLanguage() },
      { idempotent: true },
    ),
  passkeys: () => apiRequest<PasskeyListResponse>('GET', passkeys.list),
  renamePasskey: (id: string, name: string) =>
    apiRequest<PasskeyResponse>('PATCH', passkeys.item(id), { name }),
  removePasskey: (id: string) => apiRequest<object>('DELETE', passkeys.item(id)),
  passkeyCreationOptions: () =>
    apiRequest<PasskeyCreationOptionsResponse>('POST', passkeys.registrationOptions, {}),
  registerPasskey: (credential: PasskeyAttestation) =>
    apiRequest<PasskeyResponse>('POST', passkeys.register, { credential }),
  passkeyVerifyOptions: () => apiRequest<PasskeyRequestOptionsResponse>('POST', passkeys.verifyOptions, {}),
  verifyPasskey: (credential: PasskeyAssertion) =>
    apiRequest<PasskeyVerifyResponse>('POST', passkeys.verify, { credential }),
};
