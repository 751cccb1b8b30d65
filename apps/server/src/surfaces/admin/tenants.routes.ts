import { adminErrors, type ErrorCode, errorCodes } from '@keycard/contract';
import { type AdminImageSlot, adminOperations } from '@keycard/contract/admin-paths';
import type { z } from 'zod';
import type { AdminDeps } from '../../features/admin/index.ts';
import {
  changeTenant,
  createTenant,
  deleteTenant,
  getTenant,
  listTenants,
} from '../../features/admin/index.ts';
import { checkImage, storeImage, uploadContentTypes } from '../../features/assets/index.ts';
import { assertOutboundAddresses } from '../../platform/security/outbound.ts';
import { AppError } from '../../platform/shared/errors.ts';
import { scopeOf } from './admin-auth.ts';
import { adminRoute } from './admin-route.ts';

type TenantSettingsInput = z.output<typeof adminOperations.updateTenantSettings.body>;

/** What a change of a tenant's stored definition can answer (the planner `keycard apply` uses too). */
const changeErrors: ErrorCode[] = [
  adminErrors.tenantNotFound,
  adminErrors.domainTaken,
  adminErrors.clientNotFound,
  adminErrors.clientExists,
  adminErrors.loginClientRequired,
  adminErrors.privateAddress,
];

/**
 * Addresses the server posts the captcha secret to, or pages load scripts from, are set by
 * owners only: a tenant admin could otherwise send the secret (and the verdicts) to a server
 * of its own, or reach addresses inside the network from Keycard's.
 */
function assertNoNewOutsideAddress(current: TenantSettingsInput, next: TenantSettingsInput): void {
  const changed = (before: unknown, after: unknown) => after !== undefined && after !== before;
  if (
    changed(current.captcha?.verifyUrl, next.captcha?.verifyUrl) ||
    changed(current.captcha?.scriptUrl, next.captcha?.scriptUrl) ||
    changed(current.messenger?.scriptUrl, next.messenger?.scriptUrl)
  ) {
    throw new AppError(adminErrors.forbidden);
  }
}

/** A theme image, checked by its content, stored, and set on the tenant's theme. */
async function uploadImage(
  deps: AdminDeps,
  code: string,
  slot: AdminImageSlot,
  contentType: string,
  bytes: Buffer,
) {
  const declared = uploadContentTypes[(contentType.split(';')[0] ?? '').trim()];
  if (!declared) throw new AppError(errorCodes.unsupportedMediaType);
  const image = checkImage(slot, declared, bytes);
  return changeTenant(deps, code, async (tenant) => {
    const url = await storeImage(deps.db, code, declared, image, deps.now);
    return { ...tenant, theme: { ...tenant.theme, images: { ...tenant.theme.images, [slot]: url } } };
  });
}

const imageErrors: ErrorCode[] = [
  adminErrors.tenantNotFound,
  adminErrors.imageInvalid,
  adminErrors.imageTooLarge,
];

/** Tenants: their fields, domains, theme (and its images) and settings. */
export const tenantRoutes = [
  adminRoute(adminOperations.listTenants, {
    access: { permission: 'tenants.read' },
    errors: [],
    handler: async ({ caller }) => ({ tenants: await listTenants(caller.deps.db, scopeOf(caller.operator)) }),
  }),

  adminRoute(adminOperations.createTenant, {
    access: { permission: 'tenants.create' },
    errors: [adminErrors.tenantExists, ...changeErrors],
    handler: async ({ caller: { deps }, body }) => {
      assertOutboundAddresses(body, deps.config.allowPrivateOutbound);
      return createTenant(deps, body);
    },
  }),

  adminRoute(adminOperations.getTenant, {
    access: { permission: 'tenants.read' },
    errors: [adminErrors.tenantNotFound],
    handler: async ({ caller: { deps }, params }) => getTenant(deps.db, params.code),
  }),

  adminRoute(adminOperations.updateTenant, {
    access: { permission: 'tenants.write', operatorTenantManaged: true },
    errors: changeErrors,
    handler: async ({ caller: { deps }, params, body: { defaultRedirectUri, ...rest } }) =>
      changeTenant(deps, params.code, (tenant) => ({
        ...tenant,
        ...rest,
        // null or '': none, the signed-in landing; left out: kept.
        ...(defaultRedirectUri === undefined ? {} : { defaultRedirectUri: defaultRedirectUri || undefined }),
      })),
  }),

  adminRoute(adminOperations.replaceTenantDomains, {
    access: { permission: 'tenants.write', operatorTenantManaged: true, ownerOnly: true },
    errors: changeErrors,
    handler: async ({ caller: { deps }, params, body }) =>
      changeTenant(deps, params.code, (tenant) => ({ ...tenant, ...body })),
  }),

  adminRoute(adminOperations.replaceTheme, {
    access: { permission: 'tenants.write' },
    errors: changeErrors,
    handler: async ({ caller: { deps }, params, body }) =>
      changeTenant(deps, params.code, (tenant) => ({ ...tenant, theme: body })),
  }),

  adminRoute(adminOperations.uploadThemeLogo, {
    access: { permission: 'tenants.write' },
    errors: imageErrors,
    handler: async ({ caller: { deps }, request, params, body }) =>
      uploadImage(deps, params.code, 'logo', String(request.headers['content-type']), body),
  }),

  adminRoute(adminOperations.uploadThemeBackground, {
    access: { permission: 'tenants.write' },
    errors: imageErrors,
    handler: async ({ caller: { deps }, request, params, body }) =>
      uploadImage(deps, params.code, 'background', String(request.headers['content-type']), body),
  }),

  adminRoute(adminOperations.uploadThemeFavicon, {
    access: { permission: 'tenants.write' },
    errors: imageErrors,
    handler: async ({ caller: { deps }, request, params, body }) =>
      uploadImage(deps, params.code, 'favicon', String(request.headers['content-type']), body),
  }),

  adminRoute(adminOperations.updateTenantSettings, {
    access: { permission: 'tenants.write', operatorTenantManaged: true },
    errors: [...changeErrors, adminErrors.forbidden],
    handler: async ({ caller, params, body: settings }) =>
      changeTenant(caller.deps, params.code, (tenant) => {
        if (caller.operator.role !== 'owner') assertNoNewOutsideAddress(tenant.settings, settings);
        assertOutboundAddresses({ settings }, caller.deps.config.allowPrivateOutbound);
        return { ...tenant, settings };
      }),
  }),
];

/** Last in the table: the role matrix test calls routes in this order, on one tenant per role. */
export const deleteTenantRoute = adminRoute(adminOperations.deleteTenant, {
  access: { permission: 'tenants.create', operatorTenantManaged: true, ownerOnly: true },
  errors: [adminErrors.tenantNotFound, adminErrors.confirmationMismatch],
  handler: async ({ caller: { deps }, params, body }) => deleteTenant(deps, params.code, body.confirm),
});
