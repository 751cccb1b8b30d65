import { z } from 'zod';
import { redirectUriSchema } from './validation.ts';

/**
 * Partner single sign-on (SPEC §1–§4, §7; docs/partners.md): a partner application signs a
 * short-lived JWT for a user, the portal trades it for a Keycard session of the product's own
 * auth (`authx`), and after every required step hands a one-time code back to the app, which
 * the app redeems at the tenant's /oidc/token (OAuth 2.0 Token Exchange, RFC 8693).
 */

/** Signature algorithms a partner may use: asymmetric only, never `none` or HS*. */
export const partnerAlgorithms = ['RS256', 'ES256', 'EdDSA'] as const;
export type PartnerAlgorithm = (typeof partnerAlgorithms)[number];

/**
 * What a partner's first sign-in for a subject may do:
 * - link-verified-email: link to the tenant's account with the same e-mail, only when the
 *   partner says the address is verified and Keycard has verified it too;
 * - provision: as above, else create an account for the address;
 * - existing-only: only subjects linked before (by an operator) may sign in.
 */
export const partnerLinkingPolicies = ['link-verified-email', 'provision', 'existing-only'] as const;
export type PartnerLinkingPolicy = (typeof partnerLinkingPolicies)[number];

/** A partner token lives at most this long (`exp` − `iat`). */
export const partnerTokenMaxLifetimeSeconds = 300;
/** Clock skew tolerated on `iat`, `nbf` and `exp`. */
export const partnerTokenClockToleranceSeconds = 30;
/** The one-time hand-off code lives this long. */
export const partnerHandoffLifetimeSeconds = 60;

/** RFC 8693 token exchange as Keycard speaks it at /oidc/token. */
export const tokenExchange = {
  grantType: 'urn:ietf:params:oauth:grant-type:token-exchange',
  /** subject_token_type of a hand-off code from POST /api/partners/{partnerCode}/generate-token. */
  handoffCodeType: 'urn:keycard:params:oauth:token-type:handoff-code',
  /**
   * issued_token_type of the answer (RFC 8693 §2.2.1 describes the access_token field): an
   * opaque access token that works at /oidc/me; the ID token rides beside it as id_token.
   */
  accessTokenType: 'urn:ietf:params:oauth:token-type:access_token',
  /**
   * The ID token's type (RFC 8693 §3). Not issued on its own: the answer's id_token rides beside
   * the access token, and requested_token_type may only name the access token type.
   */
  idTokenType: 'urn:ietf:params:oauth:token-type:id_token',
} as const;

