import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../platform/db/database.ts';
import { buildTestApp, engines, type TestApp } from '../../test/helper.ts';
import { updateTenantSettings } from './tenant.admin.ts';

/** Settings changes merge, they never overwrite one another (tenant.admin.ts). */
describe.each(engines)('concurrent tenant settings changes on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(engine);
  });
  afterAll(() => t.close());

  it('keeps every one of 20 concurrent changes, from two instances, and raises the version for each', async () => {
    // On PostgreSQL a second instance has its own connections to the same database.
    const other =
      engine === 'postgres' ? await openDatabase({ databaseUrl: t.config.databaseUrl }) : undefined;
    try {
      const version = async () =>
        Number(
          (
            await t.services.db
              .selectFrom('tenants')
              .select('version')
              .where('code', '=', 'seaside')
              .executeTakeFirstOrThrow()
          ).version,
        );
      const before = await version();
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          updateTenantSettings(i % 2 === 0 || !other ? t.services.db : other.kysely, 'seaside', {
            captcha: { [`key${i}`]: `value-${i}` },
          }),
        ),
      );
      const row = await t.services.db
        .selectFrom('tenants')
        .select('settings')
        .where('code', '=', 'seaside')
        .executeTakeFirstOrThrow();
      const captcha = (JSON.parse(row.settings) as { captcha: Record<string, string> }).captcha;
      for (let i = 0; i < 20; i++) expect(captcha[`key${i}`], `change ${i}`).toBe(`value-${i}`);
      expect(await version()).toBe(before + 20);
    } finally {
      await other?.close();
    }
  });
});
