import { randomBytes } from 'node:crypto';
import {
  type ClientConfig,
  type Configuration,
  type ConfigurationInput,
  compactThemeTexts,
  type Locale,
  type PartnerConfig,
  type TenantConfig,
  type Theme,
  type UserType,
} from '@keycard/contract';
import { type Kysely, sql } from 'kysely';
import {
  type AuditActor,
  applyActor,
  recordAudit,
  recordPlanAudit,
} from '../../platform/audit/audit.service.ts';
import type { Config } from '../../platform/config.ts';
import type { Database } from '../../platform/db/schema.ts';
import { clientSecretMatches, hashClientSecret } from '../../platform/security/client-secret.ts';
import { applyVerificationPolicy } from '../accounts/email-verification.service.ts';
import { inviteUser } from '../accounts/invitation.service.ts';
import { deletePartnerRows, listPartners, savePartner } from '../partners/partner.repository.ts';
import { productionRedirectProblems } from '../tenants/redirects.ts';
import { parseStoredTheme, TenantDirectory } from '../tenants/tenant.service.ts';
import { type ClientMetadata, defaultTenantSettings } from '../tenants/tenant.types.ts';
import { nextTenantVersion } from '../tenants/tenant-version.ts';
import { ConfigurationFileError, fieldPath } from './configuration-file.ts';

/**
 * keycard apply and export (docs/configuration.md): the configuration file compared with the
 * database as a plan of field changes, the plan written in one transaction, and a tenant
 * written back in the file's format. Secrets never leave the database through here.
 */

export type ObjectKind = 'tenant' | 'client' | 'partner' | 'invitation';
export type Action = 'create' | 'change' | 'unchanged' | 'remove';

export interface FieldChange {
  field: string;
  before?: unknown;
  after?: unknown;
  /** A secret's value is never shown: only where it comes from. */
  secret?: string;
}

export interface PlannedObject {
  kind: ObjectKind;
  tenant: string;
  id: string;
  action: Action;
  fields: FieldChange[];
}

interface TenantWrite {
  code: string;
  exists: boolean;
  row: {
    alias_code: string | null;
    login_domain: string;
    login_client_id: string;
    theme: string;
    default_redirect_uri: string;
    settings: string;
  };
  rowChanged: boolean;
  /** The e-mail verification requirement, when it changes on an existing tenant. */
  verificationRequired: boolean | null;
  domains: string[];
  domainsChanged: boolean;
  clients: ClientMetadata[];
  /** client_id → the generated secret, printed once after the write. */
  generatedSecrets: Map<string, string>;
  /** Of `clients`, those to keep out of the provider's sight (disabled_clients). */
  disabledClients: string[];
  /** Clients the file no longer lists, on a tenant with `prune`. */
  removedClients: string[];
  partners: PartnerConfig[];
  /** Partners the file no longer lists, on a tenant with `prune`. */
  removedPartners: string[];
  invitations: TenantConfig['invitations'];
}

export interface ConfigurationPlan {
  objects: PlannedObject[];
  writes: TenantWrite[];
}

type Env = Record<string, string | undefined>;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Leaves of an object by dotted path; arrays are leaves (compared whole). */
function flatten(value: unknown, prefix = '', into = new Map<string, unknown>()): Map<string, unknown> {
  if (isObject(value) && Object.keys(value).length > 0) {
    for (const [key, inner] of Object.entries(value)) flatten(inner, prefix ? `${prefix}.${key}` : key, into);
  } else if (prefix) into.set(prefix, value === undefined ? null : value);
  return into;
}

function diff(before: object | null, after: object, secrets: Record<string, string> = {}): FieldChange[] {
  const old = before ? flatten(before) : new Map<string, unknown>();
  const next = flatten(after);
  const changes: FieldChange[] = [];
  for (const field of new Set([...old.keys(), ...next.keys()])) {
    const a = old.get(field) ?? null;
    const b = next.get(field) ?? null;
    if (JSON.stringify(a) === JSON.stringify(b)) continue;
    if (field in secrets || /secret/i.test(field)) {
      changes.push({ field, secret: secrets[field] ?? 'set' });
    } else changes.push({ field, ...(before ? { before: a } : {}), after: b });
  }
  return changes;
}

