import type { ErrorCode } from '@keycard/contract';

/** The one server error type: a stable code, an HTTP status, and whether the message may be shown. */
export class AppError extends Error {
  readonly code: ErrorCode | string;
  readonly status: number;
  readonly expose: boolean;
  readonly fields: Record<string, string> | undefined;

  constructor(code: ErrorCode | string, status: number, message?: string, fields?: Record<string, string>) {
    super(message ?? code);
    this.code = code;
    this.status = status;
    this.expose = status < 500;
    this.fields = fields;
  }
}

export function assertThat(
  condition: unknown,
  code: ErrorCode | string,
  status: number,
  message?: string,
): asserts condition {
  if (!condition) throw new AppError(code, status, message);
}
