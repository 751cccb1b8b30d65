import { adminScope, operatorTenantCode } from '@keycard/contract';
import { type Configuration, errors, interactionPolicy, type KoaContextWithOIDC } from 'oidc-provider';
import { adminResource, consoleClientId } from '../../features/operators/index.ts';
import type { TenantContext } from '../../features/tenants/index.ts';
import type { Config } from '../../platform/config.ts';
import { type Clock, DAY } from '../../platform/shared/clock.ts';

/** Access tokens for the admin API live ten minutes; a machine asks again (client credentials). */
export const adminTokenTtlSeconds = 600;

/**
 * The end of the operator's MFA freshness (epoch seconds), kept with each person's admin
 * access token: the admin API refuses the token from then on, whatever its expiry says.
 */
export const mfaFreshUntilClaim = 'mfa_fresh_until';

/** The shortest admin token a sign-in is handed on for; with less left, it is asked again. */
const minimumTokenSeconds = 60;

/**
 * The operator tenant's provider issues access tokens for one resource, the admin API
 * (RFC 8707 resource indicators): to machine clients through the client credentials grant
 * (RFC 6749 §4.4), to people signing in to the console through code + PKCE. The tokens are
 * opaque and stored, so the API looks each one up (and a revoked one fails at once). Other
 * tenants' providers are left as they are: they issue no client-credentials tokens at all.
 */
function mayUseAdminApi(client: { clientId: string; grantTypes?: readonly string[] | undefined }): boolean {
  return client.clientId === consoleClientId || (client.grantTypes ?? []).includes('client_credentials');
}

type Source = { authTime?: number | undefined } | undefined;

/** The sign-in (its password step, epoch seconds) a token request rests on, if any. */
function authTimeOf(ctx: KoaContextWithOIDC | undefined): number | undefined {
  const entities = ctx?.oidc?.entities as { AuthorizationCode?: Source; RefreshToken?: Source } | undefined;
  return entities?.AuthorizationCode?.authTime ?? entities?.RefreshToken?.authTime;
}

/**
 * The operator tenant's MFA freshness: a person's sign-in, with the second factor it required,
 * counts for the tenant's trusted-device period (`mfa.trustedDeviceDays`, one day as Keycard
 * creates the tenant) from its password step, which the MFA step follows. No admin token
 * outlives it: an authorization on an older sign-in asks for the sign-in again (the portal
 * then asks for the password, and the factor unless the browser is trusted), an access token's
 * lifetime ends with it, the admin API refuses the token once it has passed, and no refresh
 * token is issued to a public client or honoured past it (docs/admin-api.md, Access tokens).
 */
export function adminProviderConfiguration(config: Config, clock: Clock) {
  const resource = adminResource(config);
  return (tenant: TenantContext, configuration: Configuration): void => {
    if (tenant.code !== operatorTenantCode) return;
    const freshSeconds = Math.floor((tenant.settings.mfa.trustedDeviceDays * DAY) / 1000);
    // A sign-in is handed on only while a minute of it is left: a token of a few seconds would
    // send the console back to the provider at once, again and again, until the end.
    const handOnSeconds = freshSeconds - minimumTokenSeconds;
    const nowSeconds = () => Math.floor(clock.now() / 1000);
    const freshUntil = (authTime: number) => authTime + freshSeconds;

    configuration.scopes = [...(configuration.scopes ?? []), adminScope];
    // A request without max_age asks for a sign-in within the freshness period
    // (OpenID Connect Registration's default_max_age): the portal asks for the password again
    // on an older session instead of handing it on.
    configuration.clientDefaults = { ...configuration.clientDefaults, default_max_age: handOnSeconds };
    const policy = configuration.interactions?.policy as interactionPolicy.DefaultPolicy | undefined;
    policy?.get('login')?.checks.add(
      new interactionPolicy.Check(
        'operator_mfa_stale',
        "the operator's sign-in is older than the operator tenant's MFA freshness",
        'login_required',
        (ctx: KoaContextWithOIDC) => {
          // A request asking for a longer max_age gets the period: the portal then asks for a
          // fresh sign-in rather than handing on one the provider will not take.
          const params = ctx.oidc.params as { max_age?: string | number | undefined };
          const asked = Number(params.max_age);
          if (params.max_age === undefined || !Number.isFinite(asked) || asked > handOnSeconds) {
            params.max_age = String(handOnSeconds);
          }
          const { session } = ctx.oidc;
          const authTime = session?.accountId ? session.authTime() : undefined;
          if (authTime === undefined) return interactionPolicy.Check.NO_NEED_TO_PROMPT;
          return authTime + handOnSeconds > nowSeconds()
            ? interactionPolicy.Check.NO_NEED_TO_PROMPT
            : interactionPolicy.Check.REQUEST_PROMPT;
        },
      ),
    );
    // Public clients (the console) get no refresh token: one would mint admin tokens without a
    // secret and without the operator tenant's MFA, for as long as it lived.
    configuration.issueRefreshToken = (_ctx, client, source) =>
      client.clientAuthMethod !== 'none' &&
      client.grantTypeAllowed('refresh_token') &&
      source.scopes.has('offline_access');
    const findAccount = configuration.findAccount;
    if (findAccount) {
      configuration.findAccount = async (ctx, sub, token) => {
        // A refresh past the freshness gets nothing (invalid_grant), nor one by a public client
        // (a refresh token issued to the console before there was this rule).
        const refresh = token as { kind?: string; authTime?: number } | undefined;
        if (
          refresh?.kind === 'RefreshToken' &&
          (ctx.oidc.client?.clientAuthMethod === 'none' ||
            refresh.authTime === undefined ||
            freshUntil(refresh.authTime) <= nowSeconds())
        ) {
          return undefined;
        }
        return findAccount(ctx, sub, token);
      };
    }
    const baseTtl = typeof configuration.ttl?.AccessToken === 'number' ? configuration.ttl.AccessToken : 3600;
    configuration.ttl = {
      ...configuration.ttl,
      ClientCredentials: adminTokenTtlSeconds,
      // A person's token ends with the freshness (at least one second: the provider takes no
      // less; the admin API refuses it past the freshness in any case).
      AccessToken: (ctx, token) => {
        const base = token.resourceServer?.accessTokenTTL ?? baseTtl;
        const authTime = authTimeOf(ctx);
        if (authTime === undefined) return base;
        return Math.max(1, Math.min(base, freshUntil(authTime) - nowSeconds()));
      },
    };
    configuration.extraTokenClaims = (ctx, token) => {
      const authTime = token.kind === 'AccessToken' ? authTimeOf(ctx) : undefined;
      return authTime === undefined ? undefined : { [mfaFreshUntilClaim]: freshUntil(authTime) };
    };
    configuration.features = {
      ...configuration.features,
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        // Only the console and machine operators get tokens for the admin API; another client
        // registered on the operator tenant gets none (its tokens would act as the operator).
        defaultResource: (_ctx, client) => (client && mayUseAdminApi(client) ? resource : undefined),
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator, client) => {
          if (indicator !== resource || !mayUseAdminApi(client)) throw new errors.InvalidTarget();
          return {
            scope: adminScope,
            audience: resource,
            accessTokenTTL: adminTokenTtlSeconds,
            accessTokenFormat: 'opaque',
          };
        },
      },
    };
  };
}