function dateOf(ms: number | null): string | null {
  if (ms === null) return null;
  const iso = new Date(ms).toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso;
}

/** A theme as the plan compares, stores and exports it: `texts` only when it overrides something. */
function themeView(theme: Theme): Theme {
  const { texts, ...rest } = theme;
  const overrides = compactThemeTexts(texts);
  return overrides ? { ...rest, texts: overrides } : rest;
}

/** Stored settings merged one level deep, as updateTenantSettings merges them. */
function mergeSettings(stored: Record<string, unknown>, patch: Record<string, unknown>) {
  const next = { ...stored };
  for (const [key, value] of Object.entries(patch)) {
    const before = stored[key];
    next[key] = isObject(value) && isObject(before) ? { ...before, ...value } : value;
  }
  return next;
}

/** What a tenant's settings amount to: the stored ones over the defaults. */
function effectiveSettings(stored: Record<string, unknown>) {
  return {
    ...defaultTenantSettings,
    ...stored,
    mfa: { ...defaultTenantSettings.mfa, ...(stored.mfa as object | undefined) },
    captcha: { ...defaultTenantSettings.captcha, ...(stored.captcha as object | undefined) },
    messenger: { ...defaultTenantSettings.messenger, ...(stored.messenger as object | undefined) },
  };
}

/** The client fields the file manages, as stored metadata reads. */
function clientView(metadata: ClientMetadata) {
  return {
    redirectUris: metadata.redirect_uris ?? [],
    postLogoutRedirectUris: metadata.post_logout_redirect_uris ?? [],
    grantTypes: metadata.grant_types ?? ['authorization_code'],
    authMethod: metadata.token_endpoint_auth_method ?? 'client_secret_basic',
  };
}

/** A tenant's clients by id, the enabled ones (oidc_clients) and the disabled ones beside them. */
async function storedClients(db: Kysely<Database>, code: string) {
  const read = async (table: 'oidc_clients' | 'disabled_clients', disabled: boolean) =>
    (await db.selectFrom(table).select('metadata').where('tenant_code', '=', code).execute()).map((row) => {
      const metadata = JSON.parse(row.metadata) as ClientMetadata;
      return [metadata.client_id, { metadata, disabled }] as const;
    });
  return new Map([...(await read('oidc_clients', false)), ...(await read('disabled_clients', true))]);
}

/** A client of the file as the provider's metadata, over what is stored of it (its secret left out). */
export function clientMetadata(client: ClientConfig, existing: ClientMetadata | undefined): ClientMetadata {
  const { client_secret: _secret, ...kept } = existing ?? ({} as Partial<ClientMetadata>);
  return {
    ...kept,
    client_id: client.clientId,
    redirect_uris: client.redirectUris,
    post_logout_redirect_uris: client.postLogoutRedirectUris,
    grant_types: client.grantTypes,
    response_types: client.grantTypes.includes('authorization_code') ? ['code'] : [],
    token_endpoint_auth_method: client.authMethod,
  };
}

function partnerConfigOf(partner: TenantConfig['partners'][number]): PartnerConfig {
  return { ...partner, displayName: partner.displayName ?? partner.code };
}

/** Reads a secret from the environment, recording a problem at `path` when it is unset. */
type SecretReader = (path: PropertyKey[], name: string) => string | null;

interface TenantPlanContext {
  db: Kysely<Database>;
  tenant: TenantConfig;
  /** The field path of something in this tenant, as problems name it. */
  at: (...path: PropertyKey[]) => PropertyKey[];
  problems: string[];
  secretFrom: SecretReader;
  /** Only what does not exist yet is planned; what exists is left exactly as it is. */
  onlyMissing: boolean;
}

const actionOf = (exists: boolean, fields: FieldChange[]): Action =>
  !exists ? 'create' : fields.length > 0 ? 'change' : 'unchanged';

/**
 * Compares the file with the database: every object to create or change, field by field, and
 * what will be written. Refuses (ConfigurationFileError, naming the field) what the schema
 * cannot see: an unset secret variable, a domain of another tenant, an unknown login client.
 * With `onlyMissing` (the demo seed at start-up), only tenants, clients and partners that do
 * not exist yet are planned: what exists, changed by an operator or not, stays as it is.
 */
