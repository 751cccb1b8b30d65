/** The accounts feature's public face: what other features and the surfaces may use. */
export { removeLinks } from './account-claim.ts';
export { accountLink } from './account-mail.ts';
export { deleteAccount, disableAccount, enableAccount } from './account-status.service.ts';
export {
  activateAccount,
  checkActivationToken,
  checkRegistrationToken,
  registerAccount,
} from './activation.service.ts';
export type { AccountActivityTable } from './activity.schema.ts';
export type { ActivityDetail, ActivityInput } from './activity.ts';
export { activityRetentionMs, listActivity, pruneActivity, recordActivity } from './activity.ts';
export {
  applyVerificationPolicy,
  checkVerificationToken,
  sendVerificationMail,
  verifyEmailAddress,
} from './email-verification.service.ts';
export { createRegistrationLink, inviteUser, queueActivation } from './invitation.service.ts';
export { insertUser } from './lifecycle.repository.ts';
export {
  admitHashing,
  hashPassword,
  isLeakedPassword,
  loadLeakedPasswords,
  needsRehash,
  useHashingQueue,
  usePasswordHashing,
  verifyDummyPassword,
  verifyPassword,
} from './password.service.ts';
export type { PasswordChange } from './password-change.service.ts';
export { changePassword } from './password-change.service.ts';
export { normalizeSecretAnswer } from './password-policy.ts';
export {
  applyPasswordReset,
  checkResetToken,
  limitMailRequests,
  requestActivationResend,
  requestPasswordReset,
} from './password-reset.service.ts';
export type { SecurityMailEvent, SecurityMailRequest } from './security-mail.ts';
export { securityMailLinks, sendSecurityMail } from './security-mail.ts';
export type { UserRow } from './user.repository.ts';
export {
  createUser,
  findUserByEmail,
  findUserById,
  lockAccount,
  upgradePasswordHash,
} from './user.repository.ts';
