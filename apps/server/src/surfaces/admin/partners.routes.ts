import { adminErrors } from '@keycard/contract';
import { adminOperations } from '@keycard/contract/admin-paths';
import { listTenantPartners, removeTenantPartner, savePartnerOf } from '../../features/admin/index.ts';
import { assertOutboundUrl } from '../../platform/security/outbound.ts';
import { AppError } from '../../platform/shared/errors.ts';
import { adminRoute } from './admin-route.ts';

/** A tenant's SSO partners (docs/partners.md). */
export const partnerRoutes = [
  adminRoute(adminOperations.listPartners, {
    access: { permission: 'tenants.read' },
    errors: [adminErrors.tenantNotFound],
    handler: async ({ caller: { deps }, params }) => ({
      partners: await listTenantPartners(deps, params.code),
    }),
  }),

  adminRoute(adminOperations.savePartner, {
    // A partner's keys, issuer, linking and skipMfa decide whom Keycard accepts as a user: a
    // scoped operator who could write them could sign in as any account of its tenant.
    access: { permission: 'partners.write', operatorTenantManaged: true },
    errors: [adminErrors.tenantNotFound, adminErrors.partnerCodeMismatch, adminErrors.privateAddress],
    handler: async ({ caller: { deps }, params, body: partner }) => {
      if (partner.code !== params.partnerCode) throw new AppError(adminErrors.partnerCodeMismatch);
      assertOutboundUrl('jwksUri', partner.jwksUri, deps.config.allowPrivateOutbound);
      return savePartnerOf(deps, params.code, {
        ...partner,
        displayName: partner.displayName ?? partner.code,
      });
    },
  }),

  adminRoute(adminOperations.removePartner, {
    access: { permission: 'partners.write', operatorTenantManaged: true },
    errors: [adminErrors.tenantNotFound, adminErrors.partnerNotFound],
    handler: async ({ caller: { deps }, params }) =>
      removeTenantPartner(deps, params.code, params.partnerCode),
  }),
];
