import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import { hashClientSecret } from '../../platform/security/client-secret.ts';
import { engines } from '../../test/helper.ts';
import { tenantFile, useConfigurationCli } from './configuration.cli.test-support.ts';

describe.each(engines)('keycard export on %s', (engine) => {
  const cli = useConfigurationCli(engine);
  const { run, write, tenantRow, clientOf } = cli;

  it('exports a tenant that applies as a no-op, without any secret', async () => {
    const exported = await run('export', '--tenant', 'grand-hotel');
    expect(exported.code).toBe(0);
    expect(exported.out).not.toMatch(/demo-app-secret|demo-partner-app-secret/);
    expect(exported.out).not.toMatch(/^\s*(client_)?secret:/m);
    const document = parse(exported.out) as { tenants: Array<Record<string, unknown>> };
    expect(document.tenants[0]).toMatchObject({
      code: 'grand-hotel',
      loginDomain: 'grand-hotel.localhost',
      aliasDomains: ['localhost'],
    });
    const again = await run('apply', '-f', write('grand-hotel.yaml', exported.out));
    expect(again, again.err).toMatchObject({ code: 0 });
    expect(again.out).toContain('No changes');
    expect((await clientOf('grand-hotel', 'demo-app'))!.client_secret).toBe(
      hashClientSecret('demo-app-secret'),
    );

    // -o writes the same text to a file.
    const file = path.join(cli.dir, 'out.yaml');
    expect((await run('export', '--tenant', 'grand-hotel', '-o', file)).code).toBe(0);
    expect(readFileSync(file, 'utf8').trimEnd()).toBe(exported.out);
  });

  it('round-trips a tenant made by apply, with its captcha secret, partners and pending invitations', async () => {
    vi.stubEnv('CFG_TEST_SECRET', 'round-trip-client-secret');
    vi.stubEnv('CFG_CAPTCHA_SECRET', 'round-trip-captcha-secret');
    const invitee = `invitee-${Math.random().toString(36).slice(2, 7)}@cfg.example`;
    const tenant = tenantFile({
      settings: {
        mfa: { mode: 'required', mandatoryFrom: '2027-03-01' },
        captcha: { siteKey: 'site-key', secretEnv: 'CFG_CAPTCHA_SECRET', minScore: 0.7 },
      },
      partners: [
        {
          code: 'booking',
          issuer: 'https://booking.example',
          jwksUri: 'https://booking.example/jwks.json',
        },
      ],
      invitations: [{ email: invitee, type: 'partner', locale: 'fr' }],
    });
    expect((await run('apply', '-f', write('round.yaml', { tenants: [tenant] }))).code).toBe(0);
    const stored = JSON.parse((await tenantRow(tenant.code))!.settings);
    expect(stored.captcha.secret).toBe('round-trip-captcha-secret');
    expect(stored.mfa.mandatoryFrom).toBe(Date.parse('2027-03-01'));

    vi.unstubAllEnvs();
    const exported = await run('export', '--tenant', tenant.code);
    expect(exported.out).not.toContain('round-trip');
    expect(exported.out).toContain('mandatoryFrom: 2027-03-01');
    expect(exported.out).toContain(invitee);
    const again = await run('apply', '-f', write('round-2.yaml', exported.out));
    expect(again, again.err).toMatchObject({ code: 0 });
    expect(again.out).toContain('No changes');
    expect(JSON.parse((await tenantRow(tenant.code))!.settings).captcha.secret).toBe(
      'round-trip-captcha-secret',
    );
  });

  it('carries text overrides through apply, export and dry-run: a change is a diff, the export a no-op', async () => {
    vi.stubEnv('CFG_TEST_SECRET', 'texts-secret');
    const heading = 'Willkommen bei <b>Lakeside</b>';
    const tenant = tenantFile();
    const withTexts = (texts: unknown) => ({ ...tenant, theme: { ...(tenant.theme as object), texts } });
    const first = await run(
      'apply',
      '-f',
      write('texts-1.yaml', {
        tenants: [
          withTexts({ de: { 'login.email.heading': heading, 'login.password.heading': 'Passwort' }, th: {} }),
        ],
      }),
    );
    expect(first, first.err).toMatchObject({ code: 0 });
    // Stored as given (a language without overrides dropped), and served on the next request.
    const stored = { de: { 'login.email.heading': heading, 'login.password.heading': 'Passwort' } };
    expect(JSON.parse((await tenantRow(tenant.code))!.theme).texts).toEqual(stored);
    await cli.app.services.tenants.refresh();
    expect((await cli.app.services.tenants.byCode(tenant.code))!.theme.texts).toEqual(stored);

    const exported = await run('export', '--tenant', tenant.code);
    expect((parse(exported.out) as { tenants: Array<{ theme: unknown }> }).tenants[0]!.theme).toMatchObject({
      texts: stored,
    });
    const version = (await tenantRow(tenant.code))!.version;
    const again = await run('apply', '-f', write('texts-2.yaml', exported.out));
    expect(again, again.err).toMatchObject({ code: 0 });
    expect(again.out).toContain('No changes');
    expect((await tenantRow(tenant.code))!.version).toBe(version);

    const changed = withTexts({
      de: { 'login.email.heading': 'Hallo', 'login.password.heading': 'Passwort' },
      en: { 'lifecycle.resetRequest.intro': 'We will mail you a link.' },
    });
    const dry = await run('apply', '-f', write('texts-3.yaml', { tenants: [changed] }), '--dry-run');
    expect(dry.out).toContain(`~ tenant ${tenant.code}: change`);
    expect(dry.out).toContain(`    theme.texts.de.login.email.heading: ${JSON.stringify(heading)} → "Hallo"`);
    expect(dry.out).toContain(
      '    theme.texts.en.lifecycle.resetRequest.intro: null → "We will mail you a link."',
    );
    expect(dry.out).not.toContain('login.password.heading');
    expect(dry.out).toContain('Nothing was written.');
    expect((await tenantRow(tenant.code))!.version).toBe(version);

    // A file without texts takes every override away, each shown as it goes.
    const cleared = await run('apply', '-f', write('texts-4.yaml', { tenants: [tenant] }));
    expect(cleared, cleared.err).toMatchObject({ code: 0 });
    expect(cleared.out).toContain(
      `    theme.texts.de.login.email.heading: ${JSON.stringify(heading)} → null`,
    );
    expect(JSON.parse((await tenantRow(tenant.code))!.theme).texts).toBeUndefined();
    expect((await run('export', '--tenant', tenant.code)).out).not.toContain('texts:');
    // ... and `texts: {}` says the same: nothing to change.
    expect((await run('apply', '-f', write('texts-5.yaml', { tenants: [withTexts({})] }))).out).toContain(
      'No changes',
    );
  });

  it('answers 1 for an export of an unknown tenant', async () => {
    const result = await run('export', '--tenant', 'nobody');
    expect(result).toMatchObject({ code: 1, err: 'No tenant with the code nobody.' });
  });
});
