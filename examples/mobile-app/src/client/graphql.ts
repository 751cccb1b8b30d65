import { graphqlClientRules } from '@keycard/contract/mobile-mfa';

/** A GraphQL error as the endpoint codes it (extensions.code from packages/contract errors.ts). */
export class GraphqlError extends Error {
  readonly code: string;
  readonly status: number | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(message: string, code: string, status?: number, retryAfterSeconds?: number) {
    super(message);
    this.name = 'GraphqlError';
    this.code = code;
    this.status = status;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

interface GraphqlResponse<T> {
  data?: T | null;
  errors?: Array<{
    message?: string;
    extensions?: { code?: unknown; status?: unknown; retryAfterSeconds?: unknown };
  }>;
}

/** 100 ms doubling up to 5 s, each wait drawn between half and all of it (SPEC §7 client rules). */
function retryDelayMs(retry: number): number {
  const ceiling = Math.min(graphqlClientRules.firstDelayMs * 2 ** retry, graphqlClientRules.maxDelayMs);
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function toGraphqlError(body: GraphqlResponse<unknown>, httpStatus: number): GraphqlError {
  const [first] = body.errors ?? [];
  const extensions = first?.extensions ?? {};
  return new GraphqlError(
    first?.message ?? `The server answered ${httpStatus}`,
    typeof extensions.code === 'string' ? extensions.code : 'graphql.error',
    typeof extensions.status === 'number' ? extensions.status : httpStatus,
    typeof extensions.retryAfterSeconds === 'number' ? extensions.retryAfterSeconds : undefined,
  );
}

/**
 * POSTs one operation to the tenant's endpoint, straight from the browser (the server allows
 * this app's origin by CORS, without cookies). Retries at most twice on a network error or a
 * status ≥ 500, never on other errors. `variables` is a function so that each attempt signs a
 * fresh proof: a proof's jti is single use, so a retry must never resend the same one.
 */
export async function requestGraphql<T>(input: {
  endpoint: string;
  query: string;
  operationName: string;
  variables?: () => Promise<Record<string, unknown>>;
  accessToken?: string;
}): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    const canRetry = attempt < graphqlClientRules.maxRetries;
    let response: Response;
    try {
      response = await fetch(input.endpoint, {
        method: 'POST',
        cache: 'no-store',
        credentials: 'omit',
        headers: {
          'content-type': 'application/json',
          accept: 'application/graphql-response+json, application/json',
          ...(input.accessToken ? { authorization: `Bearer ${input.accessToken}` } : {}),
        },
        body: JSON.stringify({
          query: input.query,
          operationName: input.operationName,
          variables: input.variables ? await input.variables() : {},
        }),
      });
    } catch (error) {
      if (canRetry) {
        await sleep(retryDelayMs(attempt));
        continue;
      }
      throw new GraphqlError(
        `Cannot reach ${new URL(input.endpoint).host}: ${error instanceof Error ? error.message : String(error)}`,
        'network.unreachable',
      );
    }
    if (response.status >= 500 && canRetry) {
      await sleep(retryDelayMs(attempt));
      continue;
    }
    let body: GraphqlResponse<T>;
    try {
      body = (await response.json()) as GraphqlResponse<T>;
    } catch {
      throw new GraphqlError(
        `The server answered ${response.status} without GraphQL`,
        'graphql.bad_response',
        response.status,
      );
    }
    if (body.errors?.length || !body.data) throw toGraphqlError(body, response.status);
    return body.data;
  }
}
