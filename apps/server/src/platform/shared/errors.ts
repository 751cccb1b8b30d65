import { type ErrorCode, errorCatalogue } from '@keycard/contract';

export interface AppErrorOptions {
  /** Field-level details: JSON path → message, or retryAfterSeconds / providerCode. */
  fields?: Record<string, string> | undefined;
  cause?: unknown;
}

/**
 * The one server error type: a code declared in the contract, whose status and message come
 * from the contract's catalogue. A 5xx never shows its message to the client.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly expose: boolean;
  readonly fields: Record<string, string> | undefined;

  constructor(code: ErrorCode, options: AppErrorOptions = {}) {
    const { status, message } = errorCatalogue[code];
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = status;
    this.expose = status < 500;
    this.fields = options.fields && Object.keys(options.fields).length > 0 ? options.fields : undefined;
  }
}

export function assertThat(
  condition: unknown,
  code: ErrorCode,
  options?: AppErrorOptions,
): asserts condition {
  if (!condition) throw new AppError(code, options);
}

/** fields.retryAfterSeconds for a 429, so a client can count down (at least one second). */
export function retryAfter(ms: number): Record<string, string> {
  return { retryAfterSeconds: String(Math.max(1, Math.ceil(ms / 1000))) };
}
