import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { lifecycleErrors } from '@keycard/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PartnerKeys } from '../../features/partners/partner-token.service.ts';
import { verifyCaptcha } from '../../features/tenants/captcha.ts';
import type { TenantContext } from '../../features/tenants/tenant.types.ts';
import { partnerKey, startJwksServer } from '../../test/partners.ts';
import { loadConfig } from '../config.ts';
import {
  isPrivateAddress,
  namesPrivateHost,
  outboundFetch,
  PrivateAddressError,
  type Resolver,
} from './outbound.ts';

describe('private addresses (SSRF)', () => {
  it('knows private, loopback, link-local and reserved addresses, IPv4 and IPv6, and IPv4 inside IPv6', () => {
    const inside = [
      '127.0.0.1',
      '127.255.0.9',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      'fe80::1',
      'fe80::1%eth0',
      'fc00::1',
      'fd12:3456::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:a9fe:a9fe',
      '::ffff:10.0.0.1',
      '64:ff9b::7f00:1',
      // Well-known NAT64 carrying a private IPv4 address, however it is written.
      '64:ff9b::10.0.0.1',
      '64:ff9b::a9fe:a9fe',
      '64:FF9B:0:0:0:0:c0a8:101',
      '2002:7f00:1::',
      '::127.0.0.1',
      // SIIT (IPv4-translated), local-use NAT64, Teredo and the 6to4 relay: refused whole.
      '::ffff:0:7f00:1',
      '::ffff:0:808:808',
      '::ffff:0:8.8.8.8',
      '64:ff9b:1::808:808',
      '64:ff9b:1:ffff::1',
      '2001::1',
      '2001:0:4136:e378:8000:63bf:3fff:fdd2',
      '192.88.99.1',
      '::ffff:192.88.99.1',
      'not-an-address',
    ];
    for (const address of inside) expect(isPrivateAddress(address), address).toBe(true);
    const outside = [
      '93.184.216.34',
      '8.8.8.8',
      '172.32.0.1',
      '2606:4700::1111',
      '::ffff:8.8.8.8',
      '2002:808:808::',
      '64:ff9b::808:808',
      '64:ff9b::8.8.8.8',
      '2001:4860:4860::8888',
      '192.88.98.1',
      '192.88.100.1',
    ];
    for (const address of outside) expect(isPrivateAddress(address), address).toBe(false);
  });

  it('reads a URL for the private place it names, however the address is written', () => {
    for (const url of [
      'http://127.0.0.1/keys',
      'http://2130706433/keys', // 127.0.0.1 as one number
      'http://0x7f.1/keys',
      'http://[::1]:8080/',
      'http://[::ffff:127.0.0.1]/',
      'https://169.254.169.254/latest/meta-data/',
      'http://localhost:3000/',
      'http://keys.localhost/',
      'http://LOCALHOST./',
    ]) {
      expect(namesPrivateHost(url), url).toBe(true);
    }
    for (const url of ['https://keys.partner.example/jwks', 'https://8.8.8.8/', 'not a url']) {
      expect(namesPrivateHost(url), url).toBe(false);
    }
  });
});

describe('ALLOW_PRIVATE_OUTBOUND', () => {
  const production = {
    NODE_ENV: 'production',
    COOKIE_SECRET: 'c'.repeat(32),
    ENCRYPTION_KEY: 'e'.repeat(64),
    DATABASE_URL: 'postgres://keycard@db.example/keycard',
  };
  it('is off in production unless set, and on elsewhere (local stand-ins) unless turned off', () => {
    expect(loadConfig(production).allowPrivateOutbound).toBe(false);
    expect(loadConfig({ ...production, ALLOW_PRIVATE_OUTBOUND: 'true' }).allowPrivateOutbound).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development' }).allowPrivateOutbound).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test', ALLOW_PRIVATE_OUTBOUND: 'false' }).allowPrivateOutbound).toBe(
      false,
    );
  });

  it('gives the admin API generous limits by default', () => {
    expect(loadConfig(production).adminLimits).toEqual({
      perOperator: 600,
      perAddress: 1200,
      authFailuresPerAddress: 30,
    });
  });
});

describe('outbound fetches', () => {
  let server: Server;
  let port: number;
  const hits: string[] = [];
  beforeAll(async () => {
    server = createServer((request, response) => {
      hits.push(request.url ?? '');
      if (request.url === '/redirect') {
        response.writeHead(302, { location: `http://127.0.0.1:${port}/inside` }).end();
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const resolveTo =
    (...addresses: string[]): Resolver =>
    async () =>
      addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

  it('refuses a literal private address and a name that resolves to one, before any request', async () => {
    hits.length = 0;
    await expect(
      outboundFetch(`http://127.0.0.1:${port}/`, {}, { allowPrivate: false }),
    ).rejects.toBeInstanceOf(PrivateAddressError);
    await expect(
      outboundFetch(`http://[::ffff:7f00:1]:${port}/`, {}, { allowPrivate: false }),
    ).rejects.toBeInstanceOf(PrivateAddressError);
    // Every address the name has is checked: one inside is enough to refuse.
    for (const resolve of [
      resolveTo('127.0.0.1'),
      resolveTo('93.184.216.34', '10.0.0.1'),
      resolveTo('::1'),
    ]) {
      await expect(
        outboundFetch(`http://keys.partner.example:${port}/`, {}, { allowPrivate: false, resolve }),
      ).rejects.toBeInstanceOf(PrivateAddressError);
    }
    expect(hits).toEqual([]);
  });

  it('connects to the address it checked, and follows no redirect', async () => {
    hits.length = 0;
    const resolve = resolveTo('127.0.0.1');
    const answer = await outboundFetch(
      `http://keys.partner.example:${port}/redirect`,
      {},
      { allowPrivate: true, resolve },
    );
    expect(answer.status).toBe(302);
    expect(hits).toEqual(['/redirect']);
    const direct = await outboundFetch(
      `http://keys.partner.example:${port}/ok`,
      {},
      { allowPrivate: true, resolve },
    );
    expect(await direct.json()).toEqual({ success: true });
  });

  it('fetches no partner key set and posts no captcha secret to a private address when that is not allowed', async () => {
    const key = await partnerKey('ssrf-1');
    const jwks = await startJwksServer([key.publicJwk]);
    try {
      const refused = new PartnerKeys({ allowPrivate: false }).keysOf({ jwks: null, jwksUri: jwks.url });
      await expect(refused({ alg: 'ES256', kid: 'ssrf-1' }, undefined as never)).rejects.toThrow();
      expect(jwks.hits).toBe(0);
      const allowed = new PartnerKeys({ allowPrivate: true }).keysOf({ jwks: null, jwksUri: jwks.url });
      await expect(allowed({ alg: 'ES256', kid: 'ssrf-1' }, undefined as never)).resolves.toBeDefined();
      expect(jwks.hits).toBe(1);
    } finally {
      await jwks.close();
    }

    hits.length = 0;
    const tenant = {
      settings: {
        captcha: { siteKey: 'site', secret: 'captcha-secret', verifyUrl: `http://127.0.0.1:${port}/verify` },
      },
    } as unknown as TenantContext;
    await expect(
      verifyCaptcha(tenant, 'token', 'SIGNUP', '203.0.113.9', { allowPrivate: false }),
    ).rejects.toMatchObject({ code: lifecycleErrors.captchaFailed });
    expect(hits).toEqual([]);
    await verifyCaptcha(tenant, 'token', 'SIGNUP', '203.0.113.9', { allowPrivate: true });
    expect(hits).toEqual(['/verify']);
  });
});
