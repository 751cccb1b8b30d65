import {
  type AdminTenant,
  adminErrors,
  type adminTenantCreateRequest,
  configurationSchema,
  errorCodes,
  operatorTenantCode,
  type TenantConfig,
  type TenantSettingsConfig,
  warningExceedsExpiry,
  warningExceedsExpiryMessage,
} from '@keycard/contract';
import { type Kysely, sql } from 'kysely';
import type { z } from 'zod';
import { recordAudit } from '../../platform/audit/audit.service.ts';
import type { Config } from '../../platform/config.ts';
import type { Database } from '../../platform/db/schema.ts';
import { isUniqueViolation } from '../../platform/db/unique-violation.ts';
import { limitKeys } from '../../platform/security/limit-keys.ts';
import { AppError } from '../../platform/shared/errors.ts';
import {
  applyConfigurationPlan,
  ConfigurationFileError,
  exportTenant,
  planConfiguration,
} from '../configuration/index.ts';
import { deletePartnerRows, listPartners } from '../partners/index.ts';
import { forUpdate, retryOnDeadlock } from '../tenants/index.ts';
import { type AdminDeps, type TenantRow, tenantRow } from './admin.deps.ts';
import { clientsOf } from './clients.service.ts';
import { withTenantLease } from './tenant-lease.ts';

/**
 * Tenants (docs/admin-api.md#tenants): listed, read, created and changed through the same
 * planner as `keycard apply`, and removed with everything kept for them.
 */

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
  return rows.map((row) => {
    // The stored theme (validated when it was written): what makes the tenant recognisable.
    const theme = JSON.parse(row.theme) as {
      name?: string;
      images?: { logo?: string };
      colours?: { primaryBackground?: string };
    };
    return {
      ...summaryOf(row, domains.get(row.code) ?? []),
      name: theme.name ?? row.code,
      logo: theme.images?.logo ?? '',
      colour: theme.colours?.primaryBackground ?? '#000000',
    };
  });
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
    ...(row.default_redirect_uri ? { defaultRedirectUri: row.default_redirect_uri } : {}),
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

/**
 * A settings change leaves out what it keeps: the warning period it sets is checked against
 * the expiry it keeps, and the other way round (the schema checks a change that sets both).
 */
function assertWarningWithinExpiry(stored: TenantSettingsConfig, change: TenantSettingsConfig): void {
  const expiry =
    change.passwordExpiryDays !== undefined ? change.passwordExpiryDays : stored.passwordExpiryDays;
  const warning =
    change.passwordWarningDays !== undefined ? change.passwordWarningDays : stored.passwordWarningDays;
  if (warningExceedsExpiry(expiry, warning)) {
    throw new AppError(errorCodes.validationFailed, {
      fields: { 'settings.passwordWarningDays': `${warningExceedsExpiryMessage} (${expiry} days)` },
    });
  }
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
    assertWarningWithinExpiry(JSON.parse(row.settings) as TenantSettingsConfig, next.settings);
    try {
      await applyTenant(deps, next);
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError(adminErrors.domainTaken, { cause: error });
      throw error;
    }
  });
  return getTenant(deps.db, code);
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
  for (const email of emails) await deps.limiter.clear(limitKeys.loginEmail(code, email));
  deps.tenants.invalidate(code);
  return counts;
}