export async function planConfiguration(
  db: Kysely<Database>,
  file: string,
  configuration: Configuration,
  env: Env,
  options: { onlyMissing?: boolean; production?: boolean } = {},
): Promise<ConfigurationPlan> {
  const problems: string[] = [];
  const objects: PlannedObject[] = [];
  const writes: TenantWrite[] = [];
  const domainOwners = new Map<string, string>();
  const secretFrom: SecretReader = (path, name) => {
    const value = env[name];
    if (value) return value;
    problems.push(`${fieldPath(path)}: the environment variable ${name} is not set`);
    return null;
  };
  for (const [index, tenant] of configuration.tenants.entries()) {
    const context: TenantPlanContext = {
      db,
      tenant,
      at: (...path) => ['tenants', index, ...path],
      problems,
      secretFrom,
      onlyMissing: options.onlyMissing === true,
    };
    for (const { path, message } of productionRedirectProblems(options.production === true, tenant))
      problems.push(`${fieldPath(context.at(...path))}: ${message}`);
    const planned = await planTenant(context, domainOwners);
    const clients = await planClients(context);
    const partners = await planPartners(context, planned.exists);
    const invitations = await planInvitations(context, planned.exists);
    objects.push(planned.object, ...clients.objects, ...partners.objects, ...invitations.objects);
    writes.push({
      ...planned.write,
      clients: clients.changed,
      generatedSecrets: clients.generatedSecrets,
      disabledClients: clients.disabled,
      removedClients: clients.removed,
      partners: partners.changed,
      removedPartners: partners.removed,
      invitations: invitations.changed,
    });
  }
  if (problems.length > 0) throw new ConfigurationFileError(file, problems);
  return { objects, writes };
}

/**
 * A tenant's settings from the file as they are stored (a date as milliseconds), to be merged
 * into the stored ones; the captcha's secretEnv is left for the caller to resolve.
 */
export function settingsPatchOf(settings: TenantConfig['settings']): Record<string, unknown> {
  const { mfa, captcha, ...plain } = settings;
  const patch: Record<string, unknown> = { ...plain };
  if (mfa) {
    const { mandatoryFrom, ...rest } = mfa;
    patch.mfa = {
      ...rest,
      ...(mandatoryFrom === undefined
        ? {}
        : { mandatoryFrom: mandatoryFrom === null ? null : Date.parse(mandatoryFrom) }),
    };
  }
  if (captcha) {
    const { secretEnv: _secretEnv, ...rest } = captcha;
    patch.captcha = rest;
  }
  return patch;
}

