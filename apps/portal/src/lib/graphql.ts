import { errorCodes } from '@keycard/contract/errors';
import { graphqlClientRules, mobileGraphqlPath, mobileSocketCloseCodes } from '@keycard/contract/mobile-mfa';
import { type Client, createClient } from 'graphql-ws';
import { ApiRequestError } from './api.ts';

/**
 * The portal's GraphQL client for the mobile-app MFA endpoint (SPEC §7, §9): POST with JSON,
 * the session cookie (same origin only), a trace token per operation, no cache, at most two
 * retries on status ≥ 500 or a network error (100 ms doubling up to 5 s, with jitter), and
 * subscriptions over graphql-transport-ws that reconnect up to ten times. Only the MFA chunk
 * imports this module, so graphql-ws stays out of the login route.
 */

/** One GraphQL error as the server formats it: the REST error code in extensions. */
interface GraphqlError {
  message: string;
  extensions?: { code?: string; retryAfterSeconds?: number };
}

interface GraphqlResponse<T> {
  data?: T | null;
  errors?: GraphqlError[];
}

/** The delay before retry number `attempt` (0-based): doubling from 100 ms, capped, jittered. */
export function retryDelayMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(graphqlClientRules.firstDelayMs * 2 ** attempt, graphqlClientRules.maxDelayMs);
  // "Equal jitter": between half and all of the step, so retries of many tabs spread out
  // without ever retrying at once.
  return Math.round(base * (0.5 + random() / 2));
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A GraphQL error as the ApiRequestError every screen already understands (typed code, fields). */
export function toApiError(error: GraphqlError): ApiRequestError {
  const extensions = error.extensions ?? {};
  return new ApiRequestError('answer', {
    code: extensions.code,
    message: error.message,
    ...(extensions.retryAfterSeconds !== undefined
      ? { fields: { retryAfterSeconds: String(extensions.retryAfterSeconds) } }
      : {}),
  });
}

/**
 * Runs one query or mutation. Resolves with `data`, or rejects with an ApiRequestError
 * carrying the first error's contract code (kind 'network' when the server was unreachable).
 */
export async function graphqlRequest<T>(
  query: string,
  variables: Record<string, unknown> = {},
  operationName?: string,
): Promise<T> {
  const trace = crypto.randomUUID();
  for (let attempt = 0; ; attempt++) {
    let response: Response;
    try {
      response = await fetch(mobileGraphqlPath, {
        method: 'POST',
        credentials: 'same-origin',
        cache: 'no-store',
        headers: {
          accept: 'application/json',
          'content-type': 'application/json',
          'x-trace-token': trace,
        },
        body: JSON.stringify({ query, variables, ...(operationName ? { operationName } : {}) }),
      });
    } catch {
      if (attempt < graphqlClientRules.maxRetries) {
        await sleep(retryDelayMs(attempt));
        continue;
      }
      throw new ApiRequestError('network');
    }
    if (response.status >= 500 && attempt < graphqlClientRules.maxRetries) {
      await sleep(retryDelayMs(attempt));
      continue;
    }
    const payload = (await response.json().catch(() => undefined)) as GraphqlResponse<T> | undefined;
    const first = payload?.errors?.[0];
    if (first) throw toApiError(first);
    if (!response.ok || !payload?.data) throw new ApiRequestError('answer');
    return payload.data;
  }
}

let socketClient: Client | null = null;

/** Close codes after which reconnecting cannot help: the session is gone or the origin refused. */
const finalCloseCodes = new Set<number>([
  mobileSocketCloseCodes.unauthenticated,
  mobileSocketCloseCodes.forbidden,
]);

function socketUrl(): string {
  const url = new URL(mobileGraphqlPath, window.location.href);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}

/** The page's one websocket (lazy: opened on the first subscription, closed after the last). */
function subscriptions(): Client {
  socketClient ??= createClient({
    url: socketUrl(),
    lazy: true,
    // The browser sends the session cookie with the upgrade; the payload stays empty.
    connectionParams: {},
    retryAttempts: graphqlClientRules.reconnectAttempts,
    retryWait: (retries) => sleep(retryDelayMs(retries)),
    shouldRetry: (reason) => {
      const code = (reason as { code?: unknown } | null)?.code;
      return !(typeof code === 'number' && finalCloseCodes.has(code));
    },
  });
  return socketClient;
}

/** What a subscription's failure is, as the screens handle it. */
function subscriptionError(reason: unknown): ApiRequestError {
  if (Array.isArray(reason) && reason[0]) return toApiError(reason[0] as GraphqlError);
  const code = (reason as { code?: unknown } | null)?.code;
  if (code === mobileSocketCloseCodes.unauthenticated) {
    return new ApiRequestError('answer', { code: errorCodes.sessionRequired });
  }
  return new ApiRequestError('network');
}

/**
 * Subscribes to one GraphQL subscription; onData gets each event's data. Returns the function
 * that ends it. onError gets an ApiRequestError (a GraphQL error, the session gone, or the
 * connection lost after every reconnect attempt).
 */
export function graphqlSubscribe<T>(
  query: string,
  variables: Record<string, unknown>,
  handlers: { onData: (data: T) => void; onError: (error: ApiRequestError) => void; onComplete?: () => void },
): () => void {
  return subscriptions().subscribe<T>(
    { query, variables },
    {
      next: (result) => {
        const first = result.errors?.[0];
        if (first) handlers.onError(toApiError(first as GraphqlError));
        else if (result.data) handlers.onData(result.data);
      },
      error: (reason) => handlers.onError(subscriptionError(reason)),
      complete: () => handlers.onComplete?.(),
    },
  );
}
