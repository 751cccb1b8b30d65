/** Error codes of the admin API (docs/admin-api.md). */
export const adminErrors = {
  /** No bearer token, or one that is unknown, expired, revoked or not for the admin API. */
  unauthenticated: 'admin.unauthenticated',
  /** The operator's role (or tenant scope) does not allow this route on this tenant. */
  forbidden: 'admin.forbidden',
  tenantNotFound: 'admin.tenant_not_found',
  tenantExists: 'admin.tenant_exists',
  /** A domain of another tenant: domains are never taken over. */
  domainTaken: 'admin.domain_taken',
  clientNotFound: 'admin.client_not_found',
  clientExists: 'admin.client_exists',
  /** The tenant's login client cannot be disabled. */
  loginClientRequired: 'admin.login_client_required',
  userNotFound: 'admin.user_not_found',
  operatorExists: 'admin.operator_exists',
  operatorNotFound: 'admin.operator_not_found',
  /** The last owner cannot be removed or given another role: someone must be able to act. */
  lastOwner: 'admin.last_owner',
  partnerNotFound: 'admin.partner_not_found',
  signingKeyNotFound: 'admin.signing_key_not_found',
  /** The key new tokens are signed with cannot be retired: rotate first. */
  signingKeyActive: 'admin.signing_key_active',
  /** The partner code in the body is not the one in the path. */
  partnerCodeMismatch: 'admin.partner_code_mismatch',
  /** An uploaded image whose content is not the type it claims, or an SVG that is not well-formed. */
  imageInvalid: 'admin.image_invalid',
  imageTooLarge: 'admin.image_too_large',
  /**
   * The operator tenant's clients, partners, settings, domains and accounts are not changed
   * through the tenant routes: operators through /operators, the rest by `keycard apply`.
   */
  operatorTenantManaged: 'admin.operator_tenant_managed',
  /** Too many requests from this operator or address (or failed tokens from the address). */
  rateLimited: 'admin.rate_limited',
  /**
   * An address the server would fetch (a partner's key set, the captcha check) that is, or
   * resolves to, a private, loopback or link-local address (SSRF).
   */
  privateAddress: 'admin.private_address',
  /**
   * The client's secret was rotated moments ago (by a request alongside this one): only the
   * first of rotations at once answers a secret, so every secret answered works.
   */
  secretRotatedRecently: 'admin.secret_rotated_recently',
  /** A tenant removal whose confirmation does not repeat the tenant's code. */
  confirmationMismatch: 'admin.confirmation_mismatch',
} as const;
export type AdminErrorCode = (typeof adminErrors)[keyof typeof adminErrors];
