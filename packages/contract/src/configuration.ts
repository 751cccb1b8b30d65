import { z } from 'zod';
import { themeSchema } from './api.ts';
import { darkSchemeProblems } from './contrast.ts';
import { messengerProviders } from './messenger.ts';
import { mfaDeliveryTypes } from './mfa.ts';
import { partnerAlgorithms, partnerConfigSchema, tokenExchange } from './partners.ts';
import { redirectTargetProblem } from './rules.ts';
import { locales, userTypes } from './user-state.ts';
import { checkClientRedirects, emailSchema, redirectUriSchema } from './validation.ts';

/**
 * The configuration file of `keycard apply -f` and `keycard export` (docs/configuration.md):
 * tenants with their domains, theme, settings, OIDC clients, partners and invitations. Every
 * object is strict, so a misspelt field is an error rather than silently ignored. Secrets are
 * never in the file: a client's secret comes from the environment variable `secretEnv` names.
 */

const tenantCode = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9][a-z0-9-]*$/, 'lower-case letters, digits and dashes');
const hostname = z
  .string()
  .min(1)
  .max(253)
  .regex(
    /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/,
    'a lower-case host name without scheme or port, such as login.example.com',
  );
const clientId = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'letters, digits, dots, dashes and underscores');
const envName = z
  .string()
  .regex(/^[A-Z_][A-Z0-9_]*$/, 'an environment variable name such as ACME_APP_SECRET');
const httpUrl = z
  .string()
  .max(2048)
  .refine((value) => /^https?:\/\//.test(value) && URL.canParse(value), {
    message: 'an http(s) URL',
  });

/** The grant types Keycard's providers serve. */
export const clientGrantTypes = ['authorization_code', 'refresh_token', tokenExchange.grantType] as const;
/** How a client authenticates at /oidc/token; `none` is a public client (PKCE only). */
export const clientAuthMethods = ['client_secret_basic', 'client_secret_post', 'none'] as const;

export const clientConfigSchema = z
  .strictObject({
    clientId,
    redirectUris: z.array(redirectUriSchema).max(50),
    postLogoutRedirectUris: z.array(redirectUriSchema).max(50).default([]),
    grantTypes: z.array(z.enum(clientGrantTypes)).min(1).default(['authorization_code', 'refresh_token']),
    authMethod: z.enum(clientAuthMethods).default('client_secret_basic'),
    /**
     * The environment variable holding the client's secret. Without it, a new confidential
     * client gets a generated secret printed once, and an existing client keeps its secret.
     */
    secretEnv: envName.optional(),
    /**
     * A disabled client keeps its metadata and secret but is out of the provider's sight: its
     * authorization and token requests are refused on every instance within 5 s. The admin
     * API's disable and enable are the same switch; the file's value wins when it is applied.
     */
    disabled: z.boolean().optional(),
  })
  .refine((client) => !(client.authMethod === 'none' && client.secretEnv), {
    message: 'a public client (authMethod none) has no secret',
    path: ['secretEnv'],
  })
  .check(checkClientRedirects);
export type ClientConfig = z.infer<typeof clientConfigSchema>;

const days = (min: number, max: number) => z.int().min(min).max(max);
const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}(T[\d:.]+Z)?$/, 'a date such as 2027-03-01')
  .refine((value) => !Number.isNaN(Date.parse(value)), { message: 'a valid date' });

/** Why a password warning period is refused: it is longer than the expiry it warns of. */
export const warningExceedsExpiryMessage = 'the warning period must not be longer than the password expiry';

/** True when both are set and the warning starts earlier than the password's own life. */
export function warningExceedsExpiry(
  expiryDays: number | null | undefined,
  warningDays: number | null | undefined,
): boolean {
  return typeof expiryDays === 'number' && typeof warningDays === 'number' && warningDays > expiryDays;
}

