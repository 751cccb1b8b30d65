import { adminErrors, type ErrorCode } from '@keycard/contract';
import { adminOperations } from '@keycard/contract/admin-paths';
import {
  createClient,
  rotateClientSecret,
  setClientDisabled,
  updateClient,
} from '../../features/admin/index.ts';
import { adminRoute } from './admin-route.ts';

const clientErrors: ErrorCode[] = [adminErrors.tenantNotFound, adminErrors.clientNotFound];

/** A tenant's OIDC clients. */
export const clientRoutes = [
  adminRoute(adminOperations.createClient, {
    access: { permission: 'tenants.write', operatorTenantManaged: true },
    errors: [...clientErrors, adminErrors.clientExists, adminErrors.privateAddress],
    handler: async ({ caller: { deps }, params, body }) => createClient(deps, params.code, body),
  }),

  adminRoute(adminOperations.updateClient, {
    access: { permission: 'tenants.write', operatorTenantManaged: true },
    errors: clientErrors,
    handler: async ({ caller: { deps }, params, body }) =>
      updateClient(deps, params.code, params.clientId, body),
  }),

  adminRoute(adminOperations.rotateClientSecret, {
    access: { permission: 'tenants.write', operatorTenantManaged: true },
    errors: [...clientErrors, adminErrors.secretRotatedRecently],
    handler: async ({ caller: { deps }, params }) => rotateClientSecret(deps, params.code, params.clientId),
  }),

  adminRoute(adminOperations.disableClient, {
    access: { permission: 'tenants.write', operatorTenantManaged: true },
    errors: [...clientErrors, adminErrors.loginClientRequired],
    handler: async ({ caller: { deps }, params }) =>
      setClientDisabled(deps, params.code, params.clientId, true),
  }),

  adminRoute(adminOperations.enableClient, {
    access: { permission: 'tenants.write', operatorTenantManaged: true },
    errors: clientErrors,
    handler: async ({ caller: { deps }, params }) =>
      setClientDisabled(deps, params.code, params.clientId, false),
  }),
];
