import { errorCodes } from '@keycard/contract';
import type { z } from 'zod';
import { AppError } from '../shared/errors.ts';

/** Parses input with its contract schema; failures become a coded 400 naming the fields. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) fields[issue.path.join('.') || '_'] = issue.message;
  throw new AppError(errorCodes.validationFailed, { fields });
}
