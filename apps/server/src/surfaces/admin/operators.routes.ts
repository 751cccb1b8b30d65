import { adminErrors, errorCodes, lifecycleErrors, operatorTenantCode } from '@keycard/contract';
import { adminOperations } from '@keycard/contract/admin-paths';
import {
  changeOperator,
  createMachineClient,
  describeOperator,
  inviteOperator,
  listOperators,
  removeOperator,
} from '../../features/operators/index.ts';
import { adminRoute } from './admin-route.ts';

/** Who the token acts as. */
export const meRoute = adminRoute(adminOperations.getMe, {
  access: { permission: null },
  errors: [],
  handler: async ({ caller }) => describeOperator(caller.operator),
});

/** Operators: people and machine clients of the operator tenant, and their roles. */
export const operatorRoutes = [
  adminRoute(adminOperations.listOperators, {
    access: { permission: 'operators.manage' },
    errors: [],
    handler: async ({ caller: { deps } }) => ({ operators: await listOperators(deps.db) }),
  }),

  adminRoute(adminOperations.createMachineOperator, {
    access: { permission: 'operators.manage' },
    errors: [adminErrors.operatorExists, adminErrors.clientExists],
    handler: async ({ caller: { deps }, body }) => {
      const { operator, secret } = await createMachineClient(deps, body, deps.now);
      deps.tenants.invalidate(operatorTenantCode);
      return { operator, clientId: body.clientId, secret };
    },
  }),

  adminRoute(adminOperations.inviteOperator, {
    access: { permission: 'operators.manage' },
    errors: [
      adminErrors.operatorExists,
      lifecycleErrors.inviteAccountExists,
      lifecycleErrors.registerAccountExists,
      errorCodes.redirectNotAllowed,
    ],
    handler: async ({ caller: { deps }, body }) => inviteOperator(deps, body, deps.now),
  }),

  adminRoute(adminOperations.updateOperator, {
    access: { permission: 'operators.manage' },
    errors: [adminErrors.operatorNotFound, adminErrors.lastOwner],
    handler: async ({ caller: { deps }, params, body }) => ({
      operator: await changeOperator(deps, params.id, body, deps.now),
    }),
  }),

  adminRoute(adminOperations.removeOperator, {
    access: { permission: 'operators.manage' },
    errors: [adminErrors.operatorNotFound, adminErrors.lastOwner],
    handler: async ({ caller: { deps }, params }) => {
      await removeOperator(deps, params.id, deps.now);
      deps.tenants.invalidate(operatorTenantCode);
      return {};
    },
  }),
];
