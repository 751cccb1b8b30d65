import { adminErrors, adminSigningKeyListResponse, auditSearchResponse } from '@keycard/contract';
import { loopbackFetch } from '@keycard/demo-app/loopback-fetch';
import { decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCall, operatorToken } from '../../surfaces/admin/admin.test-support.ts';
import { engines, type TestApp } from '../../test/helper.ts';
import { Browser } from '../../test/http-client.ts';
import { discoverIssuer, listeningTestApp } from '../../test/oidc.ts';
import { appSignIn, passwordStep } from '../../test/sign-in-flow.ts';

/** Rotation through the admin API, seen by an app over real HTTP: the JWKS and the ID token's kid. */
describe.each(engines)('signing-key rotation on %s', (engine) => {
  let t: TestApp;
  let origin: string;
  let owner: string;
  beforeAll(async () => {
    const listening = await listeningTestApp(engine, { env: { LOGIN_IP_LIMIT_PER_MINUTE: '1000' } });
    t = listening.t;
    origin = listening.origin('grand-hotel');
    owner = await operatorToken(t, 'key-owner', 'owner');
  });
  afterAll(() => t.close());

  async function jwksKids(): Promise<string[]> {
    const response = await loopbackFetch(`${origin}/oidc/jwks`);
    return ((await response.json()) as { keys: Array<{ kid: string }> }).keys.map((key) => key.kid);
  }

  async function idTokenKid(): Promise<string> {
    const browser = new Browser();
    await passwordStep(browser, origin, 'grand-hotel', 'demo@grand-hotel.test');
    const tokens = await appSignIn(await discoverIssuer(origin), browser, origin);
    return decodeProtectedHeader(tokens.id_token!).kid!;
  }

  it('signs new tokens with the new key, keeps the old one published until it is retired', async () => {
    const firstKid = await idTokenKid();
    const before = adminSigningKeyListResponse.parse(
      (await adminCall(t.app, 'GET', '/tenants/grand-hotel/signing-keys', { token: owner })).json(),
    );
    expect(before.keys).toEqual([expect.objectContaining({ kid: firstKid, active: true })]);

    const rotated = await adminCall(t.app, 'POST', '/tenants/grand-hotel/signing-keys/rotate', {
      token: owner,
      body: {},
    });
    expect(rotated.statusCode).toBe(200);
    const { keys } = adminSigningKeyListResponse.parse(rotated.json());
    expect(keys).toHaveLength(2);
    const [active, old] = keys as [(typeof keys)[0], (typeof keys)[0]];
    expect(active).toMatchObject({ active: true });
    expect(old).toMatchObject({ kid: firstKid, active: false });
    expect(JSON.stringify(rotated.json())).not.toMatch(/"(d|p|q|dp|dq|qi)"/);

    expect((await jwksKids()).sort()).toEqual([active.kid, firstKid].sort());
    expect(await idTokenKid()).toBe(active.kid);

    const refused = await adminCall(t.app, 'DELETE', `/tenants/grand-hotel/signing-keys/${active.kid}`, {
      token: owner,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe(adminErrors.signingKeyActive);
    const retired = await adminCall(t.app, 'DELETE', `/tenants/grand-hotel/signing-keys/${firstKid}`, {
      token: owner,
    });
    expect(adminSigningKeyListResponse.parse(retired.json()).keys.map((key) => key.kid)).toEqual([
      active.kid,
    ]);
    expect(await jwksKids()).toEqual([active.kid]);
    const unknown = await adminCall(t.app, 'DELETE', `/tenants/grand-hotel/signing-keys/${firstKid}`, {
      token: owner,
    });
    expect(unknown.json().code).toBe(adminErrors.signingKeyNotFound);

    const audit = auditSearchResponse.parse(
      (await adminCall(t.app, 'GET', '/audit?tenant=grand-hotel', { token: owner })).json(),
    );
    expect(audit.entries.map((entry) => entry.action).slice(0, 2)).toEqual([
      'signing_key.retire',
      'signing_key.rotate',
    ]);
    expect(JSON.stringify(audit.entries)).not.toContain('"d"');
  });
});
