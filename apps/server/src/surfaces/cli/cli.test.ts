import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  activeUser,
  lastMailTo,
  linkIn,
  mailsTo,
  runCliOn,
  setTenantSettings,
  uniqueEmail,
} from '../../features/accounts/test-support.ts';
import { findUserByEmail } from '../../features/accounts/user.repository.ts';
import { openDatabase } from '../../platform/db/database.ts';
import { buildTestApp, call, engines, type TestApp } from '../../test/helper.ts';
import { seedDemo } from '../seed/demo.ts';
import { runCli } from './cli.ts';

const cliPath = path.resolve(path.dirname(fileURLToPath(import.meta.url)), './cli.ts');

describe.each(engines)('operator CLI on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(engine);
  });
  afterAll(() => t.close());

  const run = (...argv: string[]) => runCliOn(t, ...argv);
  /** As run, with private outbound addresses (ALLOW_PRIVATE_OUTBOUND) allowed or not. */
  const runWith = async (allowPrivateOutbound: boolean, ...argv: string[]) => {
    const err: string[] = [];
    const code = await runCli(argv, {
      out: () => {},
      err: (line) => err.push(line),
      database: t.services.database,
      config: { ...t.config, allowPrivateOutbound },
      now: () => t.clock.now(),
    });
    return { code, err: err.join('\n') };
  };

  it('invites: a pending account of the given type and language, and its activation mail queued', async () => {
    const email = uniqueEmail('cli');
    const result = await run(
      'invite',
      '--tenant',
      'seaside',
      '--email',
      email.toUpperCase(),
      '--type',
      'enterprise',
      '--locale',
      'it',
    );
    expect(result).toMatchObject({ code: 0, err: '' });
    expect(result.out).toContain(`Invited ${email} to seaside (enterprise, it)`);
    expect(await findUserByEmail(t.services.db, 'seaside', email)).toMatchObject({
      status: 'pending',
      type: 'enterprise',
      locale: 'it',
    });
    const mail = await lastMailTo(t, email, 'account.activation');
    expect(mail.tenant).toBe('seaside');
    expect(mail.subject).toBe('Attivi il suo account Seaside Resorts');
    expect(linkIn(mail).origin).toBe('http://seaside.localhost:3000');
  });

  it('invites a pending address again with a new link, and refuses an active account', async () => {
    const email = uniqueEmail('again');
    await run('invite', '--tenant', 'grand-hotel', '--email', email, '--type', 'staff', '--locale', 'en');
    const again = await run(
      'invite',
      '--tenant',
      'grand-hotel',
      '--email',
      email,
      '--type',
      'staff',
      '--locale',
      'en',
    );
    expect(again.code).toBe(0);
    expect(again.out).toContain('Invited again');
    expect(await mailsTo(t, email)).toHaveLength(2);

    const active = await run(
      'invite',
      '--tenant',
      'grand-hotel',
      '--email',
      'demo@grand-hotel.test',
      '--type',
      'staff',
    );
    expect(active.code).toBe(1);
    expect(active.err).toContain('already has an account');
  });

  it('prints a registration link that the registration API accepts', async () => {
    const email = uniqueEmail('reg');
    const result = await run(
      'registration-link',
      '--tenant',
      'grand-hotel',
      '--email',
      email,
      '--redirect-uri',
      'http://localhost:3001/callback',
      '--days',
      '2',
    );
    expect(result.code).toBe(0);
    const link = new URL(result.out.trim());
    expect(link.origin + link.pathname).toBe('http://grand-hotel.localhost:3000/register/');
    expect(link.searchParams.get('redirectUri')).toBe('http://localhost:3001/callback');
    expect(result.err).toContain('Single use');
    const validate = await call(t.app, 'POST', '/api/validate-registration-token', {
      body: { token: link.searchParams.get('token') },
    });
    expect(validate.json()).toEqual({ email });
  });

  it.each([
    [
      ['invite', '--tenant', 'grand-hotel', '--email', 'a@grand-hotel.test', '--locale', 'en'],
      '--type is required',
    ],
    [
      ['invite', '--tenant', 'grand-hotel', '--email', 'a@grand-hotel.test', '--type', 'guest'],
      '--type must be one of',
    ],
    [
      [
        'invite',
        '--tenant',
        'grand-hotel',
        '--email',
        'a@grand-hotel.test',
        '--type',
        'staff',
        '--locale',
        'xx',
      ],
      '--locale must be one of',
    ],
    [['invite', '--tenant', 'grand-hotel', '--email', 'not-an-email', '--type', 'staff'], 'is not an e-mail'],
    [['invite', '--email', 'a@grand-hotel.test', '--type', 'staff'], '--tenant is required'],
    [['invite', '--tenant', 'grand-hotel', '--bogus'], "Unknown option '--bogus'"],
    [
      ['registration-link', '--tenant', 'grand-hotel', '--email', 'a@grand-hotel.test', '--days', '0'],
      '--days must be',
    ],
    [['explode'], 'unknown command explode'],
  ])('refuses %j with a usage message (exit 2)', async (argv, message) => {
    const result = await run(...argv);
    expect(result.code).toBe(2);
    expect(result.err).toContain(message);
    expect(result.err).toContain('keycard invite --tenant');
  });

  it('sets the MFA policy and analytics id of a tenant, and refuses bad values', async () => {
    try {
      const changed = await run(
        'tenant-settings',
        '--tenant',
        'seaside',
        '--set',
        'mfa.mode=recommended',
        '--set',
        'mfa.mandatoryFrom=2027-03-01',
        '--set',
        'mfa.trustedDeviceDays=30',
        '--set',
        'analyticsId=G-TEST',
      );
      expect(changed.code).toBe(0);
      expect(JSON.parse(changed.out)).toMatchObject({
        mfa: { mode: 'recommended', mandatoryFrom: '2027-03-01', trustedDeviceDays: 30 },
        analyticsId: 'G-TEST',
      });
      t.services.tenants.invalidate();
      const tenant = (await t.services.tenants.byCode('seaside'))!;
      expect(tenant.settings.mfa).toEqual({
        mode: 'recommended',
        mandatoryFrom: Date.parse('2027-03-01'),
        trustedDeviceDays: 30,
      });
      const offered = await run('tenant-settings', '--tenant', 'seaside', '--set', 'mfa.methods=totp, sms');
      expect(offered.code).toBe(0);
      t.services.tenants.invalidate();
      expect((await t.services.tenants.byCode('seaside'))!.settings.mfa.methods).toEqual(['totp', 'sms']);
      const every = await run('tenant-settings', '--tenant', 'seaside', '--set', 'mfa.methods=all');
      expect(every.code).toBe(0);
      t.services.tenants.invalidate();
      expect((await t.services.tenants.byCode('seaside'))!.settings.mfa.methods).toEqual([]);
      for (const bad of [
        'mfa.mode=sometimes',
        'mfa.mandatoryFrom=soon',
        'mfa.trustedDeviceDays=0',
        'mfa.methods=totp,email',
        'mfa.methods=sms,sms',
      ]) {
        const refused = await run('tenant-settings', '--tenant', 'seaside', '--set', bad);
        expect(refused.code, bad).toBe(2);
      }
    } finally {
      await setTenantSettings(t, {}, 'seaside');
    }
  });

  it('shows and changes the account settings of a tenant, never printing the captcha secret', async () => {
    const shown = await run('tenant-settings', '--tenant', 'seaside');
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.out)).toEqual({
      passwordExpiryDays: null,
      passwordWarningDays: null,
      emailVerificationRequired: false,
      captcha: { siteKey: null, secret: null, verifyUrl: null },
      mfa: { mode: 'off', mandatoryFrom: null, trustedDeviceDays: 60 },
      passkeys: 'offered',
      securityMail: { newBrowserSignIn: false },
      analyticsId: null,
    });
    try {
      const changed = await run(
        'tenant-settings',
        '--tenant',
        'seaside',
        '--set',
        'passwordExpiryDays=90',
        '--set',
        'passwordWarningDays=14',
        '--set',
        'emailVerificationRequired=true',
        '--set',
        'captcha.siteKey=site-key',
        '--set',
        'captcha.secret=very-secret',
        '--set',
        'captcha.minScore=0.7',
      );
      expect(changed.code).toBe(0);
      expect(changed.out).not.toContain('very-secret');
      expect(JSON.parse(changed.out)).toMatchObject({
        passwordExpiryDays: 90,
        passwordWarningDays: 14,
        emailVerificationRequired: true,
        captcha: { siteKey: 'site-key', secret: '(set)', minScore: 0.7 },
      });
      // Changing one captcha value keeps the others.
      await run('tenant-settings', '--tenant', 'seaside', '--set', 'captcha.siteKey=null');
      t.services.tenants.invalidate();
      const tenant = (await t.services.tenants.byCode('seaside'))!;
      expect(tenant.settings).toMatchObject({
        passwordExpiryDays: 90,
        captcha: { siteKey: null, secret: 'very-secret' },
      });
    } finally {
      await setTenantSettings(t, {}, 'seaside');
    }
  });

  it('refuses a password warning longer than the expiry, set together or against the stored one', async () => {
    try {
      const both = await run(
        'tenant-settings',
        '--tenant',
        'seaside',
        '--set',
        'passwordExpiryDays=7',
        '--set',
        'passwordWarningDays=10',
      );
      expect(both.code).toBe(1);
      expect(both.err).toContain(
        'passwordWarningDays: the warning period must not be longer than the password expiry (7 days)',
      );
      expect(
        (await run('tenant-settings', '--tenant', 'seaside', '--set', 'passwordExpiryDays=7')).code,
      ).toBe(0);
      const alone = await run('tenant-settings', '--tenant', 'seaside', '--set', 'passwordWarningDays=8');
      expect(alone.code, 'against the stored expiry').toBe(1);
      expect(alone.err).toContain('must not be longer than the password expiry (7 days)');
      expect(
        (await run('tenant-settings', '--tenant', 'seaside', '--set', 'passwordWarningDays=7')).code,
      ).toBe(0);
      const shorter = await run('tenant-settings', '--tenant', 'seaside', '--set', 'passwordExpiryDays=5');
      expect(shorter.code, 'an expiry shorter than the stored warning').toBe(1);
      t.services.tenants.invalidate();
      expect((await t.services.tenants.byCode('seaside'))!.settings).toMatchObject({
        passwordExpiryDays: 7,
        passwordWarningDays: 7,
      });
    } finally {
      await setTenantSettings(t, {}, 'seaside');
    }
  });

  it('applies e-mail verification to existing unverified accounts when the tenant turns it on, and back off', async () => {
    const unverified = uniqueEmail('unverified', 'seaside.test');
    await activeUser(t, unverified, 'Unverified-pass-1', { tenantCode: 'seaside' });
    await t.services.db
      .updateTable('users')
      .set({ email_verified: 0 })
      .where('email', '=', unverified)
      .execute();
    const flag = async (email: string) =>
      (await findUserByEmail(t.services.db, 'seaside', email))!.email_verification_required;
    try {
      const on = await run(
        'tenant-settings',
        '--tenant',
        'seaside',
        '--set',
        'emailVerificationRequired=true',
      );
      expect(on.err).toContain('will be asked to verify');
      expect(await flag(unverified)).toBe(1);
      // The demo user's address is verified: nothing to ask.
      expect(await flag('demo@seaside.test')).toBe(0);
      await run('tenant-settings', '--tenant', 'seaside', '--set', 'emailVerificationRequired=false');
      expect(await flag(unverified)).toBe(0);
    } finally {
      await setTenantSettings(t, {}, 'seaside');
    }
  });

  it.each([
    ['an unknown setting', 'mfa.backupEmail=x@y.test', 'the setting must be one of'],
    ['a negative day count', 'passwordExpiryDays=-3', 'passwordExpiryDays takes whole days'],
    ['a word for a flag', 'emailVerificationRequired=yes', 'takes true or false'],
    ['a verify URL that is not a URL', 'captcha.verifyUrl=nowhere', 'takes a URL or null'],
  ])('refuses %s in tenant-settings (exit 2)', async (_name, pair, message) => {
    const result = await run('tenant-settings', '--tenant', 'seaside', '--set', pair);
    expect(result.code).toBe(2);
    expect(result.err).toContain(message);
  });

  it.each(['http://10.0.0.5/verify', 'http://[::1]/x', 'http://localhost/x'])(
    'refuses %s as the captcha verifier unless private outbound addresses are allowed',
    async (address) => {
      const verifyUrl = async () => {
        t.services.tenants.invalidate();
        return (await t.services.tenants.byCode('seaside'))!.settings.captcha.verifyUrl;
      };
      const auditEntries = async () =>
        (
          await t.services.db
            .selectFrom('audit_log')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('tenant_code', '=', 'seaside')
            .executeTakeFirstOrThrow()
        ).n;
      const pair = `captcha.verifyUrl=${address}`;
      try {
        const entriesBefore = Number(await auditEntries());
        const refused = await runWith(
          false,
          'tenant-settings',
          '--tenant',
          'seaside',
          '--set',
          'captcha.siteKey=kept-out',
          '--set',
          pair,
        );
        expect(refused.code).toBe(1);
        expect(refused.err).toBe(
          'The settings were not saved:\n  captcha.verifyUrl: a private, loopback or link-local address; the server does not fetch it',
        );
        // Nothing of the change is stored, nor audited.
        expect(await verifyUrl()).toBeNull();
        expect((await t.services.tenants.byCode('seaside'))!.settings.captcha.siteKey).toBeNull();
        expect(Number(await auditEntries())).toBe(entriesBefore);

        const allowed = await runWith(true, 'tenant-settings', '--tenant', 'seaside', '--set', pair);
        expect(allowed.code).toBe(0);
        expect(await verifyUrl()).toBe(address);
      } finally {
        await setTenantSettings(t, {}, 'seaside');
      }
    },
  );

  it('takes a public captcha verifier with private outbound addresses not allowed', async () => {
    try {
      const taken = await runWith(
        false,
        'tenant-settings',
        '--tenant',
        'seaside',
        '--set',
        'captcha.verifyUrl=https://verify.example/check',
      );
      expect(taken).toEqual({ code: 0, err: 'Updated the settings of seaside.' });
      t.services.tenants.invalidate();
      expect((await t.services.tenants.byCode('seaside'))!.settings.captcha.verifyUrl).toBe(
        'https://verify.example/check',
      );
    } finally {
      await setTenantSettings(t, {}, 'seaside');
    }
  });

  it('refuses an unknown tenant and an unregistered redirect (exit 1)', async () => {
    const tenant = await run('invite', '--tenant', 'nowhere', '--email', 'a@b.test', '--type', 'staff');
    expect(tenant).toMatchObject({ code: 1, err: 'No tenant with the code nowhere.' });
    const redirect = await run(
      'registration-link',
      '--tenant',
      'grand-hotel',
      '--email',
      uniqueEmail('redir'),
      '--redirect-uri',
      'https://evil.example/',
    );
    expect(redirect.code).toBe(1);
    expect(redirect.err).toContain('is not a redirect URI registered for grand-hotel');
  });
});

