import {
  clientApplicationType,
  isThemeImageUrl,
  isThemeLinkUrl,
  redirectTargetProblem,
  type Theme,
  themeSchema,
} from '@keycard/contract';
import type { Kysely } from 'kysely';
import { type Config, publicOrigin } from '../../platform/config.ts';
import type { Database } from '../../platform/db/schema.ts';
import { hostnameOf } from '../../platform/http/host.ts';
import {
  type ClientMetadata,
  defaultTenantSettings,
  type TenantContext,
  type TenantSettings,
} from './tenant.types.ts';

/**
 * A tenant's stored theme. An image address stored before theme images were restricted
 * (docs/configuration.md, Theme), or a help or support link stored before links were held to
 * http(s), that breaks the rule reads as none: the tenant keeps working without it, rather
 * than failing to load, and its next apply or theme change replaces it.
 */
export function parseStoredTheme(json: string): Theme {
  const stored = JSON.parse(json) as Theme;
  const images = stored.images ?? { logo: '', favicon: '' };
  const safe = (url: unknown) => (typeof url === 'string' && isThemeImageUrl(url) ? url : '');
  const links: Partial<Theme['links']> = stored.links ?? {};
  const safeLink = (url: unknown) => (typeof url === 'string' && isThemeLinkUrl(url) ? url : null);
  return themeSchema.parse({
    ...stored,
    images: {
      logo: safe(images.logo),
      favicon: safe(images.favicon),
      // Only a theme that has one says so: a tenant's stored theme reads back as it was written.
      ...(images.background ? { background: safe(images.background) } : {}),
    },
    links: {
      loginHelpUrl: safeLink(links.loginHelpUrl),
      contactSupportUrl: safeLink(links.contactSupportUrl),
    },
  });
}

/**
 * Redirect targets stored before the rule (contract `redirectTargetProblem`: no javascript:,
 * data: and the like) read as none: the portal is never handed one and the provider never
 * accepts one. A client with an app scheme is given to the provider as a native client.
 */
function isRedirectTarget(uri: unknown): uri is string {
  return typeof uri === 'string' && redirectTargetProblem(uri, { production: false }) === undefined;
}

function withRedirectTargets(client: ClientMetadata): ClientMetadata {
  const redirectUris = (client.redirect_uris ?? []).filter(isRedirectTarget);
  const postLogoutRedirectUris = (client.post_logout_redirect_uris ?? []).filter(isRedirectTarget);
  return {
    ...client,
    redirect_uris: redirectUris,
    post_logout_redirect_uris: postLogoutRedirectUris,
    application_type: clientApplicationType([...redirectUris, ...postLogoutRedirectUris]),
  };
}

/** How often each instance looks for tenants changed elsewhere (another instance, the CLI). */
export const tenantPollMs = 1000;

/** Unknown host names remembered at most this many at once (random Host headers are cheap). */
const maxCachedDomains = 10_000;

/** Told of each look-up in the directory's caches and each entry dropped (the metrics' counters). */
export type TenantCacheObserver = (
  cache: 'tenant' | 'tenant_domain',
  event: 'hit' | 'miss' | 'evict',
  count?: number,
) => void;

/**
 * Resolves tenants by host name and code, from a per-process cache that is never the source
 * of truth: every change to a tenant raises its version (tenant.admin.ts), a change made here
 * drops the cached tenant at once, and `watch` polls the versions every second so a change
 * made by another instance or the CLI reaches this one within about a second. There is no
 * time-to-live: security decisions always use the tenant's current settings.
 */
export class TenantDirectory {
  readonly #db: Kysely<Database>;
  readonly #byDomain = new Map<string, string | null>();
  /**
   * Raised whenever #byDomain is cleared: a look-up answered from before a clear is not
   * remembered, or a host name asked for just before a change (unknown then) would stay
   * unknown after it, with no later change to clear it.
   */
  #domainGeneration = 0;
  /**
   * The first poll of `watch`, until it has run: it clears what was looked up before it (there
   * is nothing to compare with yet), so look-ups wait for it rather than be thrown away by it.
   */
  #firstPoll: Promise<void> | undefined;
  readonly #byCode = new Map<string, Promise<TenantContext | null>>();
  /** The version each cached tenant was loaded at. */
  readonly #loaded = new Map<string, number>();
  /** Every tenant's version at the last poll (a change anywhere may move a host name). */
  #seen = new Map<string, number>();
  readonly #listeners: Array<(code: string) => void> = [];
  readonly #observe: TenantCacheObserver | undefined;

  constructor(db: Kysely<Database>, options: { observe?: TenantCacheObserver } = {}) {
    this.#db = db;
    this.#observe = options.observe;
  }

