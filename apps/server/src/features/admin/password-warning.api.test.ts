import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { adminCall, adminFixtures, operatorToken } from '../../surfaces/admin/admin.test-support.ts';
import { tenantFile, useConfigurationCli } from '../../surfaces/cli/configuration.cli.test-support.ts';
import { buildTestApp, engines, type TestApp } from '../../test/helper.ts';

const reason = 'the warning period must not be longer than the password expiry';

/** A warning period longer than the expiry it warns of is refused, with the reason (issue 19, item 16). */
describe.each(engines)('password warning and expiry through the admin API on %s', (engine) => {
  let t: TestApp;
  let owner: string;
  beforeAll(async () => {
    t = await buildTestApp(engine);
    owner = await operatorToken(t, 'warning-owner', 'owner');
  });
  afterAll(() => t.close());
  const { tenantFor } = adminFixtures(
    () => t,
    () => owner,
  );
  const patch = (code: string, body: Record<string, unknown>) =>
    adminCall(t.app, 'PATCH', `/tenants/${code}/settings`, { token: owner, body });
  const stored = async (code: string) =>
    (await adminCall(t.app, 'GET', `/tenants/${code}`, { token: owner })).json().settings;

  it('refuses both set at once, and either one against the other as stored', async () => {
    await tenantFor('warned');
    const both = await patch('warned', { passwordExpiryDays: 7, passwordWarningDays: 10 });
    expect(both.statusCode).toBe(400);
    expect(both.json()).toMatchObject({ code: 'common.validation_failed' });
    expect(JSON.stringify(both.json().fields)).toContain(reason);
    expect(Object.keys(both.json().fields)).toEqual(['passwordWarningDays']);

    expect((await patch('warned', { passwordExpiryDays: 7, passwordWarningDays: 7 })).statusCode).toBe(200);
    const warningAlone = await patch('warned', { passwordWarningDays: 8 });
    expect(warningAlone.statusCode, 'a longer warning against the stored expiry').toBe(400);
    expect(warningAlone.json().fields['settings.passwordWarningDays']).toBe(`${reason} (7 days)`);
    const expiryAlone = await patch('warned', { passwordExpiryDays: 5 });
    expect(expiryAlone.statusCode, 'a shorter expiry under the stored warning').toBe(400);
    expect(expiryAlone.json().fields['settings.passwordWarningDays']).toBe(`${reason} (5 days)`);
    expect(await stored('warned')).toMatchObject({ passwordExpiryDays: 7, passwordWarningDays: 7 });

    // No expiry: a warning has nothing to exceed (it is simply never shown).
    expect((await patch('warned', { passwordExpiryDays: null, passwordWarningDays: 30 })).statusCode).toBe(
      200,
    );
    expect((await patch('warned', { passwordExpiryDays: 30 })).statusCode).toBe(200);
  });
});

describe.each(engines)('password warning and expiry through keycard apply on %s', (engine) => {
  const { run, write } = useConfigurationCli(engine);

  it('refuses a file whose warning is longer than its expiry, naming the setting and the reason', async () => {
    vi.stubEnv('CFG_TEST_SECRET', 'warning-test-secret');
    const tenant = tenantFile({ settings: { passwordExpiryDays: 7, passwordWarningDays: 14 } });
    const refused = await run('apply', '-f', write('warning-too-long.yaml', { tenants: [tenant] }));
    expect(refused.code).not.toBe(0);
    expect(refused.err).toContain('passwordWarningDays');
    expect(refused.err).toContain(reason);
    const fine = tenantFile({ settings: { passwordExpiryDays: 7, passwordWarningDays: 7 } });
    const applied = await run('apply', '-f', write('warning-fine.yaml', { tenants: [fine] }));
    expect(applied.code, applied.err).toBe(0);

    // A file that sets only one of the two is checked against the other as stored.
    const same = (settings: Record<string, unknown>) => ({ ...fine, settings });
    const warningOnly = same({ passwordWarningDays: 10 });
    const refusedAlone = await run('apply', '-f', write('warning-only.yaml', { tenants: [warningOnly] }));
    expect(refusedAlone.code, refusedAlone.out + refusedAlone.err).not.toBe(0);
    expect(refusedAlone.err).toContain(`${reason} (7 days)`);
    const expiryOnly = same({ passwordExpiryDays: 5 });
    const refusedExpiry = await run('apply', '-f', write('expiry-only.yaml', { tenants: [expiryOnly] }));
    expect(refusedExpiry.code).not.toBe(0);
    expect(refusedExpiry.err).toContain(`${reason} (5 days)`);
    const longer = same({ passwordExpiryDays: 30 });
    const appliedLonger = await run('apply', '-f', write('expiry-longer.yaml', { tenants: [longer] }));
    expect(appliedLonger.code, appliedLonger.err).toBe(0);
  });
});
