import { randomBytes, randomUUID } from 'node:crypto';
import {
  type AdminClient,
  type AdminTenant,
  type AdminUser,
  type adminClientCreateRequest,
  adminErrors,
  type adminTenantCreateRequest,
  configurationSchema,
  errorCodes,
  type Locale,
  operatorTenantCode,
  type PartnerConfig,
  type TenantConfig,
  type UserType,
} from '@keycard/contract';
import { type Kysely, sql } from 'kysely';
import type { z } from 'zod';
import { type AuditActor, recordAudit } from '../../platform/audit/audit.service.ts';
import type { Config } from '../../platform/config.ts';
import type { Engine } from '../../platform/db/database.ts';
import type { Database } from '../../platform/db/schema.ts';
import { hashClientSecret } from '../../platform/security/client-secret.ts';
import type { RateLimiter } from '../../platform/security/rate-limiter.ts';
import { AppError, retryAfter } from '../../platform/shared/errors.ts';
import { deleteAccount, disableAccount, enableAccount } from '../accounts/account-status.service.ts';
import { inviteUser, queueActivation } from '../accounts/invitation.service.ts';
import { findUserById, type UserRow } from '../accounts/user.repository.ts';
import {
  applyConfigurationPlan,
  exportTenant,
  planConfiguration,
} from '../configuration/configuration.service.ts';
import { ConfigurationFileError } from '../configuration/configuration-file.ts';
import { removeUserFactors } from '../mfa/mfa.service.ts';
import { isUniqueViolation } from '../operators/operators.service.ts';
import {
  deletePartnerRows,
  findPartner,
  listPartners,
  type Partner,
  removePartner,
  savePartner,
} from '../partners/partner.repository.ts';
import { endUserAccess } from '../sessions/user-access.ts';
import { assertProductionRedirects } from '../tenants/redirects.ts';
import type { TenantDirectory } from '../tenants/tenant.service.ts';
import type { ClientMetadata, TenantContext } from '../tenants/tenant.types.ts';
import { forUpdate, retryOnDeadlock } from '../tenants/tenant-gone.ts';

/**
 * What the admin API does (docs/admin-api.md), without HTTP. Tenant, domain, theme, settings
 * and client changes go through the same planner as `keycard apply` (the same checks, the
 * same diff in the audit log, the tenant's version raised so every instance applies the
 * change within about a second); user actions reuse the account services.
 */

export interface AdminDeps {
  db: Kysely<Database>;
  engine: Engine;
  /** Seals new signing keys. */
  encryptionKey: Buffer;
  config: Config;
  tenants: TenantDirectory;
  limiter: RateLimiter;
  actor: AuditActor;
  now: number;
}

type TenantRow = Database['tenants'];

async function tenantRow(db: Kysely<Database>, code: string): Promise<TenantRow> {
  const row = await db.selectFrom('tenants').selectAll().where('code', '=', code).executeTakeFirst();
  if (!row) throw new AppError(adminErrors.tenantNotFound);
  return row;
}

async function domainsOf(db: Kysely<Database>, codes: string[]): Promise<Map<string, string[]>> {
  const map = new Map<string, string[]>();
  if (codes.length === 0) return map;
  const rows = await db
    .selectFrom('tenant_domains')
    .select(['tenant_code', 'domain'])
    .where('tenant_code', 'in', codes)
    .orderBy('domain')
    .execute();
  for (const row of rows) map.set(row.tenant_code, [...(map.get(row.tenant_code) ?? []), row.domain]);
  return map;
}

function summaryOf(row: TenantRow, domains: string[]) {
  return {
    code: row.code,
    aliasCode: row.alias_code,
    loginDomain: row.login_domain,
    aliasDomains: domains.filter((domain) => domain !== row.login_domain),
    createdAt: Number(row.created_at),
    version: Number(row.version),
  };
}

/** The tenant's summary; admin.tenant_not_found for an unknown code. */
export async function getTenantSummary(deps: AdminDeps, code: string) {
  const row = await tenantRow(deps.db, code);
  const domains = await domainsOf(deps.db, [code]);
  return summaryOf(row, domains.get(code) ?? []);
}

