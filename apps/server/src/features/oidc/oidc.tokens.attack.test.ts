import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../platform/db/database.ts';
import { demo, engines } from '../../test/helper.ts';
import { Browser } from '../../test/http-client.ts';
import { type Cluster, instancesFor } from '../../test/instances.ts';
import { discoverIssuer, demoRedirectUri as redirectUri, startAuthorization } from '../../test/oidc.ts';
import { callbackOf, passwordStep, refresh, tokenRequest, userinfoStatus } from '../../test/sign-in-flow.ts';

/**
 * Invariant 7 at the token endpoint, attacked over real HTTP: an authorization code and a
 * refresh token are single use even when many requests race for them on several instances of
 * one database; a reuse ends the whole grant (RFC 6749 §4.1.2, OAuth 2.0 Security BCP §4.14).
 */
const layouts = engines.map((engine): [Engine, string] => [
  engine,
  engine === 'postgres' ? 'two instances' : 'one instance',
]);

describe.each(layouts)('single use of codes and refresh tokens on %s, %s', (engine) => {
  let cluster: Cluster;
  let origin: string;
  let config: client.Configuration;
  const browser = new Browser();

  beforeAll(async () => {
    cluster = await instancesFor(engine);
    origin = cluster.origin('grand-hotel');
    config = await discoverIssuer(origin);
    // One complete Keycard session; every authorization below is single sign-on with it.
    await passwordStep(browser, origin, 'grand-hotel', demo.grandHotel.email);
  });
  afterAll(() => cluster.close());

  /** The instance a load balancer sends the i-th of several requests to. */
  const via = (i: number) => cluster.instances[i % cluster.instances.length]!.fetch;

  /** A fresh authorization code with offline access (prompt=consent, as OIDC Core §11 asks). */
  async function authorizationCode() {
    const start = await startAuthorization(config, browser, {
      scope: 'openid email offline_access',
      prompt: 'consent',
    });
    const callback = await callbackOf(browser, origin, start.location);
    return { callback, start, code: callback.searchParams.get('code')! };
  }

  /** A code redeemed once, as the app does: working access and refresh tokens. */
  async function tokens() {
    const { callback, start } = await authorizationCode();
    const set = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: start.verifier,
      expectedState: start.state,
      expectedNonce: start.nonce,
    });
    expect(set.refresh_token, 'a refresh token for offline_access').toBeTruthy();
    return { accessToken: set.access_token, refreshToken: set.refresh_token! };
  }

  it('redeems a code raced by 20 parallel token requests exactly once, and the race ends the grant', async () => {
    for (let round = 0; round < 10; round++) {
      const { code, start } = await authorizationCode();
      const answers = await Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          const response = await tokenRequest(via(i), origin, {
            grant_type: 'authorization_code',
            code,
            redirect_uri: redirectUri,
            code_verifier: start.verifier,
          });
          return { status: response.status, body: (await response.json()) as Record<string, string> };
        }),
      );
      const winners = answers.filter((a) => a.status === 200);
      expect(winners, `round ${round}: exactly one token response`).toHaveLength(1);
      expect(
        answers.filter((a) => a.status === 400 && a.body.error === 'invalid_grant'),
        `round ${round}: every other request is invalid_grant`,
      ).toHaveLength(19);

      // The code was presented more than once: everything issued from it is revoked, the
      // winner's tokens included, on every instance.
      const { access_token: accessToken, refresh_token: refreshToken } = winners[0]!.body;
      expect(refreshToken).toBeTruthy();
      for (let i = 0; i < cluster.instances.length; i++) {
        expect(await userinfoStatus(via(i), origin, accessToken!)).toBe(401);
      }
      expect(await refresh(via(round), origin, refreshToken!)).toMatchObject({
        status: 400,
        error: 'invalid_grant',
      });
    }
  });

  it('rotates the refresh token on every use; presenting a used one ends the whole family', async () => {
    const first = await tokens();
    expect(await userinfoStatus(via(0), origin, first.accessToken)).toBe(200);

    const rotated = await refresh(via(0), origin, first.refreshToken);
    expect(rotated.status).toBe(200);
    expect(rotated.refresh_token).toBeTruthy();
    expect(rotated.refresh_token).not.toBe(first.refreshToken);
    expect(await userinfoStatus(via(1), origin, rotated.access_token!)).toBe(200);

    // A thief replays the old refresh token (on the other instance where there is one).
    expect(await refresh(via(1), origin, first.refreshToken)).toMatchObject({
      status: 400,
      error: 'invalid_grant',
    });
    // The legitimate holder's newer token dies with it, and so do the access tokens.
    expect(await refresh(via(0), origin, rotated.refresh_token!)).toMatchObject({
      status: 400,
      error: 'invalid_grant',
    });
    expect(await userinfoStatus(via(0), origin, rotated.access_token!)).toBe(401);
    expect(await userinfoStatus(via(1), origin, first.accessToken)).toBe(401);
  });

  it('lets at most one of 20 concurrent refreshes with one token succeed, and the family ends', async () => {
    const { refreshToken } = await tokens();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => refresh(via(i), origin, refreshToken)),
    );
    // The first to consume the token wins; it cannot be revoked before someone has.
    const winners = answers.filter((a) => a.status === 200);
    expect(winners).toHaveLength(1);
    expect(answers.filter((a) => a.status === 400 && a.error === 'invalid_grant')).toHaveLength(19);
    for (const winner of winners) {
      expect(await refresh(via(0), origin, winner.refresh_token!)).toMatchObject({
        status: 400,
        error: 'invalid_grant',
      });
      expect(await userinfoStatus(via(1), origin, winner.access_token!)).toBe(401);
    }
  });
});