describe('the keycard executable', () => {
  let dir: string;
  /** The operator's shell: this data directory, and no PostgreSQL (the SQLite file). */
  const operatorEnv = () => {
    const { DATABASE_URL: _ignored, ...env } = process.env;
    return { ...env, DATA_DIR: dir, NODE_ENV: 'development' };
  };
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'keycard-cli-'));
    const database = await openDatabase({ sqliteFile: path.join(dir, 'keycard.sqlite') });
    await seedDemo(database.kysely);
    await database.close();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('invites through the environment-configured database, as an operator runs it', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        cliPath,
        'invite',
        '--tenant',
        'grand-hotel',
        '--email',
        'shell@grand-hotel.test',
        '--type',
        'staff',
        '--locale',
        'pt',
      ],
      { env: operatorEnv() },
    );
    expect(stdout).toContain('Invited shell@grand-hotel.test to grand-hotel (staff, pt)');
    const database = await openDatabase({ sqliteFile: path.join(dir, 'keycard.sqlite') });
    try {
      const rows = await database.kysely.selectFrom('outbox').select(['recipient', 'template']).execute();
      expect(rows).toEqual([{ recipient: 'shell@grand-hotel.test', template: 'account.activation' }]);
    } finally {
      await database.close();
    }
  });

  it('prints its usage and exits 2 without a command', async () => {
    const failure = await promisify(execFile)(process.execPath, [cliPath], { env: operatorEnv() }).catch(
      (error: { code: number; stdout: string }) => error,
    );
    expect((failure as { code: number }).code).toBe(2);
    expect((failure as { stdout: string }).stdout).toContain('keycard registration-link');
  });
});
