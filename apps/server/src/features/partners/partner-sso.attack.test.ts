import { apiPaths } from '@keycard/contract';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../platform/db/database.ts';
import { AppError } from '../../platform/shared/errors.ts';
import { buildTestApp, demo, engines, freePort, type TestApp } from '../../test/helper.ts';
import { Browser } from '../../test/http-client.ts';
import { type Cluster, instancesFor } from '../../test/instances.ts';
import {
  type JwksServer,
  manyRequests,
  type PartnerKey,
  partnerKey,
  partnerLinkOf,
  partnerSso,
  registerPartner,
  signPartnerToken,
  startJwksServer,
} from '../../test/partners.ts';
import { issuerFor } from '../tenants/tenant.service.ts';
import { signInWithPartner } from './partner-sso.service.ts';
import { PartnerKeys } from './partner-token.service.ts';

/**
 * Attacks on the partner sign-in (issue 8): forged, stale, foreign and replayed partner
 * tokens. Each is refused with a code and opens no session; one token opens one session
 * however many requests race with it, on one instance or two of one database.
 */
const layouts = engines.map((engine): [Engine, string] => [
  engine,
  engine === 'postgres' ? 'two instances' : 'one instance',
]);

const claimsFor = (sub = 'sub-demo') => ({ email: demo.grandHotel.email, email_verified: true, sub });
const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe.each(layouts)('partner tokens under attack on %s, %s', (engine) => {
  let cluster: Cluster;
  let origin: string;
  let key: PartnerKey;
  let unknownKey: PartnerKey;
  let rsaKey: PartnerKey;
  const issuer = 'https://attack.partner.test';
  const audience = () => `${origin}/oidc`;
  const via = (i: number) => cluster.instances[i % cluster.instances.length]!.fetch;

  beforeAll(async () => {
    cluster = await instancesFor(engine, manyRequests);
    origin = cluster.origin('grand-hotel');
    key = await partnerKey('key-1');
    unknownKey = await partnerKey('key-unknown');
    rsaKey = await partnerKey('rsa-1', 'RS256');
    const jwks = { keys: [key.publicJwk, rsaKey.publicJwk] as Array<{ kty: 'EC' }> };
    // ES256 only: an RS256 key published beside it must not widen what is accepted.
    await registerPartner(cluster.t, 'grand-hotel', { code: 'attack', issuer, jwks, algorithms: ['ES256'] });
    // The same partner code on another tenant, with the same keys.
    await registerPartner(cluster.t, 'seaside', { code: 'attack', issuer, jwks });
    await registerPartner(cluster.t, 'seaside', { code: 'elsewhere', issuer, jwks });
  });
  afterAll(() => cluster.close());

  const valid = (overrides: Record<string, unknown> = {}, options = {}) =>
    signPartnerToken(key, { iss: issuer, aud: audience(), ...claimsFor(), ...overrides }, options);

  async function attempt(token: string, partner = 'attack') {
    const browser = new Browser(via(0));
    const answer = await partnerSso(browser, origin, partner, token);
    const session = await browser.fetch(`${origin}${apiPaths.session}`);
    return { ...answer, sessionExists: ((await session.json()) as { exists: boolean }).exists };
  }

  it('accepts the genuine token (the baseline of the attacks below)', async () => {
    expect(await attempt(await valid())).toMatchObject({
      status: 200,
      setsSession: true,
      sessionExists: true,
    });
  });

  const now = () => Math.floor(Date.now() / 1000);
  const forgeries: Array<[string, () => Promise<string>]> = [
    ['an expired token', () => valid({}, { nowSeconds: now() - 200 - 31 - 120 })],
    ['a token issued in the future', () => valid({}, { nowSeconds: now() + 120 })],
    [
      'a tampered payload',
      async () => {
        const [header, , signature] = (await valid()).split('.');
        return `${header}.${base64url({ iss: issuer, aud: audience(), sub: 'admin', iat: now(), exp: now() + 60, jti: 'x' })}.${signature}`;
      },
    ],
    [
      'a tampered signature',
      async () => {
        const token = await valid();
        const last = token.at(-2) === 'A' ? 'B' : 'A';
        return `${token.slice(0, -2)}${last}${token.at(-1)}`;
      },
    ],
    [
      'alg none',
      async () =>
        `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url({ iss: issuer, aud: audience(), sub: 'sub-demo', iat: now(), exp: now() + 60, jti: `none-${Math.random()}` })}.`,
    ],
    [
      'HS256 keyed with the published public key',
      () =>
        new SignJWT({ iss: issuer, aud: audience(), sub: 'sub-demo', jti: `hs-${Math.random()}` })
          .setProtectedHeader({ alg: 'HS256', kid: key.kid })
          .setIssuedAt()
          .setExpirationTime('1m')
          .sign(new TextEncoder().encode(JSON.stringify(key.publicJwk))),
    ],
    [
      'RS256, published but not allowed for the partner',
      () => signPartnerToken(rsaKey, { iss: issuer, aud: audience(), ...claimsFor() }),
    ],
    ['a wrong audience', () => valid({ aud: 'https://other.example/oidc' })],
    ['an audience naming another party too', () => valid({ aud: [audience(), 'https://other.example'] })],
    ["another tenant's audience", () => valid({ aud: `${origin.replace('grand-hotel', 'seaside')}/oidc` })],
    ['a wrong issuer', () => valid({ iss: 'https://evil.partner.test' })],
    [
      'an unknown key id',
      () => signPartnerToken(unknownKey, { iss: issuer, aud: audience(), ...claimsFor() }),
    ],
    ['a lifetime over five minutes', () => valid({ exp: now() + 301 }, { nowSeconds: now() })],
    ['no jti', () => valid({ jti: undefined })],
    ['no sub', () => valid({ sub: undefined })],
    ['no exp', () => valid({ exp: undefined })],
    ['claims of the wrong type', () => valid({ email_verified: 'true' })],
    ['not a JWT at all', async () => 'not.a.jwt'],
  ];

  it.each(forgeries)('refuses %s with partner.token_invalid and no session', async (_name, forge) => {
    const answer = await attempt(await forge());
    expect(answer).toMatchObject({
      status: 401,
      body: { code: 'partner.token_invalid' },
      setsSession: false,
      sessionExists: false,
    });
  });

  it("refuses another tenant's partner as unknown here", async () => {
    const answer = await attempt(await valid(), 'elsewhere');
    expect(answer).toMatchObject({ status: 404, body: { code: 'partner.unknown' }, sessionExists: false });
  });

  it('opens exactly one session for one token raced by 20 requests', async () => {
    for (let round = 0; round < 3; round++) {
      const token = await valid({}, {});
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => partnerSso(new Browser(via(i)), origin, 'attack', token)),
      );
      expect(
        answers.filter((a) => a.status === 200 && a.setsSession),
        `round ${round}: one sign-in`,
      ).toHaveLength(1);
      expect(
        answers.filter((a) => a.status === 409 && a.body.code === 'partner.token_replayed' && !a.setsSession),
        `round ${round}: every other request is a replay`,
      ).toHaveLength(19);
    }
  });

  it('provisions one account for a new subject whose first sign-ins race', async () => {
    await registerPartner(cluster.t, 'grand-hotel', {
      code: 'provisioner',
      issuer,
      jwks: { keys: [key.publicJwk as { kty: 'EC' }] },
      linking: 'provision',
    });
    const email = `racer-${engine}@partner.test`;
    const tokens = await Promise.all(
      Array.from({ length: 10 }, () =>
        signPartnerToken(key, {
          iss: issuer,
          aud: audience(),
          sub: 'sub-racer',
          email,
          email_verified: true,
        }),
      ),
    );
    const answers = await Promise.all(
      tokens.map((token, i) => partnerSso(new Browser(via(i)), origin, 'provisioner', token)),
    );
    expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 10 }, () => 200));
    const { db } = cluster.t.services;
    const users = await db.selectFrom('users').select('id').where('email', '=', email).execute();
    expect(users).toHaveLength(1);
    const link = await partnerLinkOf(cluster.t, 'grand-hotel', 'provisioner', 'sub-racer');
    expect(link?.user_id).toBe(users[0]!.id);
  });

  it('takes a key the partner publishes at its JWKS URL without a restart', async () => {
    const first = await partnerKey('url-1');
    const second = await partnerKey('url-2');
    const server = await startJwksServer([first.publicJwk]);
    try {
      await registerPartner(cluster.t, 'grand-hotel', { code: 'published', issuer, jwksUri: server.url });
      const signed = (signingKey: PartnerKey, sub: string) =>
        signPartnerToken(signingKey, { iss: issuer, aud: audience(), ...claimsFor(sub) });
      for (let i = 0; i < cluster.instances.length; i++) {
        const answer = await partnerSso(
          new Browser(via(i)),
          origin,
          'published',
          await signed(first, 'sub-url'),
        );
        expect(answer.status).toBe(200);
      }
      server.keys = [first.publicJwk, second.publicJwk];
      // The default cool-down between two fetches of one partner's keys (one second).
      await new Promise((resolve) => setTimeout(resolve, 1100));
      for (let i = 0; i < cluster.instances.length; i++) {
        const answer = await partnerSso(
          new Browser(via(i)),
          origin,
          'published',
          await signed(second, 'sub-url'),
        );
        expect(answer.status, `instance ${i}`).toBe(200);
      }
    } finally {
      await server.close();
    }
  });

  it('answers 503 partner.keys_unavailable when the JWKS URL cannot be reached', async () => {
    const port = await freePort();
    await registerPartner(cluster.t, 'grand-hotel', {
      code: 'offline',
      issuer,
      jwksUri: `http://127.0.0.1:${port}/jwks.json`,
    });
    const answer = await attempt(await valid(), 'offline');
    expect(answer).toMatchObject({
      status: 503,
      body: { code: 'partner.keys_unavailable' },
      sessionExists: false,
    });
  });
});

