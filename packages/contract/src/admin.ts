import { z } from 'zod';
import {
  clientAuthMethods,
  clientGrantTypes,
  defaultRedirectUriSchema,
  partnerFileSchema,
  tenantConfigSchema,
  tenantSettingsConfigSchema,
  themeConfigSchema,
} from './configuration.ts';
import { secretAnswerSchema } from './lifecycle.ts';
import { secretQuestions } from './lifecycle-api.ts';
import { partnerConfigSchema } from './partners.ts';
import { locales, userTypes } from './user-state.ts';
import { checkClientRedirects, emailSchema, emailTextSchema, redirectUriSchema } from './validation.ts';

/**
 * The admin API (docs/admin-api.md): served on the operator host (ADMIN_DOMAIN) only, with a
 * bearer access token from the operator tenant. Every request and answer is one of these
 * schemas; the OpenAPI document is generated from them.
 */

export const adminApi = {
  base: '/admin/api/v1',
  openApi: '/admin/api/openapi.json',
} as const;

/** The tenant operators sign in to, on ADMIN_DOMAIN; created by `keycard operators create-owner`. */
export const operatorTenantCode = 'keycard-operators';
/** The scope an access token must carry for the admin API. */
export const adminScope = 'admin';

export const adminRoles = ['owner', 'tenant_admin', 'help_desk', 'auditor'] as const;
export type AdminRole = (typeof adminRoles)[number];

export const adminPermissions = [
  'tenants.read',
  'tenants.create',
  'tenants.write',
  'users.read',
  'users.write',
  'audit.read',
  'operators.manage',
  'partners.write',
] as const;
export type AdminPermission = (typeof adminPermissions)[number];

/**
 * Who may do what. Every role but owner may be limited to some tenants (an operator's
 * `tenants`); a tenant admin cannot create tenants (a new tenant is in nobody's scope yet).
 * `partners.write` is an owner's alone: a partner's keys, linking and skipMfa decide whom
 * Keycard accepts as a user, so a scoped operator who could write them could sign in as any
 * account of its tenant (docs/security.md, roles and capabilities).
 */
export const rolePermissions: { readonly [R in AdminRole]: readonly AdminPermission[] } = {
  owner: adminPermissions,
  tenant_admin: ['tenants.read', 'tenants.write', 'users.read', 'users.write', 'audit.read'],
  help_desk: ['tenants.read', 'users.read', 'users.write'],
  auditor: ['tenants.read', 'users.read', 'audit.read'],
};

const tenantCode = tenantConfigSchema.shape.code;
/**
 * The tenants a non-owner operator may act on. Never the operator tenant: it is the owners'
 * alone (a tenant admin of it could mint itself owner). Null: every customer tenant.
 */
const operatorScope = z
  .array(tenantCode)
  .min(1)
  .max(100)
  .refine((codes) => !codes.includes(operatorTenantCode), {
    message: 'the operator tenant is for owners only',
  });
const clientIdSchema = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'letters, digits, dots, dashes and underscores');

export const adminTenantParams = z.strictObject({ code: tenantCode });
export const adminClientParams = z.strictObject({ code: tenantCode, clientId: clientIdSchema });
export const adminUserParams = z.strictObject({ code: tenantCode, userId: z.uuid() });

/** A client as the API shows it: never its secret. */
export const adminClientSchema = z.strictObject({
  clientId: clientIdSchema,
  redirectUris: z.array(z.string()),
  postLogoutRedirectUris: z.array(z.string()),
  grantTypes: z.array(z.enum([...clientGrantTypes, 'client_credentials'])),
  authMethod: z.enum(clientAuthMethods),
  /** A disabled client is refused by the tenant's provider until it is enabled again. */
  disabled: z.boolean(),
  /** The app's name, shown when people sign in to it (OIDC client_name); null: its id is shown. */
  name: z.string().nullable(),
});
export type AdminClient = z.infer<typeof adminClientSchema>;

export const adminTenantSummarySchema = z.strictObject({
  code: tenantCode,
  aliasCode: z.string().nullable(),
  loginDomain: z.string(),
  aliasDomains: z.array(z.string()),
  createdAt: z.number().int(),
  /** Raised by every change; running servers apply a change within about a second. */
  version: z.number().int(),
});
/** A tenant in the list: its summary and what makes it recognisable (its theme's name, logo and colour). */
export const adminTenantListItemSchema = z.strictObject({
  ...adminTenantSummarySchema.shape,
  name: z.string(),
  /** The theme's logo address ('' when it has none). */
  logo: z.string(),
  /** The theme's primary background colour (#rrggbb). */
  colour: z.string(),
});
export const adminTenantListResponse = z.strictObject({ tenants: z.array(adminTenantListItemSchema) });

