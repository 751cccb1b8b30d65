import type { Migration } from 'kysely';

/** MFA migrations, named '2xxx_…' so they sort after the foundation and lifecycle. */
export const mfaMigrations: Record<string, Migration> = {};
