import { tokenExchange } from '@keycard/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { errors, type Grant, type Provider, type TokenEndpointGrantContext } from 'oidc-provider';
import type { Database } from '../../platform/db/schema.ts';
import type { Clock } from '../../platform/shared/clock.ts';
import { findPartner, handoffGrantId, isHandoffReused, redeemHandoffCode } from '../partners/index.ts';
import { hasRecentMfa } from '../sessions/index.ts';
import { isGrantSufficient, loadAccount, signInMethodOfAmr } from '../sign-in/index.ts';
import type { TenantDirectory } from '../tenants/index.ts';
import { revokeGrant } from './adapter.ts';
import { providerStoreWork } from './provider-outage.ts';

/** What a hand-off redemption grants: the claims the partner app needs, nothing offline. */
const handoffScope = 'openid email profile';

/** Parameters of RFC 8693 §2.1 the token endpoint accepts for this grant. */
const parameters = [
  'subject_token',
  'subject_token_type',
  'requested_token_type',
  'actor_token',
  'actor_token_type',
  'audience',
  'resource',
  'scope',
];

export interface TokenExchangeDeps {
  db: Kysely<Database>;
  tenants: TenantDirectory;
  clock: Clock;
  log: FastifyBaseLogger;
}

/**
 * OAuth 2.0 Token Exchange (RFC 8693) at a tenant's /oidc/token: a partner app's back end
 * trades the one-time hand-off code of a partner sign-in (partners/handoff.service.ts) for an
 * opaque access token and an ID token. The client must authenticate (a public client could be
 * anyone holding the code) and must own the redirect URI the code was sent to. The code is
 * consumed by one atomic statement; a second redemption is refused and ends the grant the
 * first one issued, as RFC 6749 §4.1.2 asks of a reused authorization code.
 */
export function registerTokenExchange(provider: Provider, tenantCode: string, deps: TokenExchangeDeps): void {
  provider.registerGrantType(
    tokenExchange.grantType,
    (ctx: TokenEndpointGrantContext) => providerStoreWork(() => exchangeHandoffCode(ctx, tenantCode, deps)),
    parameters,
    ['audience', 'resource'],
  );
}

async function exchangeHandoffCode(
  ctx: TokenEndpointGrantContext,
  tenantCode: string,
  deps: TokenExchangeDeps,
): Promise<void> {
  const { db, tenants, clock, log } = deps;
  const { client, provider } = ctx.oidc;
  const params = ctx.oidc.params as Record<string, string | undefined>;
  if (!client.clientAuthMethod || client.clientAuthMethod === 'none') {
    throw new errors.InvalidClient('client authentication is required for token exchange');
  }
  const code = params.subject_token;
  if (!code || !params.subject_token_type) {
    throw new errors.InvalidRequest('subject_token and subject_token_type are required');
  }
  // RFC 8693 §2.2.2: an unsupported token type is invalid_request.
  if (params.subject_token_type !== tokenExchange.handoffCodeType) {
    throw new errors.InvalidRequest('unsupported subject_token_type');
  }
  if (params.actor_token !== undefined || params.actor_token_type !== undefined) {
    throw new errors.InvalidRequest('delegation (actor_token) is not supported');
  }
  const requested = params.requested_token_type;
  if (requested !== undefined && requested !== tokenExchange.accessTokenType) {
    throw new errors.InvalidRequest('unsupported requested_token_type');
  }

  const now = clock.now();
  const redemption = await redeemHandoffCode(
    db,
    { tenantCode, code, redirectUris: client.redirectUris ?? [] },
    now,
  );
  if (!redemption.ok) {
    if (redemption.reason === 'reused') {
      await revokeGrant(db, tenantCode, redemption.grantId);
      log.warn({ tenant: tenantCode, client: client.clientId }, 'hand-off code reused: its grant is revoked');
    }
    throw new errors.InvalidGrant('hand-off code invalid, expired or already used');
  }

  const tenant = await tenants.byCode(tenantCode);
  const partner = await findPartner(db, tenantCode, redemption.data.partnerCode);
  const account = tenant ? await loadAccount(db, tenant, redemption.userId) : null;
  // The session was complete when the code was made, a minute ago at most; the account, the
  // partner and the tenant's settings are read again now (a disabled account, a removed
  // partner, MFA required since).
  // As at the partner's sign-in: skipMfa never applies to an account that passed MFA within
  // the tenant's trusted-device period (issue 16).
  const skipMfa =
    tenant !== null &&
    partner?.skipMfa === true &&
    !(await hasRecentMfa(
      db,
      { tenantCode, userId: redemption.userId, trustedDeviceDays: tenant.settings.mfa.trustedDeviceDays },
      now,
    ));
  const method = signInMethodOfAmr(redemption.data.amr, skipMfa);
  if (
    !tenant ||
    !partner ||
    !account ||
    !isGrantSufficient(tenant, account, redemption.data.amr, now, method)
  ) {
    throw new errors.InvalidGrant('the account may not sign in');
  }
  const { user } = account;

  const grant: Grant = new provider.Grant({ accountId: user.id, clientId: client.clientId });
  // The grant's id is derived from the code, so a later reuse revokes exactly this grant.
  grant.jti = redemption.grantId;
  grant.addOIDCScope(handoffScope);
  await grant.save();

  const accessToken = new provider.AccessToken({
    accountId: user.id,
    client,
    grantId: redemption.grantId,
    gty: 'token_exchange',
    scope: handoffScope,
  });
  ctx.oidc.entity('AccessToken', accessToken);
  const accessTokenValue = await accessToken.save();

  const idToken = new provider.IdToken(
    {
      sub: user.id,
      email: user.email,
      email_verified: user.email_verified === 1,
      locale: user.locale,
      user_type: user.type,
    },
    { ctx },
  );
  // The scope that masks the claims (the provider's own grants set it the same way; its types
  // do not declare the property).
  (idToken as unknown as { scope: string }).scope = handoffScope;
  // Set outside the claims mask: how and when the user signed in, and through which partner.
  idToken.set('amr', redemption.data.amr);
  idToken.set('auth_time', redemption.data.authTime);
  idToken.set('partner_code', redemption.data.partnerCode);
  const idTokenValue = await idToken.issue({ use: 'idtoken' });

  // A reuse that raced this redemption may have revoked the grant before it was saved; it
  // marked the code first, so the mark is seen here and the tokens just issued die too.
  if (await isHandoffReused(db, tenantCode, code)) await revokeGrant(db, tenantCode, handoffGrantId(code));

  ctx.body = {
    access_token: accessTokenValue,
    issued_token_type: tokenExchange.accessTokenType,
    token_type: 'Bearer',
    expires_in: accessToken.expiration,
    id_token: idTokenValue,
    scope: handoffScope,
  };
}
