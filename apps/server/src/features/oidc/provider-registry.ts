import type { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { storageKeys } from '@keycard/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import Provider, { type Configuration, interactionPolicy, type KoaContextWithOIDC } from 'oidc-provider';
import type { Config } from '../../platform/config.ts';
import type { Database } from '../../platform/db/schema.ts';
import { clientSecretMatches } from '../../platform/security/client-secret.ts';
import type { Clock } from '../../platform/shared/clock.ts';
import type { Secrets } from '../../platform/shared/secrets.ts';
import { revokeSession } from '../sessions/index.ts';
import {
  isGrantSufficient,
  loadAccount,
  loadSignIn,
  meetsAcrValues,
  passkeyAcrValues,
} from '../sign-in/index.ts';
import type { TenantContext, TenantDirectory } from '../tenants/index.ts';
import { issuerFor } from '../tenants/index.ts';
import { createAdapterClass } from './adapter.ts';
import { loadSigningKeys } from './keys.ts';
import { answerOutages, providerStoreWork } from './provider-outage.ts';
import type { ProviderPageRenderer } from './provider-pages.ts';
import { registerTokenExchange } from './token-exchange.ts';

export interface ProviderDeps {
  config: Config;
  db: Kysely<Database>;
  secrets: Secrets;
  tenants: TenantDirectory;
  clock: Clock;
  log: FastifyBaseLogger;
  /** The provider's error and logout pages, drawn as portal pages by the web surface. */
  pages: ProviderPageRenderer;
  /** Adds to one tenant's provider configuration (the operator tenant's admin API resource). */
  configure?: (tenant: TenantContext, configuration: Configuration) => void;
  /** Told of each look-up and each provider dropped (the metrics' cache counters). */
  observe?: (event: ProviderCacheEvent, tenantCode: string) => void;
}

/**
 * A look-up found a live provider (or one being built) — `hit`; built one for a tenant for the
 * first time — `miss`; built one again after it was dropped or its build failed — `rebuild`;
 * or a provider was dropped because its tenant changed — `evict`.
 */
export type ProviderCacheEvent = 'hit' | 'miss' | 'rebuild' | 'evict';

interface Entry {
  provider: Provider;
  handler: (req: IncomingMessage, res: ServerResponse) => void;
}

/**
 * One oidc-provider per tenant, built once and cached; never built per request. A cached
 * provider is dropped when its tenant changes (the tenant directory tells, within about a
 * second on every instance), so clients and keys changed anywhere take effect everywhere.
 * The provider holds no security decision of its own: its login check reads the tenant's
 * current settings at every authorization.
 */
export class ProviderRegistry {
  readonly #deps: ProviderDeps;
  readonly #entries = new Map<string, Promise<Entry>>();
  /** Tenants a provider was built for, so a build after a drop counts as a rebuild. */
  readonly #built = new Set<string>();

  /** The provider's error and logout pages (also shown when no provider could be built). */
  readonly pages: ProviderPageRenderer;

  constructor(deps: ProviderDeps) {
    this.#deps = deps;
    this.pages = deps.pages;
    deps.tenants.onChange((code) => this.invalidate(code));
  }

  get(tenant: TenantContext): Promise<Entry> {
    let entry = this.#entries.get(tenant.code);
    const observe = this.#deps.observe;
    if (entry) observe?.('hit', tenant.code);
    else {
      observe?.(this.#built.has(tenant.code) ? 'rebuild' : 'miss', tenant.code);
      this.#built.add(tenant.code);
      const building = this.#build(tenant);
      this.#entries.set(tenant.code, building);
      // A failed build is forgotten, unless a newer one (after an invalidation) replaced it.
      building.catch(() => {
        if (this.#entries.get(tenant.code) === building) this.#entries.delete(tenant.code);
      });
      entry = building;
    }
    return entry;
  }

  invalidate(tenantCode?: string): void {
    for (const code of tenantCode ? [tenantCode] : [...this.#entries.keys()]) {
      if (this.#entries.delete(code)) this.#deps.observe?.('evict', code);
    }
  }

  async #build(requested: TenantContext): Promise<Entry> {
    const { config, db, secrets, tenants, clock, log } = this.#deps;
    // Built from the tenant as it is now, not as a request that began earlier saw it.
    const tenant = (await tenants.byCode(requested.code)) ?? requested;
    const clients = await tenants.clients(tenant.code);
    const keys = await loadSigningKeys(db, secrets.encryptionKey, tenant.code);
    const { pages } = this;

    const policy = interactionPolicy.base();
    // Invariant 1: the provider's own session is not enough. Every authorization also needs
    // Keycard's session for the same account, complete by the tenant's *current* settings
    // (password, MFA, e-mail verification, an unexpired password): the same decision
    // /api/authorize makes, read from the same place. Otherwise the login prompt is requested:
    // an interaction, or login_required for prompt=none.
    policy.get('login')?.checks.add(
      new interactionPolicy.Check(
        'keycard_session',
        'a complete Keycard session is required',
        'login_required',
        (ctx: KoaContextWithOIDC) =>
          providerStoreWork(async () => {
            const current = await tenants.byCode(tenant.code);
            const token = ctx.cookies.get(storageKeys.sessionCookie, { signed: false });
            const signIn = current ? await loadSignIn(db, current, token, clock.now()) : null;
            if (!signIn?.complete) return interactionPolicy.Check.REQUEST_PROMPT;
            // An app asking for a phishing-resistant sign-in gets no code from a session
            // without a passkey, single sign-on and prompt=none included (issue 18).
            const acrValues = ctx.oidc.params?.acr_values;
            if (!meetsAcrValues(signIn.session, typeof acrValues === 'string' ? acrValues : undefined)) {
              return interactionPolicy.Check.REQUEST_PROMPT;
            }
            return signIn.user.id === ctx.oidc.session?.accountId
              ? interactionPolicy.Check.NO_NEED_TO_PROMPT
              : interactionPolicy.Check.REQUEST_PROMPT;
          }),
      ),
    );

    const configuration: Configuration = {
      adapter: createAdapterClass(db, tenant.code),
      clients: clients as Configuration['clients'],
      jwks: { keys: keys as never },
      cookies: {
        keys: secrets.cookieKeys,
        long: { signed: true },
        // The interaction cookie (signed, HttpOnly, SameSite=Lax) is what binds a pending
        // sign-in to the browser that started it: the portal's API reads the interaction from
        // it (interactionDetails), so it must reach /api as well as /login. The resume
        // cookie keeps its own path, the resume URL.
        short: { signed: true, path: '/' },
      },
      claims: {
        // amr tells the app how the user signed in (RFC 8176): ['pwd'] (['fed'] through a
        // partner), or after MFA ['pwd', 'mfa', <factor>] (sign-in/sign-in-state.ts amrOf).
        amr: null,
        // acr: 'phrh' or 'phr' after a passkey (sign-in/sign-in-state.ts acrOf), else absent.
        acr: null,
        openid: ['sub', 'amr', 'acr'],
        email: ['email', 'email_verified'],
        profile: ['locale', 'user_type'],
      },
      scopes: ['openid', 'offline_access', 'email', 'profile'],
      // OpenID EAP ACR values an app may ask for with acr_values: a passkey sign-in or step-up.
      acrValues: [...passkeyAcrValues],
      conformIdTokenClaims: false,
      responseTypes: ['code'],
      pkce: { required: () => true },
      // Every app sends its redirect_uri (OpenID Connect Core §3.1.2.1 requires it). The
      // provider's fallback to a client's single registered URI also runs in its error handler,
      // where it reads parameters the resume route (/auth/:uid) never set: a resume URL nobody
      // started, with a client_id, crashed it into a 500.
      allowOmittingSingleRegisteredRedirectUri: false,
      // Every refresh rotates the refresh token; presenting a used one revokes its whole
      // family (the grant), as OAuth 2.0 Security BCP §4.14 recommends.
      rotateRefreshToken: true,
      features: {
        devInteractions: { enabled: false },
        revocation: { enabled: true },
        userinfo: { enabled: true },
        rpInitiatedLogout: {
          enabled: true,
          logoutSource: (ctx, form) => pages.renderLogout(ctx, tenant, form),
          postLogoutSuccessSource: async (ctx) => {
            ctx.status = 303;
            ctx.redirect('/login?loggedOut=true');
          },
        },
      },
      interactions: {
        policy,
        url: (_ctx, interaction) => `/login?iid=${encodeURIComponent(interaction.uid)}`,
      },
      findAccount: async (_ctx, sub, token) => {
        // A disabled or deleted account gets nothing more: no token, no userinfo, no refresh.
        const { current, account } = await providerStoreWork(async () => {
          const current = (await tenants.byCode(tenant.code)) ?? tenant;
          return { current, account: await loadAccount(db, current, sub) };
        });
        if (!account) return undefined;
        // A refresh mints new tokens: only while the way the user signed in still satisfies
        // the tenant's current settings (MFA required since, a password expired since).
        const amr = (token as { amr?: string[] } | undefined)?.amr;
        if (token?.kind === 'RefreshToken' && !isGrantSufficient(current, account, amr, clock.now())) {
          return undefined;
        }
        const { user } = account;
        return {
          accountId: user.id,
          claims: async () => ({
            sub: user.id,
            email: user.email,
            email_verified: user.email_verified === 1,
            locale: user.locale,
            user_type: user.type,
          }),
        };
      },
      renderError: (ctx, out) => pages.renderError(ctx, tenant, out),
      ttl: {
        AccessToken: 3600,
        AuthorizationCode: 60,
        IdToken: 3600,
        Interaction: 3600,
        Session: 30 * 24 * 3600,
        Grant: 30 * 24 * 3600,
        RefreshToken: 14 * 24 * 3600,
      },
    };
    this.#deps.configure?.(tenant, configuration);
    const provider = new Provider(issuerFor(config, tenant), configuration);
    // The mount (oidc.routes.ts) hands the provider the scheme, host and client address
    // Fastify established, so the provider may read them from forwarded headers.
    provider.proxy = true;
    // Client secrets are stored as digests (oidc/client-secret.ts): compare the presented one's.
    const clientClass = provider.Client.prototype as unknown as {
      compareClientSecret(this: { clientSecret?: string }, actual: string): boolean;
    };
    clientClass.compareClientSecret = function compareClientSecret(actual) {
      return clientSecretMatches(this.clientSecret, actual);
    };
    // Partner apps redeem their hand-off codes here (RFC 8693). Registered before any client
    // is read: the provider checks a client's grant_types against the registered ones.
    registerTokenExchange(provider, tenant.code, { db, tenants, clock, log });
    // Failures inside the provider go to our JSON log, never to stderr: those its error
    // handlers catch (server_error), and those they do not, e.g. saving its session during an
    // outage, which reach Koa's app 'error' event (the provider is the Koa app; its types do
    // not list the event). Without a listener there, Koa prints them to stderr.
    provider.on('server_error', (ctx: KoaContextWithOIDC, error: Error) =>
      log.error({ err: error, tenant: tenant.code, path: ctx.path }, 'provider request failed'),
    );
    // A database outage answers as OAuth says (503 temporarily_unavailable), never 500.
    provider.use(answerOutages(pages, tenant, log));
    const koa: EventEmitter = provider;
    koa.on('error', (error: Error, ctx?: KoaContextWithOIDC) =>
      log.error({ err: error, tenant: tenant.code, path: ctx?.path }, 'provider request failed'),
    );
    // RP-initiated logout ends the Keycard session too, server-side, so it holds without
    // JavaScript. The event comes after the provider checked its own form's CSRF token.
    const resumeUrl = `${issuerFor(config, tenant)}/auth/`;
    provider.on('end_session.success', (ctx: KoaContextWithOIDC) => {
      const token = ctx.cookies.get(storageKeys.sessionCookie, { signed: false });
      if (!token) return;
      // When another account finishes a sign-in in a browser whose provider session is still
      // the previous account's, the provider logs that session out on its own and then resumes
      // the pending sign-in: the Keycard session, already the new account's, stays.
      const then = (ctx.oidc.session?.state as { postLogoutRedirectUri?: unknown } | undefined)
        ?.postLogoutRedirectUri;
      if (typeof then === 'string' && then.startsWith(resumeUrl)) return;
      ctx.cookies.set(storageKeys.sessionCookie, null, {
        signed: false,
        httpOnly: true,
        sameSite: 'lax',
        secure: config.publicScheme === 'https',
        path: '/',
      });
      revokeSession(db, tenant.code, token).catch((error) =>
        log.error({ err: error, tenant: tenant.code }, 'ending the Keycard session failed'),
      );
    });
    return { provider, handler: provider.callback() };
  }
}