describe.each(engines)('partner key rotation on %s', (engine) => {
  let t: TestApp;
  let server: JwksServer;
  let first: PartnerKey;
  let second: PartnerKey;
  const issuer = 'https://rotating.partner.test';
  const silent = { info: () => {}, warn: () => {} };
  // Small enough to watch a removed key expire from the cache within a test.
  // The stand-in key server listens on loopback, as outside production.
  const keys = new PartnerKeys({ cacheMaxAgeMs: 300, cooldownMs: 0, allowPrivate: true });

  beforeAll(async () => {
    t = await buildTestApp(engine, manyRequests);
    first = await partnerKey('rot-1');
    second = await partnerKey('rot-2');
    server = await startJwksServer([first.publicJwk]);
    await registerPartner(t, 'grand-hotel', { code: 'rotating', issuer, jwksUri: server.url });
  });
  afterAll(async () => {
    await server.close();
    await t.close();
  });

  async function signIn(signingKey: PartnerKey) {
    const tenant = (await t.services.tenants.byCode('grand-hotel'))!;
    const token = await signPartnerToken(signingKey, {
      iss: issuer,
      aud: issuerFor(t.config, tenant),
      ...claimsFor('sub-rotating'),
    });
    try {
      await signInWithPartner(
        { db: t.services.db, config: t.config, keys, limiter: t.services.limiter },
        tenant,
        'rotating',
        { token, ip: '127.0.0.1' },
        t.clock.now(),
        silent,
      );
      return 'signed in';
    } catch (error) {
      return error instanceof AppError ? error.code : error;
    }
  }

  it('takes a newly published key without a restart, and drops a removed one after the cache refresh', async () => {
    expect(await signIn(first)).toBe('signed in');
    // A new key: its kid is unknown to the cached set, which is fetched again at once.
    server.keys = [first.publicJwk, second.publicJwk];
    expect(await signIn(second)).toBe('signed in');
    // The first key is withdrawn: once the cached set is older than its maximum age, it is gone.
    server.keys = [second.publicJwk];
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(await signIn(first)).toBe('partner.token_invalid');
    expect(await signIn(second)).toBe('signed in');
    // The partner's endpoint fails and the cache is stale: its keys are unavailable, not wrong.
    server.up = false;
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(await signIn(second)).toBe('partner.keys_unavailable');
    server.up = true;
    expect(await signIn(second)).toBe('signed in');
  });

  it('fetches the JWKS once for many tokens, not per token', async () => {
    const before = server.hits;
    await Promise.all([signIn(second), signIn(second), signIn(second)]);
    expect(server.hits - before).toBeLessThanOrEqual(1);
  });
});
