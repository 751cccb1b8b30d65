import { type AdminErrorCode, type ErrorCode, errorCodes, passkeyErrors } from '@keycard/contract/errors';
import { idempotencyKeyHeader } from '@keycard/contract/idempotency';

/**
 * The contract's codes the portal's APIs (/api and the mobile GraphQL endpoint) answer: an
 * answer's code is one of these or it is not trusted. The login route carries only the families
 * its own answers use (the common, login and session codes and the passkey sign-in's); each
 * other flow's error table adds the families it reads (`trustErrorCodes`) when its chunk loads,
 * before any call of that flow. Only tables read codes (`lookupError`), so a family no loaded
 * table reads could only ever reach the `otherwise` row, as an unexpected code does. The admin
 * API's codes are never added: the portal does not call it.
 */
const knownCodes = new Set<string>([...Object.values(errorCodes), ...Object.values(passkeyErrors)]);

/** Trusts the codes of these contract families: called by the error table that reads them. */
export function trustErrorCodes(
  ...families: ReadonlyArray<Readonly<Record<string, Exclude<ErrorCode, AdminErrorCode>>>>
): void {
  for (const family of families) for (const code of Object.values(family)) knownCodes.add(code);
}

/**
 * The code an answer is handled by. A code the contract does not know (a newer server, a
 * proxy's own JSON) or none at all is the contract's unexpected-error code, so every flow's
 * table sees only codes it can be checked against.
 */
export const fallbackErrorCode: ErrorCode = errorCodes.internal;

export function errorCodeOf(value: unknown): ErrorCode {
  return typeof value === 'string' && knownCodes.has(value) ? (value as ErrorCode) : fallbackErrorCode;
}

/**
 * A refused call. `network`: no answer came (offline, connection reset); its code is the
 * contract's unavailable code, and flows that say "check your connection" ask `isNetworkError`.
 * `answer`: the server (or a gateway) answered with an error; `code` is its typed code.
 */
export class ApiRequestError extends Error {
  readonly kind: 'network' | 'answer';
  readonly code: ErrorCode;
  readonly fields: Record<string, string> | undefined;

  /** `body`: the answer's JSON as it came (anything: it is checked here, not trusted). */
  constructor(kind: 'network' | 'answer', body?: unknown) {
    const answer = isRecord(body) ? body : {};
    const code = kind === 'network' ? errorCodes.unavailable : errorCodeOf(answer.code);
    super(typeof answer.message === 'string' ? answer.message : code);
    this.kind = kind;
    this.code = code;
    this.fields = isTextRecord(answer.fields) ? answer.fields : undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isTextRecord(value: unknown): value is Record<string, string> {
  return isRecord(value) && Object.values(value).every((entry) => typeof entry === 'string');
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
      throw new ApiRequestError('network');
    }
    if (gatewayStatuses.has(response.status) && attempt < maxGatewayRetries) {
      await sleep(Math.min(100 * 2 ** attempt, 5000) * (0.5 + Math.random() / 2));
      continue;
    }
    const payload = (await response.json().catch(() => undefined)) as unknown;
    if (!response.ok) throw new ApiRequestError('answer', payload);
    return payload as T;
  }
}

/** No answer came: the flows say "check your connection" and offer to try again. */
export function isNetworkError(error: unknown): boolean {
  return error instanceof ApiRequestError && error.kind === 'network';
}

/** The typed code of a refusal; anything that is not an ApiRequestError is unexpected. */
export function codeOf(error: unknown): ErrorCode {
  return error instanceof ApiRequestError ? error.code : fallbackErrorCode;
}

/**
 * One flow's error table: what a refusal does, by its typed code (SPEC §8; Logto's
 * useErrorHandler). `network` when no answer came, `otherwise` for every code without a row
 * (the unexpected fallback among them).
 */
export interface ErrorTable<T> {
  network: T;
  codes: Partial<Record<ErrorCode, T>>;
  otherwise: T;
}

export function lookupError<T>(table: ErrorTable<T>, caught: unknown): T {
  if (isNetworkError(caught)) return table.network;
  return table.codes[codeOf(caught)] ?? table.otherwise;
}
