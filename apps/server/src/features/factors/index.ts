/** The factors feature's public face: what other features and the surfaces may use. */
export {
  deviceIdForApps,
  findTrustedDeviceId,
  issueDeviceToken,
  isTrustedDevice,
  removeDevices,
} from './device.service.ts';
export { mfaError } from './mfa.errors.ts';
export type { FactorRow, FactorType, MfaCheckMethod } from './mfa.schema.ts';
export type { MfaFacts } from './mfa-policy.ts';
export {
  effectiveMfaMode,
  findActiveFactor,
  freshVerificationMs,
  mfaRequiredByRemainingInDays,
} from './mfa-policy.ts';
export type { PhoneDeps } from './phone.service.ts';
export {
  checkPhoneCode,
  createPendingPhoneFactor,
  latestDelivery,
  recordCallStatus,
  sendPhoneCode,
} from './phone.service.ts';
export { checkPhoneNumber, maskPhone } from './phone-number.ts';
export { countRecoveryCodes, redeemRecoveryCode, replaceRecoveryCodes } from './recovery.service.ts';
export type { TotpRegistration } from './totp.service.ts';
export { checkTotp, pendingRegistrationTtlMs, startTotpRegistration } from './totp.service.ts';
