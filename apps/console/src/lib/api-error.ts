import { apiErrorSchema } from '@keycard/contract/error-catalogue';
import type { ErrorCode } from '@keycard/contract/errors';
import { z } from 'zod';

/**
 * What a failed admin API call is, by code: the contract's error code, or one of the console's
 * own — `network` (no answer at all), `contract` (an answer off its operation's schema),
 * `unknown` (an error answer without a code the contract knows).
 */
export type ConsoleErrorCode = ErrorCode | 'network' | 'contract' | 'unknown';

/** A failed admin API call, shown translated by its code. */
export class ApiError extends Error {
  readonly code: ConsoleErrorCode;
  readonly status: number;
  /** The fields a refusal names (`{ path: message }`), when it names any. */
  readonly fields: Readonly<Record<string, string>> | undefined;
  constructor(
    code: ConsoleErrorCode,
    status: number,
    options: { fields?: Record<string, string>; detail?: string } = {},
  ) {
    // The message carries what the server said when its code is not the contract's.
    super(options.detail ?? code);
    this.code = code;
    this.status = status;
    this.fields = options.fields;
  }
}

/** The contract's error answer, read for its code and fields only (the message is English). */
const errorAnswer = z.looseObject({
  code: apiErrorSchema.shape.code,
  fields: apiErrorSchema.shape.fields,
});

/**
 * The error an admin API answer stands for: its code when the answer is the contract's error
 * shape, otherwise `unknown`, keeping whatever code it gave as the message.
 */
export function errorFromAnswer(status: number, answer: unknown): ApiError {
  const parsed = errorAnswer.safeParse(answer);
  if (parsed.success) return new ApiError(parsed.data.code, status, { fields: parsed.data.fields });
  const code = typeof answer === 'object' && answer !== null && 'code' in answer ? answer.code : undefined;
  return new ApiError('unknown', status, { detail: typeof code === 'string' ? code : undefined });
}

/**
 * A body the operator wrote as JSON (a partner, the settings), checked with its operation's
 * schema before it is sent: a refusal names its fields as the API's `common.validation_failed`
 * would, and what is sent is typed.
 */
export function parseRequestBody<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const fields: Record<string, string> = {};
  // The first reason of each field: an empty value is "required" before it is malformed.
  for (const issue of parsed.error.issues) fields[issue.path.join('.') || '_'] ??= issue.message;
  throw new ApiError('common.validation_failed', 0, { fields });
}