/** Tenants in code order, as far as the operator's scope reaches (admin-auth.ts scopeOf). */
export async function listTenants(db: Kysely<Database>, scope: { only: string[] | null; except: string[] }) {
  let query = db.selectFrom('tenants').selectAll().orderBy('code');
  if (scope.only) {
    if (scope.only.length === 0) return [];
    query = query.where('code', 'in', scope.only);
  }
  if (scope.except.length > 0) query = query.where('code', 'not in', scope.except);
  const rows = await query.execute();
  const domains = await domainsOf(
    db,
    rows.map((row) => row.code),
  );
  return rows.map((row) => summaryOf(row, domains.get(row.code) ?? []));
}

const grantTypes = new Set(['authorization_code', 'refresh_token', 'client_credentials']);

function clientOf(metadata: ClientMetadata, disabled: boolean): AdminClient {
  return {
    clientId: metadata.client_id,
    redirectUris: metadata.redirect_uris ?? [],
    postLogoutRedirectUris: metadata.post_logout_redirect_uris ?? [],
    grantTypes: (metadata.grant_types ?? ['authorization_code']).filter(
      (type) => grantTypes.has(type) || type.startsWith('urn:'),
    ) as AdminClient['grantTypes'],
    authMethod: (metadata.token_endpoint_auth_method ?? 'client_secret_basic') as AdminClient['authMethod'],
    disabled,
  };
}

async function clientsOf(db: Kysely<Database>, code: string): Promise<AdminClient[]> {
  const enabled = await db
    .selectFrom('oidc_clients')
    .select('metadata')
    .where('tenant_code', '=', code)
    .execute();
  const disabled = await db
    .selectFrom('disabled_clients')
    .select('metadata')
    .where('tenant_code', '=', code)
    .execute();
  return [
    ...enabled.map((row) => clientOf(JSON.parse(row.metadata) as ClientMetadata, false)),
    ...disabled.map((row) => clientOf(JSON.parse(row.metadata) as ClientMetadata, true)),
  ].sort((a, b) => a.clientId.localeCompare(b.clientId));
}

export async function getTenant(db: Kysely<Database>, code: string): Promise<AdminTenant> {
  const row = await tenantRow(db, code);
  const exported = await exportTenant(db, code);
  const tenant = exported?.tenants[0];
  if (!tenant) throw new AppError(adminErrors.tenantNotFound);
  const domains = await domainsOf(db, [code]);
  return {
    ...summaryOf(row, domains.get(code) ?? []),
    defaultRedirectUri: row.default_redirect_uri,
    loginClientId: row.login_client_id,
    theme: tenant.theme,
    settings: tenant.settings ?? {},
    clients: await clientsOf(db, code),
  } as AdminTenant;
}

/** The tenant as a configuration file would describe it, with no clients, partners or invitations. */
async function tenantConfigOf(db: Kysely<Database>, row: TenantRow): Promise<TenantConfig> {
  const domains = (await domainsOf(db, [row.code])).get(row.code) ?? [];
  return {
    code: row.code,
    aliasCode: row.alias_code,
    loginDomain: row.login_domain,
    aliasDomains: domains.filter((domain) => domain !== row.login_domain),
    defaultRedirectUri: row.default_redirect_uri,
    loginClientId: row.login_client_id,
    theme: JSON.parse(row.theme) as TenantConfig['theme'],
    settings: {},
    clients: [],
    partners: [],
    invitations: [],
  };
}

/** The planner's refusals as a 400 (or 409 for a domain of another tenant). */
function planningError(error: ConfigurationFileError): AppError {
  const fields: Record<string, string> = {};
  for (const problem of error.problems) {
    const at = problem.indexOf(': ');
    const path = (at > 0 ? problem.slice(0, at) : '_').replace(/^tenants\[0\]\.?/, '') || '_';
    fields[path] = at > 0 ? problem.slice(at + 2) : problem;
  }
  if (error.problems.some((problem) => /is (also )?a domain of tenant/.test(problem))) {
    return new AppError(adminErrors.domainTaken, { fields, cause: error });
  }
  return new AppError(errorCodes.validationFailed, { fields, cause: error });
}

