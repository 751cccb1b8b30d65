import { apiPaths } from '@keycard/contract/api-paths';
import type {
  DeviceTokenResponse,
  MfaProof,
  MfaResetResponse,
  MfaStatusResponse,
  MfaVerifyResponse,
  PhoneCodeSentResponse,
  PhoneDeliveryResponse,
  PhoneDeliveryType,
  RecoveryCodesResponse,
  RegisterPhoneRequest,
  RegisterTotpResponse,
} from '@keycard/contract/mfa';
import type {
  PasskeyAssertion,
  PasskeyListResponse,
  PasskeyRequestOptionsResponse,
  PasskeyVerifyResponse,
} from '@keycard/contract/passkeys';
import { apiRequest } from '../../lib/api.ts';
import { pageLanguage } from '../../lib/language.ts';

/** The MFA calls of SPEC §7, typed by the contract (types only: no zod in the portal). */
export const mfaApi = {
  status: () => apiRequest<MfaStatusResponse>('GET', apiPaths.mfa.status),
  registerTotp: () => apiRequest<RegisterTotpResponse>('POST', apiPaths.mfa.registerTotp, {}),
  /** The code goes out in the page's language (langCode), as a mail asked for here would. */
  registerPhone: (body: Omit<RegisterPhoneRequest, 'langCode'>) =>
    apiRequest<PhoneCodeSentResponse>(
      'POST',
      apiPaths.mfa.registerPhone,
      { ...body, ...pageLanguage() },
      { idempotent: true },
    ),
  sendPhoneCode: (deliveryType: PhoneDeliveryType) =>
    apiRequest<PhoneCodeSentResponse>(
      'POST',
      apiPaths.mfa.sendPhoneCode,
      { deliveryType, ...pageLanguage() },
      { idempotent: true },
    ),
  delivery: () => apiRequest<PhoneDeliveryResponse>('GET', apiPaths.mfa.delivery),
  verify: (proof: MfaProof) => apiRequest<MfaVerifyResponse>('POST', apiPaths.mfa.verify, proof),
  /** The account's passkeys and security keys (is one usable on this domain?). */
  passkeys: () => apiRequest<PasskeyListResponse>('GET', apiPaths.passkeys.list),
  /** A challenge for one of the account's passkeys or security keys on this domain. */
  passkeyOptions: () =>
    apiRequest<PasskeyRequestOptionsResponse>('POST', apiPaths.passkeys.verifyOptions, {}),
  /** Passes MFA with the passkey's or security key's assertion (docs/passkeys.md). */
  passkeyVerify: (credential: PasskeyAssertion) =>
    apiRequest<PasskeyVerifyResponse>('POST', apiPaths.passkeys.verify, { credential }),
  userDeviceToken: () => apiRequest<DeviceTokenResponse>('POST', apiPaths.mfa.userDeviceTokens, {}),
  recoveryCodes: () => apiRequest<RecoveryCodesResponse>('POST', apiPaths.mfa.recoveryCodes, {}),
  reset: (proof: MfaProof, redirectUri?: string) =>
    apiRequest<MfaResetResponse>('POST', apiPaths.mfa.reset, {
      proof,
      ...(redirectUri ? { redirectUri } : {}),
    }),
  /**
   * Reset for the partner app: the proof is the number challenge this session just had
   * approved on the device (its fresh MFA check). The contract's mfaProof does not list this
   * shape yet (requested), hence the body typed here.
   */
  resetAfterApproval: (challengeId: string, redirectUri?: string) =>
    apiRequest<MfaResetResponse>('POST', apiPaths.mfa.reset, {
      proof: { challengeId },
      ...(redirectUri ? { redirectUri } : {}),
    }),
};