export const adminTenantSchema = z.strictObject({
  ...adminTenantSummarySchema.shape,
  /** '' when the tenant names none: a sign-in no app asked for ends on its signed-in page. */
  defaultRedirectUri: z.string(),
  loginClientId: z.string(),
  theme: themeConfigSchema,
  settings: tenantSettingsConfigSchema,
  clients: z.array(adminClientSchema),
});
export type AdminTenant = z.infer<typeof adminTenantSchema>;

/** A client's name as people see it when they sign in. */
const clientNameSchema = z.string().trim().min(1).max(100);

const clientCreateShape = {
  clientId: clientIdSchema,
  redirectUris: z.array(redirectUriSchema).max(50),
  postLogoutRedirectUris: z.array(redirectUriSchema).max(50).default([]),
  grantTypes: z.array(z.enum(clientGrantTypes)).min(1).default(['authorization_code', 'refresh_token']),
  authMethod: z.enum(clientAuthMethods).default('client_secret_basic'),
};

/** POST /tenants/{code}/clients: a confidential client gets a generated secret, shown once. */
export const adminClientCreateRequest = z
  .strictObject({ ...clientCreateShape, name: clientNameSchema.optional() })
  .check(checkClientRedirects);

/** A client made with its tenant (POST /tenants), as the configuration file has it. */
const adminTenantClientRequest = z.strictObject(clientCreateShape).check(checkClientRedirects);

/**
 * PATCH /tenants/{code}/clients/{clientId}: what is left out stays; the result is checked with
 * the rules of creation. A public client made confidential gets a secret, shown once; a
 * confidential one made public loses its secret.
 */
export const adminClientUpdateRequest = z
  .strictObject({
    /** null: no name of its own (its id is shown). */
    name: clientNameSchema.nullable().optional(),
    redirectUris: z.array(redirectUriSchema).max(50).optional(),
    postLogoutRedirectUris: z.array(redirectUriSchema).max(50).optional(),
    grantTypes: z.array(z.enum(clientGrantTypes)).min(1).optional(),
    authMethod: z.enum(clientAuthMethods).optional(),
  })
  .refine((patch) => Object.keys(patch).length > 0, { message: 'change at least one field' })
  .check((ctx) =>
    checkClientRedirects({
      value: {
        redirectUris: ctx.value.redirectUris ?? [],
        postLogoutRedirectUris: ctx.value.postLogoutRedirectUris ?? [],
      },
      issues: ctx.issues,
    }),
  );

/** POST /tenants: a new tenant with its login client (and any other clients). */
export const adminTenantCreateRequest = z.strictObject({
  code: tenantCode,
  aliasCode: tenantConfigSchema.shape.aliasCode,
  loginDomain: tenantConfigSchema.shape.loginDomain,
  aliasDomains: tenantConfigSchema.shape.aliasDomains,
  defaultRedirectUri: tenantConfigSchema.shape.defaultRedirectUri,
  loginClientId: tenantConfigSchema.shape.loginClientId,
  theme: themeConfigSchema,
  settings: tenantSettingsConfigSchema.default({}),
  clients: z.array(adminTenantClientRequest).min(1).max(100),
});
export type AdminTenantCreateRequest = z.input<typeof adminTenantCreateRequest>;

/** PATCH /tenants/{code}: the tenant's own fields; what is left out stays. */
export const adminTenantPatchRequest = z
  .strictObject({
    aliasCode: z.string().min(1).max(64).nullable().optional(),
    /** '' or null: none, a sign-in no app asked for ends on the tenant's signed-in page. */
    defaultRedirectUri: defaultRedirectUriSchema.nullable().optional(),
    loginClientId: tenantConfigSchema.shape.loginClientId.optional(),
  })
  .refine((patch) => Object.keys(patch).length > 0, { message: 'change at least one field' });

/** PUT /tenants/{code}/domains: every domain of the tenant (the login domain first). */
export const adminDomainsRequest = z.strictObject({
  loginDomain: tenantConfigSchema.shape.loginDomain,
  aliasDomains: tenantConfigSchema.shape.aliasDomains,
});

/** PUT /tenants/{code}/theme */
export const adminThemeRequest = themeConfigSchema;

/**
 * PATCH /tenants/{code}/settings: merged into the stored settings. The captcha secret is not
 * set here (secretEnv names a variable of the CLI's environment): use `keycard apply`.
 */
export const adminSettingsRequest = tenantSettingsConfigSchema;

