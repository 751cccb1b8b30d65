/** The mfa feature's public face: what other features and the surfaces may use. */

export type { MfaDeps } from './mfa.service.ts';
export {
  applyTrustedDevice,
  mfaStatus,
  phoneDelivery,
  regenerateRecoveryCodes,
  registerPhone,
  registerTotp,
  removeUserFactors,
  resendPhoneCode,
  resetMfa,
  trustDevice,
  verifyMfa,
} from './mfa.service.ts';
