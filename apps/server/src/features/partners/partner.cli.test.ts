import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { exportJWK, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../surfaces/cli/cli.ts';
import { buildTestApp, engines, type TestApp } from '../../test/helper.ts';
import { runCliOn } from '../accounts/test-support.ts';
import { findPartner, listPartners } from './partner.repository.ts';

describe.each(engines)('keycard partners on %s', (engine) => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    t = await buildTestApp(engine);
    dir = mkdtempSync(path.join(tmpdir(), 'keycard-partners-cli-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t.close();
  });

  const run = (...argv: string[]) => runCliOn(t, 'partners', ...argv);

  it('adds a partner with a JWKS URL, lists it and shows every setting', async () => {
    const added = await run(
      'add',
      '--tenant',
      'seaside',
      '--partner',
      'booking-co',
      '--issuer',
      'https://booking.example',
      '--jwks-uri',
      'https://booking.example/.well-known/jwks.json',
      '--redirect-uri',
      'https://booking.example/keycard/return',
      '--redirect-uri',
      'https://booking.example/other',
      '--linking',
      'provision',
      '--name',
      'Booking Co',
    );
    expect(added).toMatchObject({ code: 0, out: 'Registered partner booking-co on seaside.' });
    expect(await findPartner(t.services.db, 'seaside', 'booking-co')).toMatchObject({
      displayName: 'Booking Co',
      issuer: 'https://booking.example',
      jwksUri: 'https://booking.example/.well-known/jwks.json',
      jwks: null,
      algorithms: ['RS256', 'ES256', 'EdDSA'],
      linking: 'provision',
      redirectUris: ['https://booking.example/keycard/return', 'https://booking.example/other'],
      helpUrlTemplate: null,
      skipMfa: false,
    });
    // Another tenant does not see it.
    expect(await findPartner(t.services.db, 'grand-hotel', 'booking-co')).toBeNull();

    const listed = await run('list', '--tenant', 'seaside');
    expect(listed.code).toBe(0);
    expect(listed.out).toContain('booking-co\tBooking Co\thttps://booking.example\tprovision');

    const shown = await run('show', '--tenant', 'seaside', '--partner', 'booking-co');
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.out)).toMatchObject({
      tenant: 'seaside',
      code: 'booking-co',
      linking: 'provision',
      redirectUris: ['https://booking.example/keycard/return', 'https://booking.example/other'],
    });
  });

  it('updates only what is given, and switches to an inline JWKS of public keys', async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
    const publicFile = path.join(dir, 'public.json');
    writeFileSync(publicFile, JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: 'k1' }] }));
    const updated = await run(
      'update',
      '--tenant',
      'seaside',
      '--partner',
      'booking-co',
      '--jwks-file',
      publicFile,
      '--algorithm',
      'ES256',
      '--skip-mfa',
      'true',
      '--help-url',
      'https://booking.example/help?user={email}',
    );
    expect(updated).toMatchObject({ code: 0, out: 'Updated partner booking-co on seaside.' });
    const partner = await findPartner(t.services.db, 'seaside', 'booking-co');
    expect(partner).toMatchObject({
      displayName: 'Booking Co',
      linking: 'provision',
      jwksUri: null,
      algorithms: ['ES256'],
      skipMfa: true,
      helpUrlTemplate: 'https://booking.example/help?user={email}',
    });
    expect(partner?.jwks?.keys[0]).toMatchObject({ kty: 'EC', kid: 'k1' });

    // A private key never enters the registry.
    const privateFile = path.join(dir, 'private.json');
    writeFileSync(privateFile, JSON.stringify({ keys: [await exportJWK(privateKey)] }));
    const refused = await run(
      'update',
      '--tenant',
      'seaside',
      '--partner',
      'booking-co',
      '--jwks-file',
      privateFile,
    );
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('--jwks-file');
    expect((await findPartner(t.services.db, 'seaside', 'booking-co'))?.jwks?.keys[0]).not.toHaveProperty(
      'd',
    );
  });

  it('refuses unsafe or malformed settings and saves nothing', async () => {
    const base = ['--tenant', 'seaside', '--partner', 'bad-one', '--issuer', 'https://bad.example'];
    const cases: Array<[string[], string]> = [
      [['--jwks-uri', 'https://bad.example/jwks', '--algorithm', 'none'], '--algorithm'],
      [['--jwks-uri', 'https://bad.example/jwks', '--algorithm', 'HS256'], '--algorithm'],
      [['--jwks-uri', 'https://bad.example/jwks', '--linking', 'any-email'], '--linking'],
      [['--jwks-uri', 'javascript:alert(1)'], '--jwks-uri'],
      [['--jwks-uri', 'https://bad.example/jwks', '--redirect-uri', 'not a url'], '--redirect-uri'],
      [[], '--jwks-uri'],
    ];
    for (const [extra, mentions] of cases) {
      const result = await run('add', ...base, ...extra);
      expect(result.code, extra.join(' ')).toBe(1);
      expect(result.err, extra.join(' ')).toContain(mentions);
    }
    const bothSources = await run(
      'add',
      ...base,
      '--jwks-uri',
      'https://bad.example/jwks',
      '--jwks-file',
      '/nonexistent',
    );
    expect(bothSources.code).toBe(2);
    const badCode = await run('add', ...base.slice(0, 2), '--partner', 'Bad Code!', '--issuer', 'x');
    expect(badCode.code).toBe(1);
    expect(await listPartners(t.services.db, 'seaside')).not.toContainEqual(
      expect.objectContaining({ code: 'bad-one' }),
    );
  });

  it('refuses adding twice, updating or removing what is not there, and unknown tenants', async () => {
    const again = await run(
      'add',
      '--tenant',
      'seaside',
      '--partner',
      'booking-co',
      '--issuer',
      'https://x.example',
      '--jwks-uri',
      'https://x.example/jwks',
    );
    expect(again.code).toBe(1);
    expect(again.err).toContain('partners update');
    expect((await findPartner(t.services.db, 'seaside', 'booking-co'))?.issuer).toBe(
      'https://booking.example',
    );
    expect((await run('update', '--tenant', 'seaside', '--partner', 'nobody')).code).toBe(1);
    expect((await run('remove', '--tenant', 'seaside', '--partner', 'nobody')).code).toBe(1);
    expect((await run('show', '--tenant', 'seaside', '--partner', 'nobody')).code).toBe(1);
    const unknownTenant = await run('list', '--tenant', 'atlantis');
    expect(unknownTenant).toMatchObject({ code: 1, err: 'No tenant with the code atlantis.' });
    expect((await run('rename', '--tenant', 'seaside')).code).toBe(2);
    expect((await run('show', '--tenant', 'seaside')).code).toBe(2);
  });

  it.each(['http://10.0.0.5/jwks', 'http://[::1]/x', 'http://localhost/x'])(
    'refuses %s as a key set address unless private outbound addresses are allowed, saving nothing',
    async (address) => {
      /** As run, with private outbound addresses (ALLOW_PRIVATE_OUTBOUND) allowed or not. */
      const runWith = async (allowPrivateOutbound: boolean, ...argv: string[]) => {
        const err: string[] = [];
        const code = await runCli(['partners', ...argv], {
          out: () => {},
          err: (line) => err.push(line),
          database: t.services.database,
          config: { ...t.config, allowPrivateOutbound },
          now: () => t.clock.now(),
        });
        return { code, err: err.join('\n') };
      };
      const refusal =
        'The partner was not saved:\n  jwksUri: a private, loopback or link-local address; the server does not fetch it';
      const add = [
        'add',
        '--tenant',
        'seaside',
        '--partner',
        'inside-co',
        '--issuer',
        'https://inside.example',
      ];
      try {
        expect(await runWith(false, ...add, '--jwks-uri', address)).toEqual({ code: 1, err: refusal });
        expect(await findPartner(t.services.db, 'seaside', 'inside-co')).toBeNull();
        const before = await findPartner(t.services.db, 'seaside', 'booking-co');
        const update = ['update', '--tenant', 'seaside', '--partner', 'booking-co', '--jwks-uri', address];
        expect(await runWith(false, ...update)).toEqual({ code: 1, err: refusal });
        expect(await findPartner(t.services.db, 'seaside', 'booking-co')).toEqual(before);

        expect((await runWith(true, ...add, '--jwks-uri', address)).code).toBe(0);
        expect((await findPartner(t.services.db, 'seaside', 'inside-co'))?.jwksUri).toBe(address);
      } finally {
        await run('remove', '--tenant', 'seaside', '--partner', 'inside-co');
      }
    },
  );

  it('removes a partner', async () => {
    const removed = await run('remove', '--tenant', 'seaside', '--partner', 'booking-co');
    expect(removed).toMatchObject({ code: 0 });
    expect(await findPartner(t.services.db, 'seaside', 'booking-co')).toBeNull();
  });
});
