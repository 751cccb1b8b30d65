import type { Migration } from 'kysely';

/** Account-lifecycle migrations, named '1xxx_…' so they sort after the foundation. */
export const lifecycleMigrations: Record<string, Migration> = {};
