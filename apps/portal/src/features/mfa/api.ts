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
import { apiRequest } from '../../lib/api.ts';

/** The MFA calls of SPEC §7, typed by the contract (types only: no zod in the portal). */
export const mfaApi = {
  status: () => apiRequest<MfaStatusResponse>('GET', apiPaths.mfa.status),
  registerTotp: () => apiRequest<RegisterTotpResponse>('POST', apiPaths.mfa.registerTotp, {}),
  registerPhone: (body: RegisterPhoneRequest) =>
    apiRequest<PhoneCodeSentResponse>('POST', apiPaths.mfa.registerPhone, body, { idempotent: true }),
  sendPhoneCode: (deliveryType: PhoneDeliveryType) =>
    apiRequest<PhoneCodeSentResponse>(
      'POST',
      apiPaths.mfa.sendPhoneCode,
      { deliveryType },
      { idempotent: true },
    ),
  delivery: () => apiRequest<PhoneDeliveryResponse>('GET', apiPaths.mfa.delivery),
  verify: (proof: MfaProof) => apiRequest<MfaVerifyResponse>('POST', apiPaths.mfa.verify, proof),
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
