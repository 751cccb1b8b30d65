import type { Action, FieldChange } from './configuration.types.ts';

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Leaves of an object by dotted path; arrays are leaves (compared whole). */
function flatten(value: unknown, prefix = '', into = new Map<string, unknown>()): Map<string, unknown> {
  if (isObject(value) && Object.keys(value).length > 0) {
    for (const [key, inner] of Object.entries(value)) flatten(inner, prefix ? `${prefix}.${key}` : key, into);
  } else if (prefix) into.set(prefix, value === undefined ? null : value);
  return into;
}

/**
 * The fields that differ between what is stored (null: nothing yet) and what is wanted, by
 * dotted path. A secret's value is never shown, only where it comes from (`secrets`).
 */
export function diff(
  before: object | null,
  after: object,
  secrets: Record<string, string> = {},
): FieldChange[] {
  const old = before ? flatten(before) : new Map<string, unknown>();
  const next = flatten(after);
  const changes: FieldChange[] = [];
  for (const field of new Set([...old.keys(), ...next.keys()])) {
    const a = old.get(field) ?? null;
    const b = next.get(field) ?? null;
    if (JSON.stringify(a) === JSON.stringify(b)) continue;
    if (field in secrets || /secret/i.test(field)) {
      changes.push({ field, secret: secrets[field] ?? 'set' });
    } else changes.push({ field, ...(before ? { before: a } : {}), after: b });
  }
  return changes;
}

/** What a planned object amounts to: created, changed or left as it is. */
export const actionOf = (exists: boolean, fields: FieldChange[]): Action =>
  !exists ? 'create' : fields.length > 0 ? 'change' : 'unchanged';