/** Plans and applies one tenant as `keycard apply` would, answering the generated secrets. */
async function applyTenant(deps: AdminDeps, tenant: unknown, options: { create?: boolean } = {}) {
  const parsed = configurationSchema.safeParse({ tenants: [tenant] });
  if (!parsed.success) {
    const fields: Record<string, string> = {};
    for (const issue of parsed.error.issues) {
      fields[issue.path.slice(2).join('.') || '_'] = issue.message;
    }
    throw new AppError(errorCodes.validationFailed, { fields });
  }
  // Partners are written only by the owners' partner routes (partners.write): a tenant the API
  // applies never carries partners, nor prune, which would remove them.
  const applied = parsed.data.tenants[0];
  if (applied && (applied.partners.length > 0 || applied.prune)) {
    throw new Error('the admin API applies no partners');
  }
  let plan: Awaited<ReturnType<typeof planConfiguration>>;
  try {
    const production = deps.config.env === 'production';
    plan = await planConfiguration(deps.db, 'request', parsed.data, {}, { production });
  } catch (error) {
    if (error instanceof ConfigurationFileError) throw planningError(error);
    throw error;
  }
  // A creation that finds the tenant there (made by a request that ran alongside) is a 409,
  // not a quiet no-op.
  const planned = plan.objects.find((object) => object.kind === 'tenant');
  if (options.create && planned?.action !== 'create') throw new AppError(adminErrors.tenantExists);
  const secrets = await applyConfigurationPlan(
    { db: deps.db, config: deps.config, actor: deps.actor },
    plan,
    deps.now,
  );
  deps.tenants.invalidate(parsed.data.tenants[0]?.code);
  return secrets.map(({ clientId, secret }) => ({ clientId, secret }));
}

export async function createTenant(deps: AdminDeps, input: z.infer<typeof adminTenantCreateRequest>) {
  const existing = await deps.db
    .selectFrom('tenants')
    .select('code')
    .where('code', '=', input.code)
    .executeTakeFirst();
  if (existing) throw new AppError(adminErrors.tenantExists);
  try {
    const secrets = await applyTenant(deps, { ...input, partners: [], invitations: [] }, { create: true });
    return { tenant: await getTenant(deps.db, input.code), secrets };
  } catch (error) {
    // Two requests for the same code (or domain) at once: the database lets one through.
    if (isUniqueViolation(error)) {
      const now = await deps.db
        .selectFrom('tenants')
        .select('code')
        .where('code', '=', input.code)
        .executeTakeFirst();
      throw new AppError(now ? adminErrors.tenantExists : adminErrors.domainTaken, { cause: error });
    }
    throw error;
  }
}

const leaseMs = 30_000;
const leaseWaitMs = 10_000;

/**
 * Runs `change` while this request holds the tenant's change lease, so two changes to one
 * tenant never interleave (the planner reads the tenant, then writes it whole: interleaved, a
 * theme change could put back settings another request had just changed). The lease is a row
 * only one insert can create, on every instance; one left by a crashed process expires.
 */
export async function withTenantLease<T>(
  db: Kysely<Database>,
  code: string,
  change: () => Promise<T>,
): Promise<T> {
  const holder = randomUUID();
  const deadline = Date.now() + leaseWaitMs;
  for (let attempt = 0; ; attempt++) {
    const now = Date.now();
    await db
      .deleteFrom('tenant_change_leases')
      .where('tenant_code', '=', code)
      .where('expires_at', '<', now)
      .execute();
    const taken = await db
      .insertInto('tenant_change_leases')
      .values({ tenant_code: code, holder, expires_at: now + leaseMs })
      .onConflict((oc) => oc.column('tenant_code').doNothing())
      .executeTakeFirst();
    if (Number(taken.numInsertedOrUpdatedRows ?? 0) === 1) break;
    if (now > deadline) throw new AppError(errorCodes.unavailable);
    await new Promise((resolve) => setTimeout(resolve, Math.min(200, 5 + attempt * 10)));
  }
  try {
    return await change();
  } finally {
    await db
      .deleteFrom('tenant_change_leases')
      .where('tenant_code', '=', code)
      .where('holder', '=', holder)
      .execute();
  }
}

/**
 * The operator tenant guards the admin API: it keeps ADMIN_DOMAIN as its login domain and
 * keeps requiring MFA (ARCHITECTURE: operators sign in with MFA), whoever asks.
 */
