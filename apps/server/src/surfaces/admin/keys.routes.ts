import { adminErrors } from '@keycard/contract';
import { adminOperations } from '@keycard/contract/admin-paths';
import {
  getTenantSummary,
  listSigningKeys,
  retireSigningKey,
  rotateSigningKey,
} from '../../features/admin/index.ts';
import { adminRoute } from './admin-route.ts';

/** A tenant's token signing keys. */
export const keyRoutes = [
  adminRoute(adminOperations.listSigningKeys, {
    access: { permission: 'tenants.read' },
    errors: [adminErrors.tenantNotFound],
    handler: async ({ caller: { deps }, params }) => {
      await getTenantSummary(deps, params.code);
      return { keys: await listSigningKeys(deps.db, params.code) };
    },
  }),

  adminRoute(adminOperations.rotateSigningKey, {
    access: { permission: 'tenants.write' },
    errors: [adminErrors.tenantNotFound],
    handler: async ({ caller: { deps }, params }) => {
      await getTenantSummary(deps, params.code);
      const keys = await rotateSigningKey(deps, params.code);
      deps.tenants.invalidate(params.code);
      return { keys };
    },
  }),

  adminRoute(adminOperations.retireSigningKey, {
    access: { permission: 'tenants.write' },
    errors: [adminErrors.tenantNotFound, adminErrors.signingKeyNotFound, adminErrors.signingKeyActive],
    handler: async ({ caller: { deps }, params }) => {
      await getTenantSummary(deps, params.code);
      const keys = await retireSigningKey(deps, params.code, params.kid);
      deps.tenants.invalidate(params.code);
      return { keys };
    },
  }),
];
