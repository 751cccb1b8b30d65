import { type Theme, themeSchema } from '@keycard/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import {
  type ClientMetadata,
  defaultTenantSettings,
  type TenantContext,
  type TenantSettings,
} from './tenant.types.ts';

/** Strips the port (and IPv6 brackets) from a Host value and lower-cases it. */
export function hostnameOf(host: string | undefined): string {
  if (!host) return '';
  const value = host.trim().toLowerCase();
  if (value.startsWith('[')) return value.slice(0, value.indexOf(']') + 1);
  return value.replace(/:\d+$/, '').replace(/\.$/, '');
}

const cacheTtlMs = 30_000;

/**
 * Resolves tenants by host name and code. Results are cached briefly per process; the cache
 * may be lost or stale for at most cacheTtlMs, never the source of truth.
 */
export class TenantDirectory {
  readonly #db: Kysely<Database>;
  readonly #byDomain = new Map<string, { at: number; code: string | null }>();
  readonly #byCode = new Map<string, { at: number; tenant: TenantContext | null }>();

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  async resolveHost(host: string | undefined): Promise<TenantContext | null> {
    const domain = hostnameOf(host);
    if (!domain) return null;
    const cached = this.#byDomain.get(domain);
    let code: string | null;
    if (cached && Date.now() - cached.at < cacheTtlMs) {
      code = cached.code;
    } else {
      const row = await this.#db
        .selectFrom('tenant_domains')
        .select('tenant_code')
        .where('domain', '=', domain)
        .executeTakeFirst();
      code = row?.tenant_code ?? null;
      this.#byDomain.set(domain, { at: Date.now(), code });
    }
    return code ? this.byCode(code) : null;
  }

  async byCode(code: string): Promise<TenantContext | null> {
    const cached = this.#byCode.get(code);
    if (cached && Date.now() - cached.at < cacheTtlMs) return cached.tenant;
    const tenant = await this.#load(code);
    this.#byCode.set(code, { at: Date.now(), tenant });
    return tenant;
  }

  async clients(code: string): Promise<ClientMetadata[]> {
    const rows = await this.#db
      .selectFrom('oidc_clients')
      .select('metadata')
      .where('tenant_code', '=', code)
      .execute();
    return rows.map((row) => JSON.parse(row.metadata) as ClientMetadata);
  }

  async all(): Promise<TenantContext[]> {
    const rows = await this.#db.selectFrom('tenants').select('code').orderBy('code').execute();
    const tenants = await Promise.all(rows.map((row) => this.byCode(row.code)));
    return tenants.filter((t): t is TenantContext => t !== null);
  }

  invalidate(): void {
    this.#byDomain.clear();
    this.#byCode.clear();
  }

  async #load(code: string): Promise<TenantContext | null> {
    const row = await this.#db.selectFrom('tenants').selectAll().where('code', '=', code).executeTakeFirst();
    if (!row) return null;
    const clients = await this.clients(code);
    const allowedRedirects = new Set<string>([row.default_redirect_uri]);
    for (const client of clients) {
      for (const uri of client.redirect_uris) allowedRedirects.add(uri);
      for (const uri of client.post_logout_redirect_uris ?? []) allowedRedirects.add(uri);
    }
    const settings = JSON.parse(row.settings) as Partial<TenantSettings>;
    return {
      code: row.code,
      aliasCode: row.alias_code,
      loginDomain: row.login_domain,
      loginClientId: row.login_client_id,
      theme: themeSchema.parse(JSON.parse(row.theme)) as Theme,
      defaultRedirectUri: row.default_redirect_uri,
      settings: {
        ...defaultTenantSettings,
        ...settings,
        mfa: { ...defaultTenantSettings.mfa, ...settings.mfa },
        captcha: { ...defaultTenantSettings.captcha, ...settings.captcha },
      },
      allowedRedirects,
    };
  }
}

/** Invariant 2: a redirect goes only to a URI registered for the tenant, matched exactly. */
export function isAllowedRedirect(tenant: TenantContext, uri: string | undefined | null): uri is string {
  return typeof uri === 'string' && tenant.allowedRedirects.has(uri);
}