function assertOperatorTenantKept(config: Config, tenant: TenantConfig): void {
  const fields: Record<string, string> = {};
  if (tenant.loginDomain !== config.adminDomain) {
    fields.loginDomain = `the operator tenant's login domain is ADMIN_DOMAIN (${config.adminDomain})`;
  }
  const mode = tenant.settings.mfa?.mode;
  if (mode !== undefined && mode !== 'required')
    fields['settings.mfa.mode'] = 'the operator tenant always requires MFA';
  if (tenant.settings.mfa?.mandatoryFrom)
    fields['settings.mfa.mandatoryFrom'] = 'the operator tenant requires MFA now';
  if (Object.keys(fields).length > 0) throw new AppError(errorCodes.validationFailed, { fields });
}

/** Changes a tenant's own fields, domains, theme or settings through the planner. */
export async function changeTenant(
  deps: AdminDeps,
  code: string,
  edit: (tenant: TenantConfig) => TenantConfig | Promise<TenantConfig>,
): Promise<AdminTenant> {
  await tenantRow(deps.db, code);
  await withTenantLease(deps.db, code, async () => {
    // Read under the lease: the change is made over the tenant as it is now.
    const row = await tenantRow(deps.db, code);
    const next = await edit(await tenantConfigOf(deps.db, row));
    if (code === operatorTenantCode) assertOperatorTenantKept(deps.config, next);
    try {
      await applyTenant(deps, next);
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError(adminErrors.domainTaken, { cause: error });
      throw error;
    }
  });
  return getTenant(deps.db, code);
}

function newSecret(): string {
  // 256 bits, shown once and never again.
  return randomBytes(32).toString('base64url');
}

async function raiseVersion(db: Kysely<Database>, code: string): Promise<void> {
  await db
    .updateTable('tenants')
    .set({ version: sql<number>`version + 1` })
    .where('code', '=', code)
    .execute();
}

