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
export {
  applyPasswordReset,
  checkResetToken,
  limitMailRequests,
  requestActivationResend,
  requestPasswordReset,
} from './password-reset.service.ts';
export type { UserRow } from './user.repository.ts';
export { createUser, findUserByEmail, findUserById, upgradePasswordHash } from './user.repository.ts';
