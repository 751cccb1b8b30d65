import { describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import { engines } from '../../test/helper.ts';
import { tenantFile, useConfigurationCli } from './configuration.cli.test-support.ts';

/**
 * The passkey and security-mail settings (issue 18) travel like every other setting: through
 * `keycard apply` and `export`, and `keycard tenant-settings`, each change raising the tenant's
 * version so every instance applies it within seconds.
 */
describe.each(engines)(
  'passkey and security-mail settings in apply, export and tenant-settings on %s',
  (engine) => {
    const cli = useConfigurationCli(engine);
    const { run, write, tenantRow } = cli;

    it('exports the defaults, applies a change as a diff that raises the version, and round-trips it', async () => {
      vi.stubEnv('CFG_TEST_SECRET', 'passkey-settings-secret');
      const tenant = tenantFile();
      expect((await run('apply', '-f', write('pk-1.yaml', { tenants: [tenant] }))).code).toBe(0);

      // A tenant that never set them exports the defaults.
      const first = parse((await run('export', '--tenant', tenant.code)).out) as {
        tenants: Array<{ settings: Record<string, unknown> }>;
      };
      expect(first.tenants[0]!.settings).toMatchObject({
        passkeys: 'offered',
        securityMail: { newBrowserSignIn: false },
      });

      const version = Number((await tenantRow(tenant.code))!.version);
      const changed = {
        ...tenant,
        settings: { passkeys: 'preferred', securityMail: { newBrowserSignIn: true } },
      };
      const dry = await run('apply', '-f', write('pk-2.yaml', { tenants: [changed] }), '--dry-run');
      expect(dry.out).toContain('settings.passkeys: "offered" → "preferred"');
      expect(dry.out).toContain('settings.securityMail.newBrowserSignIn: false → true');
      expect(Number((await tenantRow(tenant.code))!.version)).toBe(version);

      const applied = await run('apply', '-f', write('pk-3.yaml', { tenants: [changed] }));
      expect(applied, applied.err).toMatchObject({ code: 0 });
      expect(Number((await tenantRow(tenant.code))!.version)).toBeGreaterThan(version);
      await cli.app.services.tenants.refresh();
      const live = (await cli.app.services.tenants.byCode(tenant.code))!.settings;
      expect(live.passkeys).toBe('preferred');
      expect(live.securityMail).toEqual({ newBrowserSignIn: true });

      // The export says so, and applying it changes nothing (the version stays).
      const exported = await run('export', '--tenant', tenant.code);
      expect(exported.out).toContain('passkeys: preferred');
      expect(exported.out).toContain('newBrowserSignIn: true');
      const after = Number((await tenantRow(tenant.code))!.version);
      const again = await run('apply', '-f', write('pk-4.yaml', exported.out));
      expect(again, again.err).toMatchObject({ code: 0 });
      expect(again.out).toContain('No changes');
      expect(Number((await tenantRow(tenant.code))!.version)).toBe(after);

      // Leaving them out of the file keeps them, as every setting.
      const kept = await run('apply', '-f', write('pk-5.yaml', { tenants: [tenant] }));
      expect(kept.out).toContain('No changes');
    });

    it('refuses an unknown passkey mode and a misspelt security-mail field, naming the field', async () => {
      vi.stubEnv('CFG_TEST_SECRET', 'passkey-settings-secret');
      const wrongMode = tenantFile({ settings: { passkeys: 'always' } });
      const refused = await run('apply', '-f', write('pk-bad-1.yaml', { tenants: [wrongMode] }));
      expect(refused.code).not.toBe(0);
      expect(refused.err).toContain('tenants[0].settings.passkeys');
      const misspelt = tenantFile({ settings: { securityMail: { newBrowserSignin: true } } });
      const unknown = await run('apply', '-f', write('pk-bad-2.yaml', { tenants: [misspelt] }));
      expect(unknown.code).not.toBe(0);
      expect(unknown.err).toContain('tenants[0].settings.securityMail.newBrowserSignin: unknown field');
    });

    it('keycard tenant-settings shows and changes both, raising the version, and refuses bad values', async () => {
      vi.stubEnv('CFG_TEST_SECRET', 'passkey-settings-secret');
      const tenant = tenantFile();
      expect((await run('apply', '-f', write('pk-cli.yaml', { tenants: [tenant] }))).code).toBe(0);
      const shown = await run('tenant-settings', '--tenant', tenant.code);
      expect(JSON.parse(shown.out)).toMatchObject({
        passkeys: 'offered',
        securityMail: { newBrowserSignIn: false },
      });
      const version = Number((await tenantRow(tenant.code))!.version);
      const changed = await run(
        'tenant-settings',
        '--tenant',
        tenant.code,
        '--set',
        'passkeys=off',
        '--set',
        'securityMail.newBrowserSignIn=true',
      );
      expect(changed, changed.err).toMatchObject({ code: 0 });
      expect(JSON.parse(changed.out)).toMatchObject({
        passkeys: 'off',
        securityMail: { newBrowserSignIn: true },
      });
      expect(Number((await tenantRow(tenant.code))!.version)).toBeGreaterThan(version);
      const stored = JSON.parse((await tenantRow(tenant.code))!.settings);
      expect(stored).toMatchObject({ passkeys: 'off', securityMail: { newBrowserSignIn: true } });
      for (const bad of ['passkeys=sometimes', 'securityMail.newBrowserSignIn=yes']) {
        const refused = await run('tenant-settings', '--tenant', tenant.code, '--set', bad);
        expect(refused.code, bad).toBe(2);
      }
    });
  },
);