  async resolveHost(host: string | undefined): Promise<TenantContext | null> {
    const domain = hostnameOf(host);
    if (!domain || domain.length > 253) return null;
    let code = this.#byDomain.get(domain);
    this.#observe?.('tenant_domain', code === undefined ? 'miss' : 'hit');
    if (code === undefined) {
      if (this.#firstPoll) await this.#firstPoll;
      const generation = this.#domainGeneration;
      const row = await this.#db
        .selectFrom('tenant_domains')
        .select('tenant_code')
        .where('domain', '=', domain)
        .executeTakeFirst();
      code = row?.tenant_code ?? null;
      if (generation === this.#domainGeneration) {
        if (this.#byDomain.size >= maxCachedDomains) this.#byDomain.clear();
        this.#byDomain.set(domain, code);
      }
    }
    return code ? this.byCode(code) : null;
  }

  byCode(code: string): Promise<TenantContext | null> {
    let tenant = this.#byCode.get(code);
    this.#observe?.('tenant', tenant ? 'hit' : 'miss');
    if (!tenant) {
      const loading = this.#load(code);
      this.#byCode.set(code, loading);
      // Neither a failed load (an outage) nor "no such tenant" is remembered: the poll drops
      // only tenants it saw loaded, so a remembered miss would hide a tenant created later
      // (elsewhere) from this instance until it restarted, and random codes would pile up.
      const forget = () => {
        if (this.#byCode.get(code) === loading) this.#byCode.delete(code);
      };
      loading.then((found) => (found ? undefined : forget()), forget);
      tenant = loading;
    }
    return tenant;
  }

  async clients(code: string): Promise<ClientMetadata[]> {
    const rows = await this.#db
      .selectFrom('oidc_clients')
      .select('metadata')
      .where('tenant_code', '=', code)
      .execute();
    return rows.map((row) => withRedirectTargets(JSON.parse(row.metadata) as ClientMetadata));
  }

  async all(): Promise<TenantContext[]> {
    const rows = await this.#db.selectFrom('tenants').select('code').orderBy('code').execute();
    const tenants = await Promise.all(rows.map((row) => this.byCode(row.code)));
    return tenants.filter((t): t is TenantContext => t !== null);
  }

  /** Called with a tenant's code whenever what was cached of it is dropped. */
  onChange(listener: (code: string) => void): void {
    this.#listeners.push(listener);
  }

  /** Drops what is cached of one tenant (or of all), on this instance, at once. */
  invalidate(code?: string): void {
    this.#forgetDomains();
    const codes = code ? [code] : [...new Set([...this.#byCode.keys(), ...this.#loaded.keys()])];
    for (const each of codes) {
      if (this.#byCode.delete(each)) this.#observe?.('tenant', 'evict');
      this.#loaded.delete(each);
      for (const listener of this.#listeners) listener(each);
    }
  }

  /**
   * Compares every tenant's version with the one its cached copy was loaded at and drops what
   * changed (or went). One small query; run by `watch` on a timer, and callable directly.
   */
  async refresh(): Promise<void> {
    const rows = await this.#db.selectFrom('tenants').select(['code', 'version']).execute();
    const current = new Map(rows.map((row) => [row.code, Number(row.version)]));
    let moved = current.size !== this.#seen.size;
    for (const [code, version] of current) if (this.#seen.get(code) !== version) moved = true;
    this.#seen = current;
    for (const [code, version] of [...this.#loaded]) {
      if (current.get(code) !== version) this.invalidate(code);
    }
    // A tenant created or changed elsewhere may own a host name remembered as unknown.
    if (moved) this.#forgetDomains();
  }

  #forgetDomains(): void {
    if (this.#byDomain.size > 0) this.#observe?.('tenant_domain', 'evict', this.#byDomain.size);
    this.#byDomain.clear();
    this.#domainGeneration += 1;
  }

  /** Polls for changes every `intervalMs` until the returned stop is called. */
  watch(onError: (error: unknown) => void, intervalMs = tenantPollMs): () => void {
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      this.refresh()
        .catch(onError)
        .finally(() => {
          running = false;
        });
    }, intervalMs);
    timer.unref();
    const first = this.refresh()
      .catch(onError)
      .finally(() => {
        if (this.#firstPoll === first) this.#firstPoll = undefined;
      });
    this.#firstPoll = first;
    return () => clearInterval(timer);
  }

  async #load(code: string): Promise<TenantContext | null> {
    const row = await this.#db.selectFrom('tenants').selectAll().where('code', '=', code).executeTakeFirst();
    if (!row) return null;
    this.#loaded.set(code, Number(row.version));
    const clients = await this.clients(code);
    const defaultRedirectUri = isRedirectTarget(row.default_redirect_uri) ? row.default_redirect_uri : '';
    const allowedRedirects = new Set<string>(defaultRedirectUri ? [defaultRedirectUri] : []);
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
      theme: parseStoredTheme(row.theme),
      defaultRedirectUri,
      settings: {
        ...defaultTenantSettings,
        ...settings,
        mfa: { ...defaultTenantSettings.mfa, ...settings.mfa },
        captcha: { ...defaultTenantSettings.captcha, ...settings.captcha },
        messenger: { ...defaultTenantSettings.messenger, ...settings.messenger },
        securityMail: { ...defaultTenantSettings.securityMail, ...settings.securityMail },
      },
      allowedRedirects,
    };
  }
}

/** Invariant 2: a redirect goes only to a URI registered for the tenant, matched exactly. */
export function isAllowedRedirect(tenant: TenantContext, uri: string | undefined | null): uri is string {
  return typeof uri === 'string' && tenant.allowedRedirects.has(uri);
}

/** A tenant's OpenID Connect issuer: its login domain's public origin and `/oidc`. */
export function issuerFor(config: Config, tenant: TenantContext): string {
  return `${publicOrigin(config, tenant.loginDomain)}/oidc`;
}
