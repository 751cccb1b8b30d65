import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { adminErrors, adminPartnerResponse, adminTenantSchema, apiErrorSchema } from '@keycard/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliOn } from '../../features/accounts/test-support.ts';
import { buildTestApp, engines, type TestApp } from '../../test/helper.ts';
import { adminCall, operatorToken } from './admin.test-support.ts';

const point = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' });

/**
 * Addresses Keycard's servers fetch (a partner's key set, the captcha check) are refused at
 * write time when they name a private place, as production runs (ALLOW_PRIVATE_OUTBOUND off).
 */
describe.each(engines)('outbound addresses checked at write time on %s', (engine) => {
  let t: TestApp;
  let owner: string;
  let dir: string;
  beforeAll(async () => {
    t = await buildTestApp(engine, { env: { ALLOW_PRIVATE_OUTBOUND: 'false' } });
    owner = await operatorToken(t, 'outbound-owner', 'owner');
    dir = mkdtempSync(path.join(tmpdir(), 'keycard-outbound-'));
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const inside = [
    'http://127.0.0.1:8080/jwks',
    'http://[::1]/jwks',
    'http://[::ffff:127.0.0.1]/jwks',
    'http://169.254.169.254/latest/meta-data/',
    'http://10.0.0.7/jwks',
    'http://2130706433/jwks',
    'https://keys.localhost/jwks',
  ];

  it("refuses a partner's key set at a private address, and takes a public one", async () => {
    for (const [index, jwksUri] of inside.entries()) {
      const answer = await adminCall(t.app, 'PUT', `/tenants/grand-hotel/partners/inside-${index}`, {
        token: owner,
        body: { code: `inside-${index}`, issuer: 'https://inside.partner.example', jwksUri },
      });
      expect(answer.statusCode, `${jwksUri} ${answer.body}`).toBe(400);
      const error = apiErrorSchema.parse(answer.json());
      expect(error.code).toBe(adminErrors.privateAddress);
      expect(Object.keys(error.fields ?? {})).toEqual(['jwksUri']);
    }
    const listed = await adminCall(t.app, 'GET', '/tenants/grand-hotel/partners', { token: owner });
    const codes = listed.json().partners.map((partner: { code: string }) => partner.code);
    expect(codes.filter((code: string) => code.startsWith('inside-'))).toEqual([]);
    const outside = await adminCall(t.app, 'PUT', '/tenants/grand-hotel/partners/outside', {
      token: owner,
      body: {
        code: 'outside',
        issuer: 'https://outside.partner.example',
        jwksUri: 'https://keys.partner.example/jwks',
      },
    });
    expect(outside.statusCode, outside.body).toBe(200);
    adminPartnerResponse.parse(outside.json());
    // Keys given inline are not fetched: nothing to check.
    const inline = await adminCall(t.app, 'PUT', '/tenants/grand-hotel/partners/inline', {
      token: owner,
      body: {
        code: 'inline',
        issuer: 'https://inline.partner.example',
        jwksUri: null,
        jwks: { keys: [{ kty: 'EC', crv: 'P-256', kid: 'k1', x: point.x, y: point.y }] },
      },
    });
    expect(inline.statusCode).toBe(200);
  });

  it('refuses a captcha check at a private address in settings and in a new tenant', async () => {
    for (const verifyUrl of inside) {
      const answer = await adminCall(t.app, 'PATCH', '/tenants/grand-hotel/settings', {
        token: owner,
        body: { captcha: { verifyUrl } },
      });
      expect(answer.statusCode, verifyUrl).toBe(400);
      const error = apiErrorSchema.parse(answer.json());
      expect(error.code).toBe(adminErrors.privateAddress);
      expect(Object.keys(error.fields ?? {})).toEqual(['settings.captcha.verifyUrl']);
    }
    const tenant = adminTenantSchema.parse(
      (await adminCall(t.app, 'GET', '/tenants/grand-hotel', { token: owner })).json(),
    );
    expect(JSON.stringify(tenant.settings)).not.toContain('169.254');
    const accepted = await adminCall(t.app, 'PATCH', '/tenants/grand-hotel/settings', {
      token: owner,
      body: { captcha: { verifyUrl: 'https://captcha.example/siteverify' } },
    });
    expect(accepted.statusCode).toBe(200);

    const created = await adminCall(t.app, 'POST', '/tenants', {
      token: owner,
      body: {
        code: 'inside-captcha',
        aliasCode: null,
        loginDomain: 'inside-captcha.localhost',
        aliasDomains: [],
        defaultRedirectUri: 'https://app.example.com/',
        loginClientId: 'inside-app',
        theme: tenant.theme,
        settings: { captcha: { verifyUrl: 'http://192.168.0.1/verify' } },
        clients: [{ clientId: 'inside-app', redirectUris: ['https://app.example.com/callback'] }],
      },
    });
    expect(created.statusCode).toBe(400);
    expect(apiErrorSchema.parse(created.json()).code).toBe(adminErrors.privateAddress);
    expect((await adminCall(t.app, 'GET', '/tenants/inside-captcha', { token: owner })).statusCode).toBe(404);
  });

  it('keycard partners add and update refuse a private key set address', async () => {
    const partner = ['--tenant', 'grand-hotel', '--partner', 'shell-inside'];
    const added = await runCliOn(
      t,
      'partners',
      'add',
      ...partner,
      '--issuer',
      'https://p.example',
      '--jwks-uri',
      'http://127.0.0.1:9/jwks',
    );
    expect(added.code).toBe(1);
    expect(added.err).toContain('jwksUri');
    expect((await runCliOn(t, 'partners', 'show', ...partner)).code).toBe(1);
    const publicKeys = ['--issuer', 'https://p.example', '--jwks-uri', 'https://keys.partner.example/jwks'];
    expect((await runCliOn(t, 'partners', 'add', ...partner, ...publicKeys)).code).toBe(0);
    const updated = await runCliOn(
      t,
      'partners',
      'update',
      ...partner,
      '--jwks-uri',
      'http://[::ffff:a9fe:a9fe]/',
    );
    expect(updated.code).toBe(1);
    expect((await runCliOn(t, 'partners', 'show', ...partner)).out).toContain(
      'https://keys.partner.example/jwks',
    );
  });

  it('keycard apply refuses the same addresses and writes nothing', async () => {
    const file = path.join(dir, 'inside.json');
    const tenant = (await adminCall(t.app, 'GET', '/tenants/grand-hotel', { token: owner })).json();
    writeFileSync(
      file,
      JSON.stringify({
        tenants: [
          {
            code: 'applied-inside',
            loginDomain: 'applied-inside.localhost',
            defaultRedirectUri: 'https://app.example.com/',
            loginClientId: 'applied-app',
            theme: tenant.theme,
            clients: [{ clientId: 'applied-app', redirectUris: ['https://app.example.com/callback'] }],
            partners: [
              { code: 'applied-partner', issuer: 'https://p.example', jwksUri: 'http://[fe80::1]/jwks' },
            ],
          },
        ],
      }),
    );
    const applied = await runCliOn(t, 'apply', '-f', file);
    expect(applied.code).toBe(1);
    expect(applied.err).toContain('Nothing was written');
    expect(applied.err).toContain('tenants[0].partners[0].jwksUri');
    const row = await t.services.db
      .selectFrom('tenants')
      .select('code')
      .where('code', '=', 'applied-inside')
      .executeTakeFirst();
    expect(row).toBeUndefined();
  });
});