/** The tenant row, its domains and settings. */
async function planTenant(context: TenantPlanContext, domainOwners: Map<string, string>) {
  const { db, tenant, at, problems, secretFrom } = context;
  const row = await db.selectFrom('tenants').selectAll().where('code', '=', tenant.code).executeTakeFirst();
  if (row && context.onlyMissing) {
    const object: PlannedObject = {
      kind: 'tenant',
      tenant: tenant.code,
      id: tenant.code,
      action: 'unchanged',
      fields: [],
    };
    const write = {
      code: tenant.code,
      exists: true,
      row: {
        alias_code: row.alias_code,
        login_domain: row.login_domain,
        login_client_id: row.login_client_id,
        theme: row.theme,
        default_redirect_uri: row.default_redirect_uri,
        settings: row.settings,
      },
      rowChanged: false,
      verificationRequired: null,
      domains: [],
      domainsChanged: false,
    };
    return { exists: true, object, write };
  }

  // Domains: the file lists all of the tenant's; another tenant's domain is never taken over.
  const domains = [tenant.loginDomain, ...tenant.aliasDomains];
  for (const [position, domain] of domains.entries()) {
    const path = position === 0 ? at('loginDomain') : at('aliasDomains', position - 1);
    const inFile = domainOwners.get(domain);
    if (inFile && inFile !== tenant.code) {
      problems.push(`${fieldPath(path)}: ${domain} is also a domain of tenant ${inFile} in this file`);
    }
    domainOwners.set(domain, tenant.code);
    const owner = await db
      .selectFrom('tenant_domains')
      .select('tenant_code')
      .where('domain', '=', domain)
      .executeTakeFirst();
    if (owner && owner.tenant_code !== tenant.code) {
      problems.push(`${fieldPath(path)}: ${domain} is a domain of tenant ${owner.tenant_code}`);
    }
  }
  const storedDomains = (
    await db.selectFrom('tenant_domains').select('domain').where('tenant_code', '=', tenant.code).execute()
  ).map((each) => each.domain);

  // Settings: what the file gives is merged into what is stored; secrets come from the environment.
  const storedSettings = row ? (JSON.parse(row.settings) as Record<string, unknown>) : {};
  const patch = settingsPatchOf(tenant.settings);
  const settingSecrets: Record<string, string> = {};
  const secretEnv = tenant.settings.captcha?.secretEnv;
  if (secretEnv) {
    const secret = secretFrom(at('settings', 'captcha', 'secretEnv'), secretEnv);
    if (secret !== null) (patch.captcha as Record<string, unknown>).secret = secret;
    settingSecrets['settings.captcha.secret'] = `from $${secretEnv}`;
  }
  const nextSettings = mergeSettings(storedSettings, patch);

  const current = row
    ? {
        aliasCode: row.alias_code,
        loginDomain: row.login_domain,
        aliasDomains: storedDomains.filter((domain) => domain !== row.login_domain).sort(),
        defaultRedirectUri: row.default_redirect_uri,
        loginClientId: row.login_client_id,
        theme: themeView(parseStoredTheme(row.theme)),
        settings: effectiveSettings(storedSettings),
      }
    : null;
  const wanted = {
    aliasCode: tenant.aliasCode,
    loginDomain: tenant.loginDomain,
    aliasDomains: [...tenant.aliasDomains].sort(),
    defaultRedirectUri: tenant.defaultRedirectUri,
    loginClientId: tenant.loginClientId,
    theme: themeView(tenant.theme),
    settings: effectiveSettings(nextSettings),
  };
  const fields = diff(current, wanted, settingSecrets);
  const object: PlannedObject = {
    kind: 'tenant',
    tenant: tenant.code,
    id: tenant.code,
    action: actionOf(Boolean(row), fields),
    fields,
  };
  const write = {
    code: tenant.code,
    exists: Boolean(row),
    row: {
      alias_code: tenant.aliasCode,
      login_domain: tenant.loginDomain,
      login_client_id: tenant.loginClientId,
      theme: JSON.stringify(themeView(tenant.theme)),
      default_redirect_uri: tenant.defaultRedirectUri,
      settings: JSON.stringify(nextSettings),
    },
    rowChanged: !row || fields.length > 0,
    verificationRequired:
      current && current.settings.emailVerificationRequired !== wanted.settings.emailVerificationRequired
        ? wanted.settings.emailVerificationRequired
        : null,
    domains,
    domainsChanged: JSON.stringify([...storedDomains].sort()) !== JSON.stringify([...domains].sort()),
  };
  return { exists: Boolean(row), object, write };
}

