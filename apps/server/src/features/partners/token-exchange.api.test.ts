import { tokenExchange } from '@keycard/contract';
import { createLocalJWKSet, type JSONWebKeySet, jwtVerify } from 'jose';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../platform/db/database.ts';
import { demo, engines } from '../../test/helper.ts';
import { type Cluster, instancesFor } from '../../test/instances.ts';
import {
  addClients,
  type ExchangeClient,
  exchangeClientMetadata,
  exchangeHandoff,
  manyRequests,
  partnerApp,
  partnerKey,
  registerPartner,
} from '../../test/partners.ts';
import { demoClient, userinfoStatus } from '../../test/sign-in-flow.ts';
import { findUserByEmail } from '../accounts/user.repository.ts';
import { updateTenantSettings } from '../tenants/tenant.admin.ts';
import { issueHandoffCode } from './handoff.service.ts';
import { removePartner } from './partner.repository.ts';

/**
 * The partner app's redemption of a hand-off code at /oidc/token (RFC 8693 token exchange):
 * client authentication, the binding to the app's redirect URI, the answer of RFC 8693
 * §2.2.1, and single use under concurrency, where a reuse ends what the first redemption got.
 */
const layouts = engines.map((engine): [Engine, string] => [
  engine,
  engine === 'postgres' ? 'two instances' : 'one instance',
]);

/** Another partner app: allowed the grant, but the codes here are not sent to its address. */
const otherApp: ExchangeClient = {
  id: 'other-partner-app',
  secret: 'other-partner-app-secret',
  redirectUri: 'http://localhost:3999/handoff',
};