/** A tenant's account settings; what is left out keeps its current (or default) value. */
export const tenantSettingsConfigSchema = z
  .strictObject({
    passwordExpiryDays: days(1, 3650).nullable().optional(),
    passwordWarningDays: days(0, 365).nullable().optional(),
    emailVerificationRequired: z.boolean().optional(),
    mfa: z
      .strictObject({
        mode: z.enum(['off', 'recommended', 'required']).optional(),
        mandatoryFrom: isoDate.nullable().optional(),
        trustedDeviceDays: days(1, 365).optional(),
        /** The factors offered for registration, in display order (default: all four). */
        methods: z
          .array(z.enum(mfaDeliveryTypes))
          .min(1)
          .refine((methods) => new Set(methods).size === methods.length, { message: 'each factor once' })
          .optional(),
      })
      .optional(),
    /**
     * Passkeys (docs/passkeys.md): `off`; `offered` (a passkey sign-in on the e-mail step, the
     * offer once after a password sign-in); `preferred` (the passkey button first, the offer after
     * every password sign-in until the account has one).
     */
    passkeys: z.enum(['off', 'offered', 'preferred']).optional(),
    /** Security mail beyond the always-sent ones. */
    securityMail: z
      .strictObject({
        /** A mail when an account signs in from a browser never seen before. */
        newBrowserSignIn: z.boolean().optional(),
      })
      .optional(),
    captcha: z
      .strictObject({
        siteKey: z.string().min(1).max(256).nullable().optional(),
        /** The environment variable holding the captcha secret; the secret is never in the file. */
        secretEnv: envName.optional(),
        verifyUrl: httpUrl.nullable().optional(),
        scriptUrl: httpUrl.nullable().optional(),
        minScore: z.number().min(0).max(1).optional(),
      })
      .optional(),
    analyticsId: z.string().min(1).max(128).nullable().optional(),
    /** The messenger widget (docs/configuration.md, Messenger widget); provider null turns it off. */
    messenger: z
      .strictObject({
        provider: z.enum(messengerProviders).nullable().optional(),
        appId: z
          .string()
          .min(1)
          .max(64)
          .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, dashes and underscores')
          .nullable()
          .optional(),
        /** Host names on which the widget may start: the tenant's login domain or aliases. */
        domains: z.array(hostname).max(20).optional(),
        /** Only for the stand-in provider (not allowed in production). */
        scriptUrl: httpUrl.nullable().optional(),
      })
      .optional(),
  })
  // A warning that starts before the password was even set would greet every new password;
  // when one side is left out, the admin API and the CLI check it against the stored value.
  .refine((settings) => !warningExceedsExpiry(settings.passwordExpiryDays, settings.passwordWarningDays), {
    message: warningExceedsExpiryMessage,
    path: ['passwordWarningDays'],
  });
export type TenantSettingsConfig = z.infer<typeof tenantSettingsConfigSchema>;

/**
 * The contract's theme, strict at every level: an unknown language or text key in `texts` is
 * an error too (theme-texts.ts lists the keys a tenant may override).
 */
export const themeConfigSchema = z
  .strictObject({
    name: themeSchema.shape.name,
    images: z.strictObject(themeSchema.shape.images.shape),
    colours: z.strictObject(themeSchema.shape.colours.shape),
    links: z.strictObject({
      loginHelpUrl: httpUrl.nullable(),
      contactSupportUrl: httpUrl.nullable(),
    }),
    texts: themeSchema.shape.texts,
    font: themeSchema.shape.font,
    cornerRadius: themeSchema.shape.cornerRadius,
    logoHeight: themeSchema.shape.logoHeight,
    darkScheme: themeSchema.shape.darkScheme,
  })
  // The dark scheme is offered only when every pair it draws meets WCAG 2.2 AA (contrast.ts).
  .superRefine((theme, context) => {
    if (!theme.darkScheme) return;
    for (const message of darkSchemeProblems(theme.colours)) {
      context.addIssue({ code: 'custom', path: ['darkScheme'], message });
    }
  });

/** A partner as docs/partners.md describes it, with the CLI's defaults for what is left out. */
export const partnerFileSchema = z
  .strictObject({
    ...partnerConfigSchema.shape,
    displayName: partnerConfigSchema.shape.displayName.optional(),
    jwksUri: partnerConfigSchema.shape.jwksUri.default(null),
    jwks: partnerConfigSchema.shape.jwks.default(null),
    algorithms: partnerConfigSchema.shape.algorithms.default([...partnerAlgorithms]),
    linking: partnerConfigSchema.shape.linking.default('link-verified-email'),
    redirectUris: partnerConfigSchema.shape.redirectUris.default([]),
    helpUrlTemplate: partnerConfigSchema.shape.helpUrlTemplate.default(null),
    skipMfa: partnerConfigSchema.shape.skipMfa.default(false),
  })
  .refine((partner) => (partner.jwksUri === null) !== (partner.jwks === null), {
    message: 'exactly one of jwksUri and jwks',
    path: ['jwksUri'],
  });

