import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateTenantSettings } from '../tenants/tenant.admin.ts';
import { buildTestApp, engines, type TestApp } from '../test/helper.ts';
import { seedDemo } from './demo.ts';

describe.each(engines)('demo seed on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(engine);
  });
  afterAll(() => t.close());

  it('is idempotent and keeps settings an operator changed', async () => {
    await updateTenantSettings(t.services.db, 'seaside', { passwordExpiryDays: 90 });
    await seedDemo(t.services.db);
    await seedDemo(t.services.db);
    const tenants = await t.services.db
      .selectFrom('tenants')
      .select(['code', 'settings'])
      .orderBy('code')
      .execute();
    expect(tenants.map((row) => row.code)).toEqual(['grand-hotel', 'seaside', 'summit']);
    expect(JSON.parse(tenants[1]!.settings).passwordExpiryDays).toBe(90);
    expect(JSON.parse(tenants[2]!.settings).mfa.mode).toBe('required');
    const users = await t.services.db
      .selectFrom('users')
      .select('email')
      .where('email', 'like', 'demo@%')
      .execute();
    expect(users).toHaveLength(3);
  });
});