describe.each(layouts)('token exchange of hand-off codes on %s, %s', (engine) => {
  let cluster: Cluster;
  let origin: string;
  let userId: string;

  beforeAll(async () => {
    cluster = await instancesFor(engine, manyRequests);
    origin = cluster.origin('grand-hotel');
    await addClients(cluster, 'grand-hotel', [
      // Only the token-exchange grant, no response types: a back end that never runs /oidc/auth.
      exchangeClientMetadata(partnerApp),
      exchangeClientMetadata(otherApp),
      {
        ...exchangeClientMetadata({
          id: 'public-partner-app',
          secret: '',
          redirectUri: partnerApp.redirectUri,
        }),
        client_secret: undefined,
        token_endpoint_auth_method: 'none',
      },
    ]);
    const user = await findUserByEmail(cluster.t.services.db, 'grand-hotel', demo.grandHotel.email);
    userId = user!.id;
    const key = await partnerKey('exchange-key');
    const jwks = { keys: [key.publicJwk as { kty: 'EC' }] };
    await registerPartner(cluster.t, 'grand-hotel', { code: 'exchange-partner', jwks });
    await registerPartner(cluster.t, 'grand-hotel', { code: 'removed-partner', jwks });
  });
  afterAll(() => cluster.close());

  const via = (i: number) => cluster.instances[i % cluster.instances.length]!.fetch;

  const authTime = Math.floor(Date.now() / 1000) - 5;
  function handoffCode(
    redirectUri = partnerApp.redirectUri,
    partnerCode = 'exchange-partner',
  ): Promise<string> {
    return issueHandoffCode(
      cluster.t.services.db,
      {
        tenantCode: 'grand-hotel',
        userId,
        data: { partnerCode, redirectUri, amr: ['fed'], authTime },
      },
      cluster.t.clock.now(),
    );
  }

  async function exchange(code: string, client?: ExchangeClient, extra?: Record<string, string>, i = 0) {
    const response = await exchangeHandoff(via(i), origin, code, client, extra);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it('answers an access token and an ID token for the code, as RFC 8693 §2.2.1 describes', async () => {
    const { status, body } = await exchange(await handoffCode());
    expect(status).toBe(200);
    expect(body).toMatchObject({
      issued_token_type: tokenExchange.accessTokenType,
      token_type: 'Bearer',
      expires_in: expect.any(Number),
      access_token: expect.any(String),
      id_token: expect.any(String),
    });
    expect(body).not.toHaveProperty('refresh_token');
    const jwks = (await (await via(0)(`${origin}/oidc/jwks`)).json()) as JSONWebKeySet;
    const { payload } = await jwtVerify(body.id_token as string, createLocalJWKSet(jwks), {
      issuer: `${origin}/oidc`,
      audience: partnerApp.id,
    });
    expect(payload).toMatchObject({
      sub: userId,
      email: demo.grandHotel.email,
      email_verified: true,
      amr: ['fed'],
      auth_time: authTime,
      partner_code: 'exchange-partner',
    });
    expect(
      await userinfoStatus(via(1), origin, body.access_token as string),
      'the access token at /oidc/me',
    ).toBe(200);
  });

  it('works with a certified relying-party library (openid-client)', async () => {
    const config = await client.discovery(
      new URL(`${origin}/oidc`),
      partnerApp.id,
      partnerApp.secret,
      client.ClientSecretBasic(partnerApp.secret),
      { execute: [client.allowInsecureRequests], [client.customFetch]: via(1) as typeof fetch },
    );
    const tokens = await client.genericGrantRequest(config, tokenExchange.grantType, {
      subject_token: await handoffCode(),
      subject_token_type: tokenExchange.handoffCodeType,
    });
    expect(tokens.issued_token_type).toBe(tokenExchange.accessTokenType);
    expect(tokens.claims()).toMatchObject({ sub: userId, partner_code: 'exchange-partner', amr: ['fed'] });
    const userinfo = await client.fetchUserInfo(config, tokens.access_token, userId);
    expect(userinfo).toMatchObject({ sub: userId, email: demo.grandHotel.email });
  });

  it('lists the grant type in discovery and accepts a client that has only it', async () => {
    const discovery = (await (await via(0)(`${origin}/oidc/.well-known/openid-configuration`)).json()) as {
      grant_types_supported: string[];
    };
    expect(discovery.grant_types_supported).toContain(tokenExchange.grantType);
  });

  it('refuses a second redemption and revokes what the first one issued', async () => {
    const code = await handoffCode();
    const first = await exchange(code);
    expect(first.status).toBe(200);
    const second = await exchange(code, partnerApp, {}, 1);
    expect(second).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await userinfoStatus(via(0), origin, first.body.access_token as string)).toBe(401);
  });

  it('redeems a code raced by 20 parallel requests exactly once, and the race ends the winner’s grant', async () => {
    for (let round = 0; round < 3; round++) {
      const code = await handoffCode();
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => exchange(code, partnerApp, {}, i)),
      );
      const winners = answers.filter((a) => a.status === 200);
      expect(winners, `round ${round}: exactly one token set`).toHaveLength(1);
      expect(
        answers.filter((a) => a.status === 400 && a.body.error === 'invalid_grant'),
        `round ${round}: every other request is invalid_grant`,
      ).toHaveLength(19);
      expect(await userinfoStatus(via(round), origin, winners[0]!.body.access_token as string)).toBe(401);
    }
  });

  it('refuses a client the code was not sent to, and leaves the code to its app', async () => {
    const code = await handoffCode();
    expect(await exchange(code, otherApp)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    // The demo app may not use the grant at all.
    const demoApp = { ...demoClient, redirectUri: '' };
    expect((await exchange(code, demoApp)).status).toBe(400);
    expect((await exchange(code)).status).toBe(200);
  });

  it('requires client authentication', async () => {
    const code = await handoffCode();
    const wrongSecret = await exchange(code, { ...partnerApp, secret: 'wrong' });
    expect(wrongSecret).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    const publicClient = await via(0)(`${origin}/oidc/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        client_id: 'public-partner-app',
        grant_type: tokenExchange.grantType,
        subject_token: code,
        subject_token_type: tokenExchange.handoffCodeType,
      }).toString(),
    });
    // RFC 6749 §5.2: 401 is for a failed Authorization header; a public client sent none.
    expect(publicClient.status).toBe(400);
    expect(((await publicClient.json()) as { error: string }).error).toBe('invalid_client');
    expect((await exchange(code)).status, 'the code survives failed client authentication').toBe(200);
  });

  it('refuses unknown, expired and mistyped codes', async () => {
    expect(await exchange('not-a-code')).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    const mistyped = await exchange(await handoffCode(), partnerApp, {
      subject_token_type: 'urn:ietf:params:oauth:token-type:access_token',
    });
    expect(mistyped).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    const asksForRefresh = await exchange(await handoffCode(), partnerApp, {
      requested_token_type: 'urn:ietf:params:oauth:token-type:refresh_token',
    });
    expect(asksForRefresh).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    const code = await handoffCode();
    cluster.t.clock.advance(61_000);
    try {
      expect(await exchange(code)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    } finally {
      cluster.t.clock.advance(-61_000);
    }
  });

  it('refuses a code of a partner removed since', async () => {
    const code = await handoffCode(partnerApp.redirectUri, 'removed-partner');
    await removePartner(cluster.t.services.db, 'grand-hotel', 'removed-partner');
    expect(await exchange(code)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('refuses a code of a disabled account', async () => {
    const code = await handoffCode();
    const { db } = cluster.t.services;
    await db.updateTable('users').set({ status: 'disabled' }).where('id', '=', userId).execute();
    try {
      expect(await exchange(code)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    } finally {
      await db.updateTable('users').set({ status: 'active' }).where('id', '=', userId).execute();
    }
  });

  it("applies a partner's skipMfa only to an account that passed no MFA lately", async () => {
    const { db } = cluster.t.services;
    await registerPartner(cluster.t, 'grand-hotel', {
      code: 'skipping-partner',
      jwks: { keys: [(await partnerKey('skip-key')).publicJwk as { kty: 'EC' }] },
      skipMfa: true,
    });
    const required = { mode: 'required', mandatoryFrom: null, trustedDeviceDays: 30 };
    const before = await db
      .selectFrom('tenants')
      .select('settings')
      .where('code', '=', 'grand-hotel')
      .executeTakeFirstOrThrow();
    const settle = async (ok: boolean) => {
      // Every instance applies the change within about a second: ask each until it answers so.
      for (let i = 0; i < cluster.instances.length; i++) {
        for (let tries = 0; ; tries++) {
          const answer = await exchange(
            await handoffCode(partnerApp.redirectUri, 'exchange-partner'),
            undefined,
            undefined,
            i,
          );
          if ((answer.status === 200) === ok || tries > 40) break;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
    };
    await updateTenantSettings(db, 'grand-hotel', { mfa: required });
    try {
      // MFA is required and the code's sign-in used none: a partner without skipMfa is refused.
      await settle(false);
      expect(await exchange(await handoffCode())).toMatchObject({
        status: 400,
        body: { error: 'invalid_grant' },
      });
      // The skipping partner's code passes, on either instance…
      for (let i = 0; i < 2; i++) {
        const code = await handoffCode(partnerApp.redirectUri, 'skipping-partner');
        expect((await exchange(code, undefined, undefined, i)).status).toBe(200);
      }
      // …until the account passes MFA somewhere: then the skip no longer applies to it.
      await db
        .insertInto('account_mfa_sign_ins')
        .values({ user_id: userId, tenant_code: 'grand-hotel', last_mfa_at: cluster.t.clock.now() })
        .execute();
      for (let i = 0; i < 2; i++) {
        const code = await handoffCode(partnerApp.redirectUri, 'skipping-partner');
        expect(await exchange(code, undefined, undefined, i)).toMatchObject({
          status: 400,
          body: { error: 'invalid_grant' },
        });
      }
    } finally {
      await db.deleteFrom('account_mfa_sign_ins').where('user_id', '=', userId).execute();
      await db
        .updateTable('tenants')
        .set({ settings: before.settings })
        .where('code', '=', 'grand-hotel')
        .execute();
      await updateTenantSettings(db, 'grand-hotel', {});
      await settle(true);
    }
  });
});
