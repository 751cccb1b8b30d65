/** The mfa feature's public face: what other features and the surfaces may use. */

export { removeUserFactors, resetUserMfa } from './factor-removal.ts';

export type { MfaDeps } from './mfa.service.ts';
export {
  applyTrustedDevice,
  mfaStatus,
  phoneDelivery,
  regenerateRecoveryCodes,
  registerPhone,
  registerTotp,
  resendPhoneCode,
  resetMfa,
  trustDevice,
  verifyMfa,
} from './mfa.service.ts';
export type { MfaSeen } from './security-notice.ts';