/** Clients: the file's fields replace the stored ones; the secret is kept unless the file says. */
async function planClients(context: TenantPlanContext) {
  const { db, tenant, at, problems, secretFrom } = context;
  const stored = await storedClients(db, tenant.code);
  const inFile = new Set(tenant.clients.map((client) => client.clientId));
  if (!inFile.has(tenant.loginClientId) && (tenant.prune || !stored.has(tenant.loginClientId))) {
    problems.push(
      tenant.prune
        ? `${fieldPath(at('loginClientId'))}: no client ${tenant.loginClientId} in the file, and prune would remove it`
        : `${fieldPath(at('loginClientId'))}: no client ${tenant.loginClientId} in the file or on the tenant`,
    );
  }
  const login = tenant.clients.findIndex((client) => client.clientId === tenant.loginClientId);
  if (login >= 0 ? tenant.clients[login]!.disabled : stored.get(tenant.loginClientId)?.disabled) {
    problems.push(
      `${fieldPath(login >= 0 ? at('clients', login, 'disabled') : at('loginClientId'))}: ` +
        `the login client ${tenant.loginClientId} cannot be disabled`,
    );
  }
  const objects: PlannedObject[] = [];
  const changed: ClientMetadata[] = [];
  const disabled: string[] = [];
  const generatedSecrets = new Map<string, string>();
  for (const [position, client] of tenant.clients.entries()) {
    const found = stored.get(client.clientId);
    const existing = found?.metadata;
    if (found && context.onlyMissing) {
      objects.push({
        kind: 'client',
        tenant: tenant.code,
        id: client.clientId,
        action: 'unchanged',
        fields: [],
      });
      continue;
    }
    const metadata = clientMetadata(client, existing);
    let secretNote: string | undefined;
    if (client.authMethod !== 'none') {
      if (client.secretEnv) {
        const secret = secretFrom(at('clients', position, 'secretEnv'), client.secretEnv);
        if (secret !== null) metadata.client_secret = hashClientSecret(secret);
        if (secret === null || !clientSecretMatches(existing?.client_secret, secret))
          secretNote = `from $${client.secretEnv}`;
      } else if (existing?.client_secret) {
        metadata.client_secret = existing.client_secret;
      } else {
        // 256 bits, shown to the operator once after the write and never again.
        const secret = randomBytes(32).toString('base64url');
        metadata.client_secret = hashClientSecret(secret);
        generatedSecrets.set(client.clientId, secret);
        secretNote = 'generated, printed once when applied';
      }
    } else if (existing?.client_secret) {
      secretNote = 'removed (public client)';
    }
    const wantDisabled = client.disabled === true;
    const fields = diff(
      found ? { ...clientView(found.metadata), disabled: found.disabled } : null,
      // A new client is enabled unless the file says otherwise: no line for the default.
      { ...clientView(metadata), ...(found || wantDisabled ? { disabled: wantDisabled } : {}) },
    );
    if (secretNote) fields.push({ field: 'secret', secret: secretNote });
    const action = actionOf(Boolean(found), fields);
    objects.push({ kind: 'client', tenant: tenant.code, id: client.clientId, action, fields });
    if (action !== 'unchanged') {
      changed.push(metadata);
      if (wantDisabled) disabled.push(client.clientId);
    }
  }
  // With prune, the file is the whole list: a stored client it does not name is removed.
  const removed = tenant.prune ? [...stored.keys()].filter((id) => !inFile.has(id)).sort() : [];
  for (const id of removed) {
    const fields = diff(clientView(stored.get(id)!.metadata), {}).map(({ field, before }) => ({
      field,
      before,
    }));
    objects.push({ kind: 'client', tenant: tenant.code, id, action: 'remove', fields });
  }
  return { objects, changed, generatedSecrets, disabled, removed };
}

/** Partners: replaced whole, checked again by the registry's own schema when saved. */
async function planPartners(context: TenantPlanContext, tenantExists: boolean) {
  const { db, tenant } = context;
  const stored = new Map(
    (tenantExists ? await listPartners(db, tenant.code) : []).map((partner) => {
      const { tenantCode: _t, createdAt: _c, updatedAt: _u, code, ...fields } = partner;
      return [code, fields] as const;
    }),
  );
  const objects: PlannedObject[] = [];
  const changed: PartnerConfig[] = [];
  for (const partner of tenant.partners) {
    const config = partnerConfigOf(partner);
    const { code, ...wanted } = config;
    const existing = stored.get(code);
    if (existing && context.onlyMissing) {
      objects.push({ kind: 'partner', tenant: tenant.code, id: code, action: 'unchanged', fields: [] });
      continue;
    }
    const fields = diff(existing ?? null, wanted);
    const action = actionOf(Boolean(existing), fields);
    objects.push({ kind: 'partner', tenant: tenant.code, id: code, action, fields });
    if (action !== 'unchanged') changed.push(config);
  }
  const listed = new Set(tenant.partners.map((partner) => partner.code));
  const removed = tenant.prune ? [...stored.keys()].filter((code) => !listed.has(code)).sort() : [];
  for (const code of removed) {
    objects.push({ kind: 'partner', tenant: tenant.code, id: code, action: 'remove', fields: [] });
  }
  return { objects, changed, removed };
}

