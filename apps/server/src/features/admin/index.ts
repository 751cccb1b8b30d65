/** The admin feature's public face: what other features and the surfaces may use. */
export type { AdminDeps } from './admin.deps.ts';
export { auditChoices, searchNamedAudit } from './audit.service.ts';
export { createClient, rotateClientSecret, setClientDisabled, updateClient } from './clients.service.ts';
export { listTenantPartners, removeTenantPartner, savePartnerOf } from './partners.service.ts';
export { checkSecretAnswer, getSecretQuestion } from './secret-answer.service.ts';
export { listSigningKeys, retireSigningKey, rotateSigningKey } from './signing-keys.service.ts';
export { withTenantLease } from './tenant-lease.ts';
export {
  changeTenant,
  createTenant,
  deleteTenant,
  getTenant,
  getTenantSummary,
  listTenants,
} from './tenants.service.ts';
export { listUserPasskeys, removeUserPasskey } from './user-passkeys.service.ts';
export {
  deleteUser,
  endUserSessions,
  getUser,
  inviteAccount,
  resendActivation,
  resetUserMfa,
  searchUsers,
  setUserDisabled,
  unlockUser,
} from './users.service.ts';