export const invitationConfigSchema = z.strictObject({
  /** Canonical (validation.ts): a look-alike address is refused, never folded into another. */
  email: emailSchema,
  type: z.enum(userTypes),
  locale: z.enum(locales).default('en'),
});

/**
 * A tenant's default redirect: a redirect target by the one rule (validation.ts), or '' for
 * none, which is the same as leaving it out (the signed-in landing).
 */
export const defaultRedirectUriSchema = z
  .string()
  .max(2048)
  .check((ctx) => {
    const problem = ctx.value === '' ? null : redirectTargetProblem(ctx.value, { production: false });
    if (problem) ctx.issues.push({ code: 'custom', input: ctx.value, message: problem });
  });

export const tenantConfigSchema = z
  .strictObject({
    code: tenantCode,
    aliasCode: z.string().min(1).max(64).nullable().default(null),
    loginDomain: hostname,
    aliasDomains: z.array(hostname).max(50).default([]),
    /**
     * Where a user goes after signing in with no app request of its own. Absent (or empty): the
     * tenant's "You are signed in" page, `/signed-in` on the domain they signed in on.
     */
    defaultRedirectUri: defaultRedirectUriSchema.optional(),
    /** The client the portal's own sign-in (without an app request) is made for. */
    loginClientId: clientId,
    theme: themeConfigSchema,
    settings: tenantSettingsConfigSchema.default({}),
    clients: z.array(clientConfigSchema).max(100).default([]),
    partners: z.array(partnerFileSchema).max(100).default([]),
    /** Accounts to invite: created pending with an activation mail, once per address. */
    invitations: z.array(invitationConfigSchema).max(10_000).default([]),
    /**
     * The file lists all of the tenant's clients and partners: any other is removed when the
     * file is applied, and refused on every instance within 5 s (docs/configuration.md). Without
     * it nothing is removed.
     */
    prune: z.boolean().optional(),
  })
  .check((ctx) => {
    const tenant = ctx.value;
    const unique = (values: string[], path: string, what: string) => {
      const seen = new Set<string>();
      values.forEach((value, index) => {
        if (seen.has(value)) {
          ctx.issues.push({
            code: 'custom',
            input: value,
            path: [path, index],
            message: `${what} ${value} appears twice`,
          });
        }
        seen.add(value);
      });
    };
    unique([tenant.loginDomain, ...tenant.aliasDomains], 'aliasDomains', 'the domain');
    unique(
      tenant.clients.map((client) => client.clientId),
      'clients',
      'the client',
    );
    unique(
      tenant.partners.map((partner) => partner.code),
      'partners',
      'the partner',
    );
    unique(
      tenant.invitations.map((invitation) => invitation.email),
      'invitations',
      'the address',
    );
  });
export type TenantConfig = z.infer<typeof tenantConfigSchema>;

export const configurationSchema = z
  .strictObject({
    /** Editors read this; Keycard ignores it. */
    $schema: z.string().optional(),
    tenants: z.array(tenantConfigSchema).min(1),
  })
  .check((ctx) => {
    const seen = new Set<string>();
    ctx.value.tenants.forEach((tenant, index) => {
      if (seen.has(tenant.code)) {
        ctx.issues.push({
          code: 'custom',
          input: tenant.code,
          path: ['tenants', index, 'code'],
          message: `the tenant ${tenant.code} appears twice`,
        });
      }
      seen.add(tenant.code);
    });
  });
export type Configuration = z.infer<typeof configurationSchema>;
export type ConfigurationInput = z.input<typeof configurationSchema>;

/** The configuration format as JSON Schema (draft 2020-12), for editors. */
export function configurationJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(configurationSchema, { io: 'input', unrepresentable: 'any' }),
    title: 'Keycard configuration (keycard apply -f)',
  };
}
