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
  status: () => apiRequest<MfaStatusResponse>('GET', '/api/mfa/status'),
  registerTotp: () => apiRequest<RegisterTotpResponse>('POST', '/api/mfa/register-totp', {}),
  registerPhone: (body: RegisterPhoneRequest) =>
    apiRequest<PhoneCodeSentResponse>('POST', '/api/mfa/register-phone', body),
  sendPhoneCode: (deliveryType: PhoneDeliveryType) =>
    apiRequest<PhoneCodeSentResponse>('POST', '/api/mfa/send-phone-code', { deliveryType }),
  delivery: () => apiRequest<PhoneDeliveryResponse>('GET', '/api/mfa/delivery'),
  verify: (proof: MfaProof) => apiRequest<MfaVerifyResponse>('POST', '/api/mfa/verify', proof),
  userDeviceToken: () => apiRequest<DeviceTokenResponse>('POST', '/api/mfa/user-device-tokens', {}),
  recoveryCodes: () => apiRequest<RecoveryCodesResponse>('POST', '/api/mfa/recovery-codes', {}),
  reset: (proof: MfaProof, redirectUri?: string) =>
    apiRequest<MfaResetResponse>('POST', '/api/mfa/reset', {
      proof,
      ...(redirectUri ? { redirectUri } : {}),
    }),
};
