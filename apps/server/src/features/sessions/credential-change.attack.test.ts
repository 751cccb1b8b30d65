import type * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../../test/helper.ts';
import { Browser } from '../../test/http-client.ts';
import { type Cluster, instancesFor } from '../../test/instances.ts';
import { discoverIssuer, startAuthorization } from '../../test/oidc.ts';
import {
  appSignIn,
  passwordStep,
  refresh,
  registerTotp,
  sessionExists,
  totpCode,
  userinfoStatus,
} from '../../test/sign-in-flow.ts';
import { activeUser, lastMailTo, tokenIn, uniqueEmail } from '../accounts/test-support.ts';

/**
 * Invariant 7: a credential change ends every grant. Whoever held the old password or the
 * old second factor — a Keycard session in some browser, an app's access or refresh token —
 * loses it the moment the password is reset or MFA is reset, on every instance.
 */
const oldPassword = 'Anchor-bay-2020';

describe.each(engines)('credential changes end every grant on %s', (engine) => {
  let cluster: Cluster;
  let origin: string;
  let config: client.Configuration;
  beforeAll(async () => {
    cluster = await instancesFor(engine, { env: { LOGIN_IP_LIMIT_PER_MINUTE: '1000' } });
    origin = cluster.origin('grand-hotel');
    config = await discoverIssuer(origin);
  });
  afterAll(() => cluster.close());

  /** An app's tokens (with a refresh token) for the browser's complete session. */
  async function appTokens(browser: Browser) {
    const tokens = await appSignIn(config, browser, origin, {
      scope: 'openid email offline_access',
      prompt: 'consent',
    });
    expect(tokens.refresh_token).toBeTruthy();
    return { accessToken: tokens.access_token, refreshToken: tokens.refresh_token! };
  }

  /** What prompt=none (an app's silent sign-in) answers this browser: a code or an error. */
  async function silentSignIn(browser: Browser) {
    const { location } = await startAuthorization(config, browser, { prompt: 'none', scope: 'openid email' });
    const url = new URL(location, origin);
    return { code: url.searchParams.get('code'), error: url.searchParams.get('error') };
  }

  /** Nothing of the grant works any more, on any instance. */
  async function expectDead(tokens: { accessToken: string; refreshToken: string }) {
    for (const [i, instance] of cluster.instances.entries()) {
      expect(await userinfoStatus(instance.fetch, origin, tokens.accessToken), `userinfo on ${i}`).toBe(401);
    }
    expect(await refresh(cluster.instances.at(-1)!.fetch, origin, tokens.refreshToken)).toMatchObject({
      status: 400,
      error: 'invalid_grant',
    });
  }

  it('a password reset ends every session and every grant of the account', async () => {
    const email = uniqueEmail('reset-grants');
    await activeUser(cluster.t, email, oldPassword);
    const victim = new Browser();
    await passwordStep(victim, origin, 'grand-hotel', email, oldPassword);
    const tokens = await appTokens(victim);
    // Before the reset everything works: the app's tokens, the session, single sign-on.
    expect(await userinfoStatus(cluster.instances[0]!.fetch, origin, tokens.accessToken)).toBe(200);
    expect(await sessionExists(victim, origin)).toBe(true);
    expect(await silentSignIn(victim)).toEqual({ code: expect.any(String), error: null });

    // The owner resets the password from another browser, by the mailed link.
    const owner = new Browser();
    const request = await owner.fetch(`${origin}/api/user/${encodeURIComponent(email)}/reset-password`, {
      method: 'POST',
      body: {},
    });
    expect(await request.json()).toEqual({ state: 'reset' });
    const token = tokenIn(await lastMailTo(cluster.t, email, 'account.reset'));
    const apply = await owner.fetch(`${origin}/api/user`, {
      method: 'PATCH',
      body: { token, password: 'New-harbour-2031' },
    });
    expect(apply.status).toBe(200);

    await expectDead(tokens);
    expect(await sessionExists(victim, origin)).toBe(false);
    expect(await silentSignIn(victim)).toEqual({ code: null, error: 'login_required' });
  });

  it('an MFA reset ends every other session and every grant; the resetting session stays', async () => {
    const email = uniqueEmail('mfa-reset-grants');
    await activeUser(cluster.t, email, oldPassword);
    const { clock } = cluster.t;

    // The owner enrols an authenticator app and signs in to the app in this browser…
    const owner = new Browser();
    await passwordStep(owner, origin, 'grand-hotel', email, oldPassword);
    const { secret } = await registerTotp(owner, origin, clock.now());
    clock.advance(30_000);
    const ownerTokens = await appTokens(owner);

    // …and someone else holds a complete session (password and a code) and tokens too.
    const other = new Browser();
    expect((await passwordStep(other, origin, 'grand-hotel', email, oldPassword)).state).toBe(
      'MFA_VERIFICATION_REQUIRED',
    );
    const verify = await other.fetch(`${origin}/api/mfa/verify`, {
      method: 'POST',
      body: { code: await totpCode(secret, clock.now()), deliveryType: 'totp' },
    });
    expect(verify.status).toBe(200);
    clock.advance(30_000);
    const otherTokens = await appTokens(other);
    expect(await userinfoStatus(cluster.instances[0]!.fetch, origin, otherTokens.accessToken)).toBe(200);

    const reset = await owner.fetch(`${origin}/api/mfa/reset`, {
      method: 'POST',
      body: { proof: { code: await totpCode(secret, clock.now()), deliveryType: 'totp' } },
    });
    expect(reset.status).toBe(200);

    await expectDead(otherTokens);
    await expectDead(ownerTokens);
    expect(await sessionExists(other, origin)).toBe(false);
    expect(await silentSignIn(other)).toEqual({ code: null, error: 'login_required' });
    // The session that proved possession stays, to set a factor up again.
    expect(await sessionExists(owner, origin)).toBe(true);
  });
});