export async function createClient(
  deps: AdminDeps,
  code: string,
  input: z.infer<typeof adminClientCreateRequest>,
) {
  await tenantRow(deps.db, code);
  assertProductionRedirects(deps.config, input);
  const secret = input.authMethod === 'none' ? null : newSecret();
  const metadata: ClientMetadata = {
    client_id: input.clientId,
    ...(secret ? { client_secret: hashClientSecret(secret) } : {}),
    redirect_uris: input.redirectUris,
    post_logout_redirect_uris: input.postLogoutRedirectUris,
    grant_types: input.grantTypes,
    response_types: input.grantTypes.includes('authorization_code') ? ['code'] : [],
    token_endpoint_auth_method: input.authMethod,
  };
  try {
    await deps.db.transaction().execute(async (trx) => {
      const disabled = await trx
        .selectFrom('disabled_clients')
        .select('client_id')
        .where('tenant_code', '=', code)
        .where('client_id', '=', input.clientId)
        .executeTakeFirst();
      if (disabled) throw new AppError(adminErrors.clientExists);
      await trx
        .insertInto('oidc_clients')
        .values({
          tenant_code: code,
          client_id: input.clientId,
          metadata: JSON.stringify(metadata),
          created_at: deps.now,
        })
        .execute();
      await raiseVersion(trx, code);
      await recordAudit(
        trx,
        deps.actor,
        {
          tenant: code,
          action: 'client.create',
          target: { kind: 'client', id: input.clientId },
          after: { ...clientOf(metadata, false), secret },
        },
        deps.now,
      );
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError(adminErrors.clientExists, { cause: error });
    throw error;
  }
  deps.tenants.invalidate(code);
  return { client: clientOf(metadata, false), secret };
}

async function storedClient(db: Kysely<Database>, code: string, clientId: string) {
  const row = await db
    .selectFrom('oidc_clients')
    .select('metadata')
    .where('tenant_code', '=', code)
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  return row ? (JSON.parse(row.metadata) as ClientMetadata) : null;
}

/**
 * How long after a rotation another rotation of the same client is refused. Two rotations at
 * once would each answer a secret, and only the later one would work: the first caller would
 * deploy a secret that is already dead. Within this window the first rotation stands and the
 * others fail cleanly (409), so every secret Keycard answers works until a later, deliberate
 * rotation.
 */
export const secretRotationWindowMs = 10_000;

/** A new secret for a confidential client: the old one stops working at once. */
export async function rotateClientSecret(deps: AdminDeps, code: string, clientId: string) {
  await tenantRow(deps.db, code);
  const secret = newSecret();
  // Under the tenant's lease, on every instance one rotation at a time: each sees the one
  // before it in the audit log, written in that rotation's transaction.
  const metadata = await withTenantLease(deps.db, code, () =>
    deps.db.transaction().execute(async (trx) => {
      const current = await storedClient(trx, code, clientId);
      if (!current) throw new AppError(adminErrors.clientNotFound);
      if ((current.token_endpoint_auth_method ?? 'client_secret_basic') === 'none') {
        throw new AppError(errorCodes.validationFailed, {
          fields: { authMethod: 'a public client has no secret' },
        });
      }
      const recent = await trx
        .selectFrom('audit_log')
        .select('at')
        .where('tenant_code', '=', code)
        .where('action', '=', 'client.rotate_secret')
        .where('target_id', '=', clientId)
        .where('at', '>', deps.now - secretRotationWindowMs)
        .orderBy('at', 'desc')
        .executeTakeFirst();
      if (recent) {
        const wait = Number(recent.at) + secretRotationWindowMs - deps.now;
        throw new AppError(adminErrors.secretRotatedRecently, { fields: retryAfter(wait) });
      }
      const next = { ...current, client_secret: hashClientSecret(secret) };
      await trx
        .updateTable('oidc_clients')
        .set({ metadata: JSON.stringify(next) })
        .where('tenant_code', '=', code)
        .where('client_id', '=', clientId)
        .execute();
      await raiseVersion(trx, code);
      await recordAudit(
        trx,
        deps.actor,
        {
          tenant: code,
          action: 'client.rotate_secret',
          target: { kind: 'client', id: clientId },
          after: { secret },
        },
        deps.now,
      );
      return next;
    }),
  );
  deps.tenants.invalidate(code);
  return { client: clientOf(metadata, false), secret };
}

/**
 * Disables a client: it leaves the provider's client list (every instance rebuilds the
 * tenant's provider within about a second), so its sign-ins and token requests are refused;
 * its metadata and secret are kept for enabling it again.
 */
export async function setClientDisabled(deps: AdminDeps, code: string, clientId: string, disabled: boolean) {
  const row = await tenantRow(deps.db, code);
  if (disabled && row.login_client_id === clientId) throw new AppError(adminErrors.loginClientRequired);
  const client = await deps.db.transaction().execute(async (trx) => {
    const [from, to] = disabled
      ? (['oidc_clients', 'disabled_clients'] as const)
      : (['disabled_clients', 'oidc_clients'] as const);
    const found = await trx
      .selectFrom(from)
      .select(['metadata', 'created_at'])
      .where('tenant_code', '=', code)
      .where('client_id', '=', clientId)
      .executeTakeFirst();
    if (!found) {
      const other = await trx
        .selectFrom(to)
        .select('metadata')
        .where('tenant_code', '=', code)
        .where('client_id', '=', clientId)
        .executeTakeFirst();
      if (!other) throw new AppError(adminErrors.clientNotFound);
      return { client: clientOf(JSON.parse(other.metadata) as ClientMetadata, disabled), changed: false };
    }
    const removed = await trx
      .deleteFrom(from)
      .where('tenant_code', '=', code)
      .where('client_id', '=', clientId)
      .executeTakeFirst();
    // A concurrent request moved it first: nothing more to do.
    if (Number(removed.numDeletedRows) !== 1) {
      return { client: clientOf(JSON.parse(found.metadata) as ClientMetadata, disabled), changed: false };
    }
    await trx
      .insertInto(to)
      .values({
        tenant_code: code,
        client_id: clientId,
        metadata: found.metadata,
        created_at: found.created_at,
      })
      .execute();
    await raiseVersion(trx, code);
    await recordAudit(
      trx,
      deps.actor,
      {
        tenant: code,
        action: disabled ? 'client.disable' : 'client.enable',
        target: { kind: 'client', id: clientId },
        before: { disabled: !disabled },
        after: { disabled },
      },
      deps.now,
    );
    return { client: clientOf(JSON.parse(found.metadata) as ClientMetadata, disabled), changed: true };
  });
  deps.tenants.invalidate(code);
  return client.client;
}

// Users.

export function userOf(row: UserRow): AdminUser {
  return {
    id: row.id,
    email: row.email,
    type: row.type as UserType,
    locale: row.locale as Locale,
    status: row.status,
    emailVerified: row.email_verified === 1,
    createdAt: Number(row.created_at),
  };
}

async function tenantContext(deps: AdminDeps, code: string): Promise<TenantContext> {
  const tenant = await deps.tenants.byCode(code);
  if (!tenant) {
    // The directory remembers an unknown code until told otherwise: forget it, so a tenant
    // created later (by apply, on another instance) is found at the next request.
    deps.tenants.invalidate(code);
    throw new AppError(adminErrors.tenantNotFound);
  }
  return tenant;
}

async function userIn(deps: AdminDeps, tenant: TenantContext, userId: string): Promise<UserRow> {
  const user = await findUserById(deps.db, tenant.code, userId);
  if (!user) throw new AppError(adminErrors.userNotFound);
  return user;
}

/** Accounts whose address starts with `email` (case-insensitive), in address order. */
export async function searchUsers(deps: AdminDeps, code: string, email: string | undefined, limit: number) {
  const tenant = await tenantContext(deps, code);
  let query = deps.db.selectFrom('users').selectAll().where('tenant_code', '=', tenant.code);
  if (email) {
    const prefix = email.replace(/[\\%_]/g, (c) => `\\${c}`);
    query = query.where(sql<boolean>`email like ${`${prefix}%`} escape '\\'`);
  }
  const rows = await query.orderBy('email').limit(limit).execute();
  return rows.map(userOf);
}

export async function getUser(deps: AdminDeps, code: string, userId: string) {
  return userOf(await userIn(deps, await tenantContext(deps, code), userId));
}

/** The audit entry of a user action, written with the transaction the change runs in. */
function auditUser(deps: AdminDeps, code: string, action: string, extra: object = {}) {
  return (trx: Kysely<Database>, user: { id: string }) =>
    recordAudit(
      trx,
      deps.actor,
      { tenant: code, action, target: { kind: 'user', id: user.id }, ...extra },
      deps.now,
    );
}

export async function inviteAccount(
  deps: AdminDeps,
  code: string,
  input: { email: string; type: UserType; locale: Locale },
) {
  const tenant = await tenantContext(deps, code);
  const { user, created } = await inviteUser(
    { db: deps.db, config: deps.config },
    tenant,
    input,
    deps.now,
    auditUser(deps, code, 'user.invite', { after: { type: input.type, locale: input.locale } }),
  );
  return { user: userOf(user), created };
}

/** A new activation link for a pending account (the older one stops working). */
export async function resendActivation(deps: AdminDeps, code: string, userId: string) {
  const tenant = await tenantContext(deps, code);
  const user = await userIn(deps, tenant, userId);
  if (user.status !== 'pending') return { outcome: 'unchanged' as const, user: userOf(user) };
  await deps.db.transaction().execute(async (trx) => {
    await queueActivation(trx, deps.config, tenant, user, deps.now);
    await auditUser(deps, code, 'user.resend_activation')(trx, user);
  });
  return { outcome: 'done' as const, user: userOf(user) };
}

export async function setUserDisabled(deps: AdminDeps, code: string, userId: string, disabled: boolean) {
  const tenant = await tenantContext(deps, code);
  const user = await userIn(deps, tenant, userId);
  const audit = auditUser(deps, code, disabled ? 'user.disable' : 'user.enable', {
    before: { status: user.status },
    after: { status: disabled ? 'disabled' : 'active' },
  });
  const { change } = disabled
    ? await disableAccount(deps.db, tenant, user.email, deps.now, audit)
    : await enableAccount(deps.db, tenant, user.email, deps.now, audit);
  if (change === 'unchanged') return { outcome: 'unchanged' as const, user: userOf(user) };
  return { outcome: 'done' as const, user: userOf(await userIn(deps, tenant, userId)) };
}

/** Lifts a sign-in lockout: the account's failed attempts are forgotten. */
export async function unlockUser(deps: AdminDeps, code: string, userId: string) {
  const tenant = await tenantContext(deps, code);
  const user = await userIn(deps, tenant, userId);
  // The attempt counters may live in Redis, outside any database transaction: the entry is
  // written first, so no lockout is ever lifted without one.
  await auditUser(deps, code, 'user.unlock')(deps.db, user);
  await deps.limiter.clear(`login:email:${tenant.code}:${user.email}`);
  return { outcome: 'done' as const, user: userOf(user) };
}

/**
 * Removes every MFA factor of the account (factors, recovery codes, pending codes, trusted
 * devices, the partner app) and ends its sessions and grants: the next sign-in sets a factor
 * up again, as the tenant's policy asks.
 */
export async function resetUserMfa(deps: AdminDeps, code: string, userId: string) {
  const tenant = await tenantContext(deps, code);
  const user = await userIn(deps, tenant, userId);
  await deps.db.transaction().execute(async (trx) => {
    await removeUserFactors(trx, { tenantCode: tenant.code, userId: user.id }, deps.now);
    await recordAudit(
      trx,
      deps.actor,
      { tenant: code, action: 'user.reset_mfa', target: { kind: 'user', id: user.id } },
      deps.now,
    );
  });
  return { outcome: 'done' as const, user: userOf(user) };
}

/** Ends every session, grant and token of the account: apps signed in with it sign out. */
export async function endUserSessions(deps: AdminDeps, code: string, userId: string) {
  const tenant = await tenantContext(deps, code);
  const user = await userIn(deps, tenant, userId);
  await deps.db.transaction().execute(async (trx) => {
    await endUserAccess(trx, { tenantCode: tenant.code, userId: user.id }, deps.now);
    await recordAudit(
      trx,
      deps.actor,
      { tenant: code, action: 'user.end_sessions', target: { kind: 'user', id: user.id } },
      deps.now,
    );
  });
  return { outcome: 'done' as const, user: userOf(user) };
}

/** Deletes the account with everything kept for it (account-status.service.ts deleteAccount). */
export async function deleteUser(deps: AdminDeps, code: string, userId: string) {
  const tenant = await tenantContext(deps, code);
  const user = await userIn(deps, tenant, userId);
  const { change } = await deleteAccount(
    { db: deps.db, limiter: deps.limiter },
    tenant,
    user.email,
    deps.now,
    auditUser(deps, code, 'user.delete'),
  );
  if (change === 'unchanged') return { outcome: 'unchanged' as const, user: null };
  return { outcome: 'done' as const, user: null };
}

// Partners (docs/partners.md).

type PartnerFields = Omit<Partner, 'tenantCode' | 'createdAt' | 'updatedAt'>;

function partnerFields(partner: Partner | null): PartnerFields | null {
  if (!partner) return null;
  const { tenantCode: _t, createdAt: _c, updatedAt: _u, ...fields } = partner;
  return fields;
}

export async function listTenantPartners(deps: AdminDeps, code: string): Promise<PartnerFields[]> {
  await tenantRow(deps.db, code);
  return (await listPartners(deps.db, code)).map((partner) => partnerFields(partner)!);
}

/** Creates or replaces a partner, as `keycard partners add|update` and `apply` do. */
export async function savePartnerOf(deps: AdminDeps, code: string, config: PartnerConfig) {
  await tenantRow(deps.db, code);
  const { created, partner } = await deps.db.transaction().execute(async (trx) => {
    const before = partnerFields(await findPartner(trx, code, config.code));
    const saved = await savePartner(trx, code, config, deps.now);
    const after = partnerFields(await findPartner(trx, code, config.code));
    await raiseVersion(trx, code);
    await recordAudit(
      trx,
      deps.actor,
      {
        tenant: code,
        action: saved.created ? 'partner.create' : 'partner.update',
        target: { kind: 'partner', id: config.code },
        before: before as Record<string, unknown> | null,
        after: after as Record<string, unknown> | null,
      },
      deps.now,
    );
    return { created: saved.created, partner: after! };
  });
  deps.tenants.invalidate(code);
  return { partner, created };
}

/** Removes a partner with its account links, and ends the sign-ins it opened. */
export async function removeTenantPartner(deps: AdminDeps, code: string, partnerCode: string) {
  await tenantRow(deps.db, code);
  const before = partnerFields(await findPartner(deps.db, code, partnerCode));
  if (!before) throw new AppError(adminErrors.partnerNotFound);
  // The removal, the version raise and the entry commit together, or none of them.
  const removed = await removePartner(deps.db, code, partnerCode, async (trx) => {
    await raiseVersion(trx, code);
    await recordAudit(
      trx,
      deps.actor,
      {
        tenant: code,
        action: 'partner.remove',
        target: { kind: 'partner', id: partnerCode },
        before: before as unknown as Record<string, unknown>,
      },
      deps.now,
    );
  });
  if (!removed) throw new AppError(adminErrors.partnerNotFound);
  deps.tenants.invalidate(code);
  return {};
}

// Removing a tenant.

/** Where nothing of a removed tenant is deleted: the audit log is append-only (it keeps the removal). */
const keptTables = new Set(['audit_log', 'tenants']);

/**
 * Removes a tenant with everything kept for it, in one transaction under its change lease:
 * every row of every table that names the tenant (accounts with their factors, devices,
 * history and tokens by cascade; sessions, grants and tokens; clients; domains; partners with
 * their links; keys; images; queued mail; analytics), then the tenant. Operators limited to it
 * lose it from their list (a tenant created later under the same code is not theirs). The
 * audit log keeps the entry of the removal, which names accounts by id only. Every instance
 * drops the tenant at its next poll; its login domains stop answering.
 */
export async function deleteTenant(deps: AdminDeps, code: string, confirm: string) {
  if (confirm !== code) {
    throw new AppError(adminErrors.confirmationMismatch, { fields: { confirm: `must be ${code}` } });
  }
  await tenantRow(deps.db, code);
  const tables = (await deps.db.introspection.getTables())
    .filter((table) => table.columns.some((column) => column.name === 'tenant_code'))
    .map((table) => table.name)
    .filter((name) => !keptTables.has(name) && !name.startsWith('kysely_'));
  // Instances that still serve the tenant keep writing for it while this runs (issue 16). The
  // transaction locks the tenant's row first: a write that names the tenant (a foreign key, or
  // the provider's key-share check, oidc/adapter.ts) either committed before, and is removed
  // below, or waits and then finds no tenant (answered as the tenant's 404, tenant-gone.ts). A
  // write holding an account while it waits for the tenant can deadlock with the removal of
  // the accounts: PostgreSQL ends one of the two; when it is this one, it runs again.
  const { counts, emails } = await withTenantLease(deps.db, code, () =>
    retryOnDeadlock(() =>
      deps.db.transaction().execute(async (trx) => {
        await sql`select code from tenants where code = ${code} ${forUpdate(trx)}`.execute(trx);
        const row = await tenantRow(trx, code);
        const count = async (table: 'users' | 'oidc_clients' | 'disabled_clients' | 'tenant_domains') =>
          Number(
            (
              await trx
                .selectFrom(table)
                .select(sql<number>`count(*)`.as('n'))
                .where('tenant_code', '=', code)
                .executeTakeFirstOrThrow()
            ).n,
          );
        const users = await trx.selectFrom('users').select('email').where('tenant_code', '=', code).execute();
        const partners = await listPartners(trx, code);
        const counts = {
          code,
          users: users.length,
          clients: (await count('oidc_clients')) + (await count('disabled_clients')),
          domains: await count('tenant_domains'),
          partners: partners.length,
        };
        for (const partner of partners) await deletePartnerRows(trx, code, partner.code);
        for (const table of tables) {
          await sql`delete from ${sql.table(table)} where tenant_code = ${code}`.execute(trx);
        }
        await trx.deleteFrom('tenants').where('code', '=', code).execute();
        // Operators limited to it keep their other tenants, never "every tenant".
        const scoped = await trx
          .selectFrom('operators')
          .selectAll()
          .where('tenants', 'is not', null)
          .execute();
        for (const operator of scoped) {
          const before = JSON.parse(operator.tenants!) as string[];
          if (!before.includes(code)) continue;
          const after = before.filter((each) => each !== code);
          await trx
            .updateTable('operators')
            .set({ tenants: JSON.stringify(after) })
            .where('id', '=', operator.id)
            .execute();
          await recordAudit(
            trx,
            deps.actor,
            {
              tenant: operatorTenantCode,
              action: 'operator.update',
              target: { kind: 'operator', id: operator.id },
              before: { tenants: before },
              after: { tenants: after },
            },
            deps.now,
          );
        }
        await recordAudit(
          trx,
          deps.actor,
          {
            tenant: code,
            action: 'tenant.delete',
            target: { kind: 'tenant', id: code },
            before: { loginDomain: row.login_domain, ...counts },
          },
          deps.now,
        );
        return { counts, emails: users.map((user) => user.email) };
      }),
    ),
  );
  // Attempt counters may be in Redis: forgotten after the commit, as an account's deletion does.
  for (const email of emails) await deps.limiter.clear(`login:email:${code}:${email}`);
  deps.tenants.invalidate(code);
  return counts;
}
