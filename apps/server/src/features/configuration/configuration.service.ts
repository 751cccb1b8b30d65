import type { ClientConfig, Configuration, ConfigurationInput, Locale, UserType } from '@keycard/contract';
import type { Kysely } from 'kysely';
import {
  type AuditActor,
  applyActor,
  recordAudit,
  recordPlanAudit,
} from '../../platform/audit/audit.service.ts';
import type { Config } from '../../platform/config.ts';
import type { Database } from '../../platform/db/schema.ts';
import { applyVerificationPolicy, inviteUser } from '../accounts/index.ts';
import { deletePartnerRows, listPartners, savePartner } from '../partners/index.ts';
import {
  nextTenantVersion,
  parseStoredTheme,
  productionRedirectProblems,
  TenantDirectory,
} from '../tenants/index.ts';
import { planClients } from './client-plan.ts';
import type {
  ConfigurationPlan,
  PlannedObject,
  SecretReader,
  TenantPlanContext,
  TenantWrite,
} from './configuration.types.ts';
import { ConfigurationFileError, fieldPath } from './configuration-file.ts';
import { planInvitations } from './invitation-plan.ts';
import { planPartners } from './partner-plan.ts';
import { clientView, dateOf, effectiveSettings, storedClients, themeView } from './stored-configuration.ts';
import { planTenant } from './tenant-plan.ts';

/**
 * keycard apply and export (docs/configuration.md): the configuration file compared with the
 * database as a plan of field changes, the plan written in one transaction, and a tenant
 * written back in the file's format. Secrets never leave the database through here.
 */

type Env = Record<string, string | undefined>;

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
        // None is left out, as a file that never named one has it.
        ...(row.default_redirect_uri ? { defaultRedirectUri: row.default_redirect_uri } : {}),
        loginClientId: row.login_client_id,
        theme: themeView(parseStoredTheme(row.theme)),
        settings: {
          passwordExpiryDays: settings.passwordExpiryDays,
          passwordWarningDays: settings.passwordWarningDays,
          emailVerificationRequired: settings.emailVerificationRequired,
          mfa: { ...settings.mfa, mandatoryFrom: dateOf(settings.mfa.mandatoryFrom) },
          passkeys: settings.passkeys,
          securityMail: { newBrowserSignIn: settings.securityMail.newBrowserSignIn },
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