const partnerCode = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9][a-z0-9-]*$/, 'lower-case letters, digits and dashes');
const httpUrl = z
  .url()
  .max(2048)
  .refine((value) => /^https?:\/\//.test(value), 'an http(s) URL');

/** A JSON Web Key Set as partners publish it (RFC 7517 §5): public keys only. */
export const partnerJwksSchema = z.object({
  keys: z
    .array(
      z
        .object({ kty: z.enum(['RSA', 'EC', 'OKP']), kid: z.string().max(256).optional() })
        .catchall(z.unknown())
        .refine((key) => !('d' in key), 'public keys only (no "d")'),
    )
    .min(1)
    .max(20),
});
export type PartnerJwks = z.infer<typeof partnerJwksSchema>;

/** A partner as the CLI (and later the admin API and `keycard apply`) writes it. */
export const partnerConfigSchema = z
  .object({
    code: partnerCode,
    displayName: z.string().min(1).max(120),
    issuer: z.string().min(1).max(2048),
    jwksUri: httpUrl.nullable(),
    jwks: partnerJwksSchema.nullable(),
    algorithms: z.array(z.enum(partnerAlgorithms)).min(1),
    linking: z.enum(partnerLinkingPolicies),
    /** Where hand-off codes may go: redirect targets by the clients' rule (no javascript:, data:, …). */
    redirectUris: z.array(redirectUriSchema).max(50),
    /** `{email}` and `{partnerCode}` are replaced (URL-encoded). */
    helpUrlTemplate: httpUrl.nullable(),
    /**
     * Partner sign-ins skip the tenant's MFA policy. A user with an enrolled factor is still
     * asked, and so is one who passed MFA within the tenant's trustedDeviceDays (issue 16).
     */
    skipMfa: z.boolean(),
  })
  .refine((partner) => (partner.jwksUri === null) !== (partner.jwks === null), {
    message: 'exactly one of jwksUri and jwks',
    path: ['jwksUri'],
  });
export type PartnerConfig = z.infer<typeof partnerConfigSchema>;

/** The claims Keycard reads from a partner token, after its signature and times are checked. */
export const partnerTokenClaimsSchema = z.object({
  sub: z.string().min(1).max(255),
  jti: z.string().min(1).max(255),
  iat: z.number().int(),
  exp: z.number().int(),
  email: z.string().max(254).optional(),
  email_verified: z.boolean().optional(),
  locale: z.string().max(16).optional(),
  given_name: z.string().max(120).optional(),
  family_name: z.string().max(120).optional(),
});
export type PartnerTokenClaims = z.infer<typeof partnerTokenClaimsSchema>;

/** POST /api/partners/{partnerCode}/sso */
export const partnerSsoRequest = z.object({
  token: z.string().min(1).max(8192),
  /**
   * The device id (AUTH_X_DEVICE_ID), as at /api/authenticate: a device the user trusted after
   * MFA within the tenant's period passes MFA for this sign-in too (SPEC §9).
   */
  userDeviceToken: z.string().max(256).optional(),
});
/**
 * The partner identity token (SPEC §3 "Partner SSO result"): bound to the session it opened;
 * the portal keeps it for generate-token. The session itself stays in the HttpOnly cookie.
 */
export const partnerSsoResponse = z.object({ token: z.string(), tenantCode: z.string() });
export type PartnerSsoResponse = z.infer<typeof partnerSsoResponse>;

/** POST /api/partners/{partnerCode}/generate-token */
export const generateTokenRequest = z.object({
  token: z.string().min(1).max(256),
  /** Where the code goes: registered for the partner or the tenant (exact match). */
  redirectUri: z.string().max(2048).optional(),
});
/** The one-time hand-off code, its tenant, and the registered address it is bound to. */
export const generateTokenResponse = z.object({
  token: z.string(),
  tenantCode: z.string(),
  redirectUri: z.string(),
});
export type GenerateTokenResponse = z.infer<typeof generateTokenResponse>;

/** GET /api/partners/{partnerCode}/users/{email}/help-link: the same for every address. */
export const helpLinkResponse = z.object({ url: z.string().nullable() });
export type HelpLinkResponse = z.infer<typeof helpLinkResponse>;

/**
 * The audit action of a partner sign-in (docs/partners.md#audit): one entry per attempt that
 * reached a registered partner, with the partner, the token's subject (when it verified), the
 * account (when one was found) and the result, `success` or the refusal's error code.
 */
export const partnerAuditActions = { signIn: 'partner.sign_in' } as const;

/** How a partner subject came to be linked to an account. */
export const partnerLinkMethods = ['verified-email', 'provisioned', 'operator'] as const;

/** One partner link of the signed-in account (GET /api/account/partner-links). */
export const partnerLinkSchema = z.object({
  partnerCode: z.string(),
  partnerName: z.string(),
  subject: z.string(),
  method: z.enum(partnerLinkMethods),
  linkedAt: z.number().int(),
  lastSignInAt: z.number().int().nullable(),
  /**
   * When the account's owner confirmed the link (kept it, or it was made on an address
   * verified on both sides for an account the owner holds a password for); null: never. An
   * unconfirmed link is removed when the mailbox owner claims the account (docs/partners.md).
   */
  confirmedAt: z.number().int().nullable(),
});
export type PartnerLink = z.infer<typeof partnerLinkSchema>;

/** A subject removed from the account (by its owner or by a claim): it is not linked again. */
export const removedPartnerLinkSchema = z.object({
  partnerCode: z.string(),
  subject: z.string(),
  removedAt: z.number().int(),
  reason: z.enum(['owner', 'claim']),
});

export const partnerLinksResponse = z.object({
  links: z.array(partnerLinkSchema),
  removed: z.array(removedPartnerLinkSchema),
});
export type PartnerLinksResponse = z.infer<typeof partnerLinksResponse>;

/** The path parameters of PUT/DELETE /api/account/partner-links/{partnerCode}/{subject}. */
export const partnerLinkParams = z.object({
  partnerCode: z.string().min(1).max(64),
  subject: z.string().min(1).max(255),
});

/** PUT (kept) and DELETE (removed) answer the account's links as they now stand. */
export const partnerLinkChangeResponse = partnerLinksResponse;