/** Invitations: once per address; an address with an account (in any state) is left alone. */
async function planInvitations(context: TenantPlanContext, tenantExists: boolean) {
  const { db, tenant } = context;
  const objects: PlannedObject[] = [];
  const changed: TenantConfig['invitations'] = [];
  for (const invitation of tenant.invitations) {
    const { email } = invitation;
    const user = tenantExists
      ? await db
          .selectFrom('users')
          .select('status')
          .where('tenant_code', '=', tenant.code)
          .where('email', '=', email)
          .executeTakeFirst()
      : undefined;
    const fields: FieldChange[] = user
      ? []
      : [
          { field: 'type', after: invitation.type },
          { field: 'locale', after: invitation.locale },
        ];
    objects.push({
      kind: 'invitation',
      tenant: tenant.code,
      id: email,
      action: user ? 'unchanged' : 'create',
      fields,
    });
    if (!user) changed.push({ ...invitation, email });
  }
  return { objects, changed };
}

export function hasChanges(plan: ConfigurationPlan): boolean {
  return plan.objects.some((object) => object.action !== 'unchanged');
}

/**
 * Writes a plan: tenants, domains, clients and partners in one transaction (a pruned partner
 * is removed in it, as `keycard partners remove` removes one), raising the
 * version of every tenant it touches, so running servers drop what they cached of it within
 * about a second (TenantDirectory polls the versions). Invitations follow through inviteUser,
 * each with its activation mail in the outbox (their links need the server's configuration;
 * the demo seed has none to send). Answers the generated client secrets.
 */
export async function applyConfigurationPlan(
  deps: { db: Kysely<Database>; config?: Config; actor?: AuditActor },
  plan: ConfigurationPlan,
  now: number,
): Promise<Array<{ tenant: string; clientId: string; secret: string }>> {
  const { db } = deps;
  const actor = deps.actor ?? applyActor;
  await db.transaction().execute(async (trx) => {
    for (const write of plan.writes) {
      const touched =
        write.rowChanged ||
        write.domainsChanged ||
        write.clients.length > 0 ||
        write.removedClients.length > 0 ||
        write.partners.length > 0;
      if (!touched) continue;
      if (!write.exists) {
        await trx
          .insertInto('tenants')
          .values({ code: write.code, created_at: now, version: 1, ...write.row })
          .execute();
      } else {
        await trx
          .updateTable('tenants')
          .set({ ...write.row, version: nextTenantVersion() })
          .where('code', '=', write.code)
          .execute();
      }
      if (write.domainsChanged) {
        await trx.deleteFrom('tenant_domains').where('tenant_code', '=', write.code).execute();
        await trx
          .insertInto('tenant_domains')
          .values(write.domains.map((domain) => ({ domain, tenant_code: write.code })))
          .execute();
      }
      for (const client of write.clients) {
        const metadata = JSON.stringify(client);
        // A disabled client is kept beside the others, out of the provider's sight (as the
        // admin API's disable does); it is in exactly one of the two tables.
        const [table, other] = write.disabledClients.includes(client.client_id)
          ? (['disabled_clients', 'oidc_clients'] as const)
          : (['oidc_clients', 'disabled_clients'] as const);
        await trx
          .deleteFrom(other)
          .where('tenant_code', '=', write.code)
          .where('client_id', '=', client.client_id)
          .execute();
        await trx
          .insertInto(table)
          .values({ tenant_code: write.code, client_id: client.client_id, metadata, created_at: now })
          .onConflict((oc) => oc.columns(['tenant_code', 'client_id']).doUpdateSet({ metadata }))
          .execute();
      }
      // Its tokens die with it: the provider refuses a token whose client it does not know.
      if (write.removedClients.length > 0) {
        for (const table of ['oidc_clients', 'disabled_clients'] as const) {
          await trx
            .deleteFrom(table)
            .where('tenant_code', '=', write.code)
            .where('client_id', 'in', write.removedClients)
            .execute();
        }
      }
      for (const partner of write.partners) await savePartner(trx, write.code, partner, now);
      // As keycard partners remove does (its links, the sessions it opened), in this
      // transaction: the removal and its audit entry commit together.
      for (const partner of write.removedPartners) await deletePartnerRows(trx, write.code, partner);
      // As keycard tenant-settings does: accounts are asked to verify (or no longer) from now.
      if (write.verificationRequired !== null) {
        await applyVerificationPolicy(trx, write.code, write.verificationRequired, now);
      }
    }
    // Every object created or changed goes to the audit log in the same transaction.
    await recordPlanAudit(trx, actor, plan.objects, now);
  });
  const directory = new TenantDirectory(db);
  for (const write of plan.writes) {
    if (write.invitations.length === 0) continue;
    const { config } = deps;
    if (!config) throw new Error('invitations need the server configuration for their links');
    const tenant = await directory.byCode(write.code);
    if (!tenant) continue;
    for (const invitation of write.invitations) {
      const after = { type: invitation.type, locale: invitation.locale };
      // The invitation and its entry commit together.
      await inviteUser({ db, config }, tenant, invitation, now, (trx, user) =>
        recordAudit(
          trx,
          actor,
          { tenant: tenant.code, action: 'user.invite', target: { kind: 'user', id: user.id }, after },
          now,
        ),
      );
    }
  }
  return plan.writes.flatMap((write) =>
    [...write.generatedSecrets].map(([clientId, secret]) => ({ tenant: write.code, clientId, secret })),
  );
}

