import { z } from 'zod';
import { passkeyModes } from './passkeys.ts';
import { themeCornerRadius, themeFonts, themeLogoHeight } from './theme-bounds.ts';
import { themeTextsSchema } from './theme-texts.ts';
import { identityProviders, locales, userStates, userTypes } from './user-state.ts';
import { emailSchema, loginPasswordSchema } from './validation.ts';

const hexColour = z.string().regex(/^#[0-9a-fA-F]{3,8}$/);

/**
 * Where a theme image may come from: an https URL, an http URL (development), a root-relative
 * path on the tenant's own host (the admin API's uploads, `/_keycard/assets/<tenant>/<id>.<type>`,
 * and files the portal serves), or nothing (empty). Nothing else: no `javascript:`, `data:` or
 * `file:` address, and no protocol-relative `//host` (nor `/\host`, which browsers read the
 * same way), so a theme cannot point a page's logo or icon somewhere the operator did not name.
 * A root-relative path has no `.` or `..` segment either (nor `%2e`, which URL parsers read as a
 * dot): `/..//host/x` and `/.//host/x` resolve to the path `//host/x`, which is `//host` again
 * wherever the resolved path is written out as an address of its own.
 */
// Printable ASCII without space or backslash ([!-[\]-~]); after the scheme, not a second slash.
const themeImageUrlPattern = /^(?:https?:\/\/[!-.0-[\]-~]|\/(?![/\\])|$)[!-[\]-~]*$/;
const dotSegment = /(?:^|\/)(?:\.|%2e){1,2}(?:\/|$)/i;
const parsesAsUrl = (value: string) => value === '' || URL.canParse(value, 'https://tenant.invalid');
const hasNoDotSegment = (value: string) =>
  !value.startsWith('/') || !dotSegment.test(value.split(/[?#]/)[0] ?? '');
const themeImageUrlMessage = 'an https or http URL, a path starting with a single /, or empty for none';

export function isThemeImageUrl(value: string): boolean {
  return themeImageUrlPattern.test(value) && parsesAsUrl(value) && hasNoDotSegment(value);
}

/** The pattern is what the JSON Schema tells editors; the checks after it catch what it lets through. */
export const themeImageUrlSchema = z
  .string()
  .max(2048)
  .regex(themeImageUrlPattern, themeImageUrlMessage)
  .refine(
    (value) => !themeImageUrlPattern.test(value) || (parsesAsUrl(value) && hasNoDotSegment(value)),
    themeImageUrlMessage,
  );

/**
 * A theme's help and support links, which the portal shows as links: web addresses only, with
 * `//` after the scheme. A `javascript:` or `data:` address would run (or draw) in the portal's
 * own origin when a visitor follows it.
 */
export const themeLinkUrlSchema = z.url({ protocol: /^https?$/ }).max(2048);

export function isThemeLinkUrl(value: string): boolean {
  return themeLinkUrlSchema.safeParse(value).success;
}

export const themeSchema = z.object({
  name: z.string().min(1).max(120),
  images: z.object({
    favicon: themeImageUrlSchema,
    logo: themeImageUrlSchema,
    /** Behind the page around the card; absent or empty: the page's colour alone. */
    background: themeImageUrlSchema.optional(),
  }),
  /** The font stack (themeFonts); absent: `system`, the portal's own. */
  font: z.enum(themeFonts).optional(),
  /** Absent: 8, the portal's own. */
  cornerRadius: z.number().int().min(themeCornerRadius.min).max(themeCornerRadius.max).optional(),
  /** Absent: 40, the portal's own. */
  logoHeight: z.number().int().min(themeLogoHeight.min).max(themeLogoHeight.max).optional(),
  /**
   * A dark scheme for visitors whose device asks for one (`prefers-color-scheme: dark`),
   * derived from the colours (contrast.ts darkSchemeVariables). Absent or false: the light
   * page on every device, as before.
   */
  darkScheme: z.boolean().optional(),
  colours: z.object({
    primaryBackground: hexColour,
    primaryForeground: hexColour,
    secondaryBackground: hexColour,
    secondaryForeground: hexColour,
    tertiaryBackground: hexColour,
    tertiaryForeground: hexColour,
  }),
  links: z.object({
    loginHelpUrl: themeLinkUrlSchema.nullable(),
    contactSupportUrl: themeLinkUrlSchema.nullable(),
  }),
  /** Per-language text overrides (theme-texts.ts); absent or empty: the catalogue's texts. */
  texts: themeTextsSchema.optional(),
});
export type Theme = z.infer<typeof themeSchema>;

export const tenantSchema = z.object({
  code: z.string(),
  aliasCode: z.string().nullable(),
  loginDomain: z.string(),
  loginClientId: z.string(),
  /** The tenant's passkey setting (docs/passkeys.md): off, offered, or preferred (shown first). */
  passkeys: z.enum(passkeyModes),
});
export type Tenant = z.infer<typeof tenantSchema>;

/** GET /api/login-domains/{domain} */
export const loginDomainResponse = z.object({
  theme: themeSchema,
  tenant: tenantSchema,
  domain: z.string(),
});
export type LoginDomainResponse = z.infer<typeof loginDomainResponse>;
export const loginDomainParams = z.object({ domain: z.string().min(1).max(253) });

/** POST /api/login — the hosted identity service's username-and-password login. */
export const loginRequest = z.object({
  email: emailSchema,
  password: loginPasswordSchema,
  /** Opaque value the portal checks on /authenticate (CSRF defence for the code hand-off). */
  state: z.string().min(16).max(128),
  /**
   * The trusted-device token of this browser (AUTH_X_DEVICE_ID), if any: the owner's trusted
   * browser is counted apart, so guesses made elsewhere cannot lock it out.
   */
  userDeviceToken: z.string().max(256).optional(),
  /**
   * The app's pending request this password is entered for (AUTH_X_IID), if any: the new
   * session then counts as the fresh sign-in that request asked for (prompt=login, max_age).
   */
  iid: z.string().min(1).max(128).optional(),
});
export const loginResponse = z.object({ code: z.string(), state: z.string() });
export type LoginResponse = z.infer<typeof loginResponse>;

/**
 * Which limit refused a password attempt (`fields.limit` of `login.too_many_attempts`):
 * - `address`: too many attempts from this client address (the network), whatever the account;
 * - `account`: the lockout of the e-mail address entered (the same for addresses with and
 *   without an account, so it reveals nothing), or of this browser's own bucket.
 * The address limit is checked before the account is looked up, so it cannot tell either.
 */
export const loginLimits = ['address', 'account'] as const;
export type LoginLimit = (typeof loginLimits)[number];

/** `fields` of a `login.too_many_attempts` answer: the limit, and whole seconds until a retry may pass. */
export const loginLimitFields = z
  .object({ limit: z.enum(loginLimits), retryAfterSeconds: z.string().regex(/^[1-9][0-9]*$/) })
  .strict();
export type LoginLimitFields = z.infer<typeof loginLimitFields>;

/**
 * `fields` of a `login.invalid_credentials` answer once the lockout is near: how many more
 * failed attempts it takes (at least one) before sign-in pauses. Counted in the same bucket
 * whether an account exists or not — the address entered, or this browser's own — so it
 * reveals nothing; absent before the third failure in a row.
 */
export const loginFailureFields = z.object({ attemptsLeft: z.string().regex(/^[1-9][0-9]*$/) }).strict();
export type LoginFailureFields = z.infer<typeof loginFailureFields>;

/** POST /api/authenticate */
export const authenticateRequest = z.object({
  code: z.string().min(1).max(256),
  tenantCode: z.string().min(1).max(64),
  redirectUri: z.string().max(2048).optional(),
  userDeviceToken: z.string().max(256).optional(),
  recaptchaToken: z.string().max(4096).optional(),
});

export const userIdentitySchema = z.object({
  uuid: z.string(),
  email: z.string(),
  type: z.enum(userTypes),
  locale: z.enum(locales),
  state: z.enum(userStates),
  emailVerificationRequired: z.boolean(),
  /** '' when the tenant names none: a sign-in no app asked for ends on `/signed-in`. */
  defaultRedirectUri: z.string(),
  passwordExpiryInDays: z.number().nullable(),
  passwordChangeWarningInDays: z.number().nullable(),
  /** Days left before MFA becomes mandatory (recommended policy), else null. */
  mfaRequiredByRemainingInDays: z.number().nullable(),
});
export type UserIdentity = z.infer<typeof userIdentitySchema>;

/** GET /api/session — the facts page scripts may know; the token itself stays HttpOnly. */
export const sessionResponse = z.discriminatedUnion('exists', [
  z.object({ exists: z.literal(false) }),
  z.object({
    exists: z.literal(true),
    provider: z.enum(identityProviders),
    partnerCode: z.string().nullable(),
    identity: userIdentitySchema,
  }),
]);
export type SessionResponse = z.infer<typeof sessionResponse>;

/** POST /api/authorize — silent authorize or finishing the provider's pending interaction. */
export const authorizeRequest = z.object({
  iid: z.string().min(1).max(128).optional(),
  redirectUri: z.string().max(2048).optional(),
  userDeviceToken: z.string().max(256).optional(),
});
export const authorizeResponse = z.object({ location: z.string() });

/** The provider's interaction id, as the login page's URL carries it. */
const interactionId = z.string().min(1).max(128);

/**
 * GET /api/authorize/interaction — this browser's pending app request, found by its interaction
 * cookie; `iid` must name the same one.
 */
export const authorizeInteractionQuery = z.object({ iid: interactionId });
export const authorizeInteractionResponse = z.object({ iid: z.string(), clientName: z.string() });
export type AuthorizeInteraction = z.infer<typeof authorizeInteractionResponse>;

/**
 * POST /api/authorize/abort — ends this browser's pending app request without a sign-in; answers
 * the provider's resume URL, which sends the browser to the app with `error=access_denied`.
 */
export const authorizeAbortRequest = z.object({ iid: interactionId });
export const authorizeAbortResponse = z.object({ location: z.string() });

/** POST /api/logout */
export const logoutRequest = z.object({
  token: z.string().max(512).optional(),
  redirectUri: z.string().max(2048).optional(),
  langCode: z.string().max(16).optional(),
});
export const logoutResponse = z.object({ location: z.string() });

/** Calls that answer nothing but success. */
export const emptyResponse = z.object({}).strict();

/** POST /api/analytics/events — 202 once stored. */
export const acceptedResponse = z.object({ accepted: z.literal(true) }).strict();
