import { warningExceedsExpiry, warningExceedsExpiryMessage } from '@keycard/contract';
import { parseStoredTheme } from '../tenants/index.ts';
import type { PlannedObject, TenantPlanContext } from './configuration.types.ts';
import { fieldPath } from './configuration-file.ts';
import { actionOf, diff } from './field-diff.ts';
import { effectiveSettings, mergeSettings, settingsPatchOf, themeView } from './stored-configuration.ts';

/** The tenant row, its domains and settings. */
export async function planTenant(context: TenantPlanContext, domainOwners: Map<string, string>) {
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
  // A file that sets one of the two keeps the other as stored: the pair is checked as it will be
  // (the schema checks a file that sets both).
  const { passwordExpiryDays: expiry, passwordWarningDays: warning } = effectiveSettings(nextSettings);
  if (warningExceedsExpiry(expiry, warning)) {
    problems.push(
      `${fieldPath(at('settings', 'passwordWarningDays'))}: ${warningExceedsExpiryMessage} (${expiry} days)`,
    );
  }

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
    // Left out of the file: none, stored as '' (the signed-in landing).
    defaultRedirectUri: tenant.defaultRedirectUri ?? '',
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
      default_redirect_uri: wanted.defaultRedirectUri,
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
