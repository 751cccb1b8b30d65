/**
 * Whether a write failed on a unique or primary key, on either engine: PostgreSQL's SQLSTATE
 * 23505, node:sqlite's extended result codes (2067 SQLITE_CONSTRAINT_UNIQUE, 1555
 * SQLITE_CONSTRAINT_PRIMARYKEY) or, where only a message is left, SQLite's own words.
 * Features use it to turn a lost race for a name into their own clear error.
 */
export function isUniqueViolation(error: unknown): boolean {
  const { code, errcode, message } = (error ?? {}) as {
    code?: unknown;
    errcode?: unknown;
    message?: unknown;
  };
  return (
    code === '23505' ||
    errcode === 2067 ||
    errcode === 1555 ||
    (typeof message === 'string' && /UNIQUE constraint failed|PRIMARY KEY/i.test(message))
  );
}
