import type { ApiError } from '@keycard/contract/errors';
import { idempotencyKeyHeader } from '@keycard/contract/idempotency';

export class ApiRequestError extends Error {
  readonly kind: 'network' | 'http';
  readonly status: number;
  readonly code: string;
  readonly fields: Record<string, string> | undefined;

  constructor(kind: 'network' | 'http', status: number, body?: Partial<ApiError>) {
    super(body?.message ?? (kind === 'network' ? 'request_error' : `HTTP ${status}`));
    this.kind = kind;
    this.status = status;
    this.code = body?.code ?? (kind === 'network' ? 'request_error' : 'common.unknown');
    this.fields = body?.fields;
  }
}

const gatewayStatuses = new Set([502, 503, 504]);
const maxGatewayRetries = 10;

function traceToken(): string {
  return crypto.randomUUID();
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface ApiRequestOptions {
  /**
   * The call has an effect a repetition would duplicate (a mail, an SMS): it carries an
   * Idempotency-Key, one per call (one user action) and the same on each gateway retry, so a
   * retry whose first attempt reached the server but lost its answer is not acted on twice.
   */
  idempotent?: boolean;
}

/**
 * Calls the portal API: JSON both ways, a trace-token header on every request, and
 * gateway answers (502, 503, 504) retried up to 10 times with capped backoff (SPEC §7).
 */
export async function apiRequest<T>(
  method: string,
  path: string,
  body?: unknown,
  options: ApiRequestOptions = {},
): Promise<T> {
  const trace = traceToken();
  const idempotency: Record<string, string> = options.idempotent
    ? { [idempotencyKeyHeader]: crypto.randomUUID() }
    : {};
  for (let attempt = 0; ; attempt++) {
    let response: Response;
    try {
      response = await fetch(path, {
        method,
        credentials: 'same-origin',
        headers: {
          accept: 'application/json',
          'x-trace-token': trace,
          ...idempotency,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch {
      throw new ApiRequestError('network', 0);
    }
    if (gatewayStatuses.has(response.status) && attempt < maxGatewayRetries) {
      await sleep(Math.min(100 * 2 ** attempt, 5000) * (0.5 + Math.random() / 2));
      continue;
    }
    const payload = (await response.json().catch(() => undefined)) as unknown;
    if (!response.ok) throw new ApiRequestError('http', response.status, payload as Partial<ApiError>);
    return payload as T;
  }
}

export function isNetworkError(error: unknown): boolean {
  return error instanceof ApiRequestError && (error.kind === 'network' || error.code === 'request_error');
}
