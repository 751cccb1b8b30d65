/** The tenants feature's public face: what other features and the surfaces may use. */
export { captchaPageSources, captchaSettingsOf, verifyCaptcha } from './captcha.ts';
export { assertProductionRedirects, productionRedirectProblems, resolveRedirect } from './redirects.ts';
export type { TenantDefinition } from './tenant.admin.ts';
export { updateTenantSettings, upsertTenant } from './tenant.admin.ts';
export { isAllowedRedirect, issuerFor, parseStoredTheme, TenantDirectory } from './tenant.service.ts';
export type { ClientMetadata, MfaMode, PasskeyMode, TenantContext, TenantSettings } from './tenant.types.ts';
export { defaultTenantSettings, offeredMfaMethods } from './tenant.types.ts';
export { forUpdate, keyShareLock, retryOnDeadlock, tenantGoneAnswer } from './tenant-gone.ts';
export { nextTenantVersion, raiseTenantVersion } from './tenant-version.ts';
