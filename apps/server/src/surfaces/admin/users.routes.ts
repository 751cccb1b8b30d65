import { adminErrors, type ErrorCode, errorCodes, lifecycleErrors } from '@keycard/contract';
import { adminOperations } from '@keycard/contract/admin-paths';
import {
  checkSecretAnswer,
  deleteUser,
  endUserSessions,
  getSecretQuestion,
  getUser,
  inviteAccount,
  listUserPasskeys,
  removeUserPasskey,
  resendActivation,
  resetUserMfa,
  searchUsers,
  setUserDisabled,
  unlockUser,
} from '../../features/admin/index.ts';
import { adminRoute } from './admin-route.ts';

const userErrors: ErrorCode[] = [adminErrors.tenantNotFound, adminErrors.userNotFound];

/**
 * A tenant's accounts: search, invitation, the help desk's actions (passkeys and the secret
 * question among them), erasure.
 */
export const userRoutes = [
  adminRoute(adminOperations.searchUsers, {
    access: { permission: 'users.read' },
    errors: [adminErrors.tenantNotFound],
    handler: async ({ caller: { deps }, params, query }) => searchUsers(deps, params.code, query),
  }),

  adminRoute(adminOperations.inviteUser, {
    access: { permission: 'users.write', operatorTenantManaged: true },
    errors: [
      adminErrors.tenantNotFound,
      lifecycleErrors.inviteAccountExists,
      lifecycleErrors.registerAccountExists,
      errorCodes.redirectNotAllowed,
    ],
    handler: async ({ caller: { deps }, params, body }) => inviteAccount(deps, params.code, body),
  }),

  adminRoute(adminOperations.getUser, {
    access: { permission: 'users.read' },
    errors: userErrors,
    handler: async ({ caller: { deps }, params }) => ({
      user: await getUser(deps, params.code, params.userId),
    }),
  }),

  adminRoute(adminOperations.resendActivation, {
    access: { permission: 'users.write' },
    errors: userErrors,
    handler: async ({ caller: { deps }, params }) => resendActivation(deps, params.code, params.userId),
  }),

  // An operator's account is disabled or enabled by removing or adding the operator.
  adminRoute(adminOperations.disableUser, {
    access: { permission: 'users.write', operatorTenantManaged: true },
    errors: userErrors,
    handler: async ({ caller: { deps }, params }) => setUserDisabled(deps, params.code, params.userId, true),
  }),

  adminRoute(adminOperations.enableUser, {
    access: { permission: 'users.write', operatorTenantManaged: true },
    errors: userErrors,
    handler: async ({ caller: { deps }, params }) => setUserDisabled(deps, params.code, params.userId, false),
  }),

  adminRoute(adminOperations.unlockUser, {
    access: { permission: 'users.write' },
    errors: userErrors,
    handler: async ({ caller: { deps }, params }) => unlockUser(deps, params.code, params.userId),
  }),

  adminRoute(adminOperations.resetUserMfa, {
    access: { permission: 'users.write' },
    errors: userErrors,
    handler: async ({ caller: { deps }, params }) => resetUserMfa(deps, params.code, params.userId),
  }),

  adminRoute(adminOperations.endUserSessions, {
    access: { permission: 'users.write' },
    errors: userErrors,
    handler: async ({ caller: { deps }, params }) => endUserSessions(deps, params.code, params.userId),
  }),

  adminRoute(adminOperations.listUserPasskeys, {
    access: { permission: 'users.read' },
    errors: userErrors,
    handler: async ({ caller: { deps }, params }) => ({
      passkeys: await listUserPasskeys(deps, params.code, params.userId),
    }),
  }),

  // As an MFA reset: available to owners on the operator tenant too.
  adminRoute(adminOperations.removeUserPasskey, {
    access: { permission: 'users.write' },
    errors: userErrors,
    handler: async ({ caller: { deps }, params }) =>
      removeUserPasskey(deps, params.code, params.userId, params.passkeyId),
  }),

  // Only those who may act on the account (help desk and up) check who is calling.
  adminRoute(adminOperations.getSecretQuestion, {
    access: { permission: 'users.write' },
    errors: userErrors,
    handler: async ({ caller: { deps }, params }) => getSecretQuestion(deps, params.code, params.userId),
  }),

  adminRoute(adminOperations.checkSecretAnswer, {
    access: { permission: 'users.write' },
    errors: userErrors,
    handler: async ({ caller: { deps }, params, body }) =>
      checkSecretAnswer(deps, params.code, params.userId, body.answer),
  }),

  adminRoute(adminOperations.deleteUser, {
    access: { permission: 'users.write', operatorTenantManaged: true },
    errors: userErrors,
    handler: async ({ caller: { deps }, params }) => deleteUser(deps, params.code, params.userId),
  }),
];