/** The one answer that shows a client's secret: creation and rotation. */
export const adminClientSecretResponse = z.strictObject({
  client: adminClientSchema,
  /** Null for a public client (authMethod none). Shown once; Keycard cannot show it again. */
  secret: z.string().nullable(),
});
export const adminTenantCreateResponse = z.strictObject({
  tenant: adminTenantSchema,
  /** The generated secret of each confidential client, shown once. */
  secrets: z.array(z.strictObject({ clientId: z.string(), secret: z.string() })),
});

export const adminUserSchema = z.strictObject({
  id: z.uuid(),
  email: z.string(),
  type: z.enum(userTypes),
  locale: z.enum(locales),
  status: z.enum(['active', 'pending', 'disabled']),
  emailVerified: z.boolean(),
  createdAt: z.number().int(),
  /** Locked out of password sign-in after too many failures, until then; null: not locked. */
  lockedUntil: z.number().int().nullable(),
  /** Has a second factor or a passkey: an MFA reset has something to remove. */
  mfaEnrolled: z.boolean(),
  /** Chose a secret question at activation: the help desk can check a caller's answer. */
  hasSecretQuestion: z.boolean(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;
export const adminUserSearchQuery = z.strictObject({
  /** The start of the address (case-insensitive); left out lists every account. */
  email: emailTextSchema.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  /** How many matching accounts (in address order) to skip: the page. */
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export const adminUserListResponse = z.strictObject({
  users: z.array(adminUserSchema),
  /** How many accounts match, on every page. */
  total: z.number().int(),
});
export const adminUserResponse = z.strictObject({ user: adminUserSchema });
export const adminInviteRequest = z.strictObject({
  email: emailSchema,
  type: z.enum(userTypes),
  locale: z.enum(locales).default('en'),
});
export const adminInviteResponse = z.strictObject({ user: adminUserSchema, created: z.boolean() });

/** What a user action did: `unchanged` when the account was already in that state. */
export const adminUserActionResponse = z.strictObject({
  outcome: z.enum(['done', 'unchanged']),
  user: adminUserSchema.nullable(),
});

export const adminPasskeyParams = z.strictObject({
  code: tenantCode,
  userId: z.uuid(),
  passkeyId: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/),
});
/** A passkey as the help desk sees it: never its key or credential id. */
export const adminPasskeySchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  createdAt: z.number().int(),
  lastUsedAt: z.number().int().nullable(),
  /** Synced between the person's devices (backup eligible), else bound to one device or key. */
  synced: z.boolean(),
  /** The domain it was made on, and the only one it signs in to. */
  rpId: z.string(),
});
export type AdminPasskey = z.infer<typeof adminPasskeySchema>;
export const adminPasskeyListResponse = z.strictObject({ passkeys: z.array(adminPasskeySchema) });
/** `unchanged`: the account had no such passkey (any more). */
export const adminPasskeyRemoveResponse = z.strictObject({
  outcome: z.enum(['done', 'unchanged']),
  passkeys: z.array(adminPasskeySchema),
});

/** The question the account chose at activation (a code of `secretQuestions`); null: none. */
export const adminSecretQuestionResponse = z.strictObject({
  question: z.enum(secretQuestions).nullable(),
});
/** An answer a caller gives the help desk, checked as activation stored it (never shown). */
export const adminSecretAnswerRequest = z.strictObject({ answer: secretAnswerSchema });
/** `not-set`: the account has no secret question; nothing was checked or counted. */
export const adminSecretAnswerResponse = z.strictObject({
  result: z.enum(['match', 'mismatch', 'not-set']),
});

/** `system`: Keycard itself, e.g. a repair an upgrade makes at start. */
export const auditActorKinds = ['operator', 'client', 'cli', 'apply', 'system'] as const;
export type AuditActorKind = (typeof auditActorKinds)[number];

export const auditEntrySchema = z.strictObject({
  id: z.string(),
  at: z.number().int(),
  actor: z.strictObject({ kind: z.enum(auditActorKinds), id: z.string().nullable() }),
  tenant: z.string().nullable(),
  action: z.string(),
  target: z.strictObject({ kind: z.string(), id: z.string() }),
  /** The changed fields before and after; secrets appear as "[secret]", never their value. */
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditSearchQuery = z.strictObject({
  tenant: tenantCode.optional(),
  action: z.string().max(64).optional(),
  actorId: z.string().max(255).optional(),
  targetId: z.string().max(255).optional(),
  /** Epoch milliseconds, inclusive. */
  from: z.coerce.number().int().min(0).optional(),
  /** Epoch milliseconds, exclusive. */
  to: z.coerce.number().int().min(0).optional(),
  /** The `next` of the previous page. */
  cursor: z
    .string()
    .max(100)
    .regex(/^\d+:[0-9a-f-]{36}$/)
    .optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
export const auditSearchResponse = z.strictObject({
  entries: z.array(auditEntrySchema),
  /**
   * What people call the actors and targets of these entries, by id: a person's e-mail address,
   * a tenant's name; ids Keycard cannot name (a removed account) are left out.
   */
  names: z.record(z.string(), z.string()),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  next: z.string().nullable(),
});

/** GET /audit/choices: what the audit log's filters offer, as far as the operator's scope reaches. */
export const auditChoicesQuery = z.strictObject({ tenant: tenantCode.optional() });
export const auditChoicesResponse = z.strictObject({
  /** Who acted: operators and machine clients, by the id entries carry, with a name. */
  actors: z.array(z.strictObject({ id: z.string(), kind: z.enum(auditActorKinds), name: z.string() })),
  /** What was acted on, by kind and id, with a name. */
  targets: z.array(z.strictObject({ kind: z.string(), id: z.string(), name: z.string() })),
  actions: z.array(z.string()),
});

export const adminOperatorSchema = z.strictObject({
  id: z.uuid(),
  kind: z.enum(['human', 'client']),
  /** The operator tenant's user id (human) or client id (machine). */
  subject: z.string(),
  role: z.enum(adminRoles),
  /** The tenants a non-owner may act on; null: every customer tenant (never the operator tenant). */
  tenants: z.array(z.string()).nullable(),
  createdAt: z.number().int(),
  /** A person's current e-mail address (the operator tenant's account); null for a machine. */
  email: z.string().nullable(),
});
export const adminOperatorListResponse = z.strictObject({ operators: z.array(adminOperatorSchema) });
export const adminMachineClientRequest = z.strictObject({
  clientId: clientIdSchema,
  role: z.enum(adminRoles),
  tenants: operatorScope.nullable().default(null),
});
export const adminMachineClientResponse = z.strictObject({
  operator: adminOperatorSchema,
  clientId: z.string(),
  /** Shown once. */
  secret: z.string(),
});

/** POST /operators/people: a person, invited to the operator tenant (activation mail). */
export const adminOperatorInviteRequest = z.strictObject({
  email: emailSchema,
  role: z.enum(adminRoles),
  tenants: operatorScope.nullable().default(null),
  locale: z.enum(locales).default('en'),
});
export const adminOperatorResponse = z.strictObject({ operator: adminOperatorSchema });
export const adminOperatorInviteResponse = z.strictObject({
  operator: adminOperatorSchema,
  created: z.boolean(),
});
export const adminOperatorParams = z.strictObject({ id: z.uuid() });
/** PATCH /operators/{id} */
export const adminOperatorPatchRequest = z
  .strictObject({
    role: z.enum(adminRoles).optional(),
    tenants: operatorScope.nullable().optional(),
  })
  .refine((patch) => Object.keys(patch).length > 0, { message: 'change at least one field' });

export const adminPartnerParams = z.strictObject({
  code: tenantCode,
  partnerCode: partnerConfigSchema.shape.code,
});
/**
 * PUT /tenants/{code}/partners/{partnerCode}: the partner as the configuration file describes
 * it (docs/partners.md), its code the one in the path; what is left out takes the defaults.
 */
export const adminPartnerRequest = partnerFileSchema;
export const adminPartnerSchema = partnerConfigSchema;
export const adminPartnerListResponse = z.strictObject({ partners: z.array(adminPartnerSchema) });
export const adminPartnerResponse = z.strictObject({ partner: adminPartnerSchema, created: z.boolean() });

export const adminSigningKeyParams = z.strictObject({ code: tenantCode, kid: z.string().min(1).max(128) });
/** A tenant's signing keys, newest (active) first; never their private parts. */
export const adminSigningKeyListResponse = z.strictObject({
  keys: z.array(z.strictObject({ kid: z.string(), createdAt: z.number().int(), active: z.boolean() })),
});

export const adminEmptyResponse = z.strictObject({});

/**
 * DELETE /tenants/{code}: the tenant's code repeated, so a removal is never one slip (a wrong
 * code in a path, a replayed request) away. Owners only; never the operator tenant.
 */
export const adminTenantDeleteRequest = z.strictObject({ confirm: z.string().max(64) });
/** What went with the tenant: every account (erased), client, domain and partner. */
export const adminTenantDeleteResponse = z.strictObject({
  code: tenantCode,
  users: z.number().int(),
  clients: z.number().int(),
  domains: z.number().int(),
  partners: z.number().int(),
});

/**
 * GET /me: who the bearer token acts as, for the console to offer only what the operator may
 * do (the API still checks every call). Any valid admin token may ask; no permission needed.
 */
export const adminMeResponse = z.strictObject({
  operator: adminOperatorSchema,
  /** The person's e-mail address; null for a machine. */
  email: z.string().nullable(),
  permissions: z.array(z.enum(adminPermissions)),
});
