import type { FastifyBaseLogger } from 'fastify';
import Provider, { errors, type KoaContextWithOIDC } from 'oidc-provider';
import { isOutage, outageRetryAfterSeconds } from '../../platform/shared/outage.ts';
import type { TenantContext } from '../tenants/index.ts';
import type { ProviderPageRenderer } from './provider-pages.ts';

/**
 * A database (or Redis) outage seen through the OIDC provider. OAuth has a word for it:
 * `temporarily_unavailable` (RFC 6749 §4.1.2.1, §5.2 by practice), answered here with 503 and
 * Retry-After. The provider's own error handlers then do what OAuth asks of each endpoint:
 * JSON at the back-channel endpoints (token, userinfo, revocation), a redirect to the app
 * with the error where the authorization endpoint has verified the client and its
 * redirect_uri, the tenant's error page where it cannot. Nothing of an outage answers 500.
 */

export const unavailableCode = 'temporarily_unavailable';
export const unavailableDescription = 'the service is briefly unavailable; try again in a moment';

/** The cause of the first outage a request met, kept on its context to be logged once. */
const outageKey = Symbol('keycard.outage');
type OutageState = { [outageKey]?: unknown };

/** oidc-provider keeps the request being handled in async local storage (Provider.ctx). */
function currentRequest(): KoaContextWithOIDC | undefined {
  return (Provider as unknown as { ctx?: KoaContextWithOIDC }).ctx;
}

/** OAuth's temporarily_unavailable with status 503; the store's error stays its cause. */
export function temporarilyUnavailable(cause: unknown): errors.OIDCProviderError {
  const error = new errors.TemporarilyUnavailable(unavailableDescription, { cause });
  // The class answers 400 by default; an outage is the server's, and its answer says so.
  Object.assign(error, { status: 503, statusCode: 503 });
  return error;
}

/**
 * Store work on the provider's behalf (its adapter, account look-ups, Keycard's sign-in check):
 * an outage becomes temporarily_unavailable, any other failure passes unchanged. Code outside
 * the provider that meets the converted error still sees an outage (isOutage follows `cause`).
 */
export async function providerStoreWork<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof errors.TemporarilyUnavailable || !isOutage(error)) throw error;
    const ctx = currentRequest();
    if (ctx) (ctx.state as OutageState)[outageKey] ??= error;
    throw temporarilyUnavailable(error);
  }
}

/** Paths (inside the provider) a browser is sent to: they answer pages, never JSON. */
export function isBrowserRoute(path: string): boolean {
  return path === '/auth' || path.startsWith('/auth/') || path.startsWith('/session/end');
}

/** The JSON body of a back-channel answer during an outage. */
export const unavailableBody = { error: unavailableCode, error_description: unavailableDescription };

/** The headers of every answer during an outage: when to come back, and keep no copy. */
export const unavailableHeaders = {
  'retry-after': String(outageRetryAfterSeconds),
  'cache-control': 'no-store',
};

/**
 * The provider's outermost middleware. It answers an outage that escaped the provider's own
 * error handlers (the provider saves its session after the route's handler has answered) as
 * those would have, adds Retry-After to every 503, and logs each outage once, as an error of
 * the request (the app's other routes log theirs the same way).
 */
export function answerOutages(pages: ProviderPageRenderer, tenant: TenantContext, log: FastifyBaseLogger) {
  return async (ctx: KoaContextWithOIDC, next: () => Promise<unknown>): Promise<void> => {
    const state = ctx.state as OutageState;
    try {
      await next();
    } catch (error) {
      if (!isOutage(error)) throw error;
      // A route that already answered an outage (an error page, the app's redirect with the
      // error) before the provider failed to save its session too: that answer stands.
      // Otherwise the route's answer is replaced, whatever it had prepared (a redirect with a
      // code, its cookies): it may rest on what was not saved.
      if (state[outageKey] === undefined || ctx.status < 300) {
        state[outageKey] ??= error;
        ctx.remove('location');
        ctx.remove('set-cookie');
        if (isBrowserRoute(ctx.path)) {
          await pages.renderError(ctx, tenant, { error: unavailableCode });
        } else {
          ctx.type = 'json';
          ctx.body = unavailableBody;
        }
        ctx.status = 503;
      }
    }
    if (state[outageKey] !== undefined) {
      log.error({ err: state[outageKey], tenant: tenant.code, path: ctx.path }, 'provider request failed');
    }
    if (ctx.status === 503) ctx.set(unavailableHeaders);
  };
}