/**
 * A tenant in the file's format: everything `apply` manages, no secret (a client's secret and
 * the captcha secret stay in the database; applying the export keeps them). Pending accounts
 * appear as invitations; active ones are not configuration. Null for an unknown tenant.
 */
export async function exportTenant(db: Kysely<Database>, code: string): Promise<ConfigurationInput | null> {
  const row = await db.selectFrom('tenants').selectAll().where('code', '=', code).executeTakeFirst();
  if (!row) return null;
  const domains = await db
    .selectFrom('tenant_domains')
    .select('domain')
    .where('tenant_code', '=', code)
    .orderBy('domain')
    .execute();
  const clients = [...(await storedClients(db, code)).values()].sort((a, b) =>
    a.metadata.client_id < b.metadata.client_id ? -1 : 1,
  );
  const pending = await db
    .selectFrom('users')
    .select(['email', 'type', 'locale'])
    .where('tenant_code', '=', code)
    .where('status', '=', 'pending')
    .orderBy('email')
    .execute();
  const settings = effectiveSettings(JSON.parse(row.settings) as Record<string, unknown>);
  const { secret: _secret, ...captcha } = settings.captcha as typeof settings.captcha &
    Record<string, unknown>;
  return {
    tenants: [
      {
        code: row.code,
        aliasCode: row.alias_code,
        loginDomain: row.login_domain,
        aliasDomains: domains.map((each) => each.domain).filter((domain) => domain !== row.login_domain),
        defaultRedirectUri: row.default_redirect_uri,
        loginClientId: row.login_client_id,
        theme: themeView(parseStoredTheme(row.theme)),
        settings: {
          passwordExpiryDays: settings.passwordExpiryDays,
          passwordWarningDays: settings.passwordWarningDays,
          emailVerificationRequired: settings.emailVerificationRequired,
          mfa: { ...settings.mfa, mandatoryFrom: dateOf(settings.mfa.mandatoryFrom) },
          captcha,
          analyticsId: settings.analyticsId,
          ...(settings.messenger.provider ? { messenger: settings.messenger } : {}),
        },
        clients: clients.map(
          ({ metadata, disabled }) =>
            ({
              clientId: metadata.client_id,
              ...clientView(metadata),
              ...(disabled ? { disabled: true } : {}),
            }) as ClientConfig,
        ),
        partners: (await listPartners(db, code)).map(
          ({ tenantCode: _t, createdAt: _c, updatedAt: _u, ...config }) => config,
        ),
        invitations: pending.map((user) => ({
          email: user.email,
          type: user.type as UserType,
          locale: user.locale as Locale,
        })),
      },
    ],
  };
}
