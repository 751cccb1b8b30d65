import { loopbackFetch } from '@keycard/demo-app/loopback-fetch';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo, engines, type TestApp } from '../../test/helper.ts';
import { Browser } from '../../test/http-client.ts';
import { discoverIssuer, listeningTestApp } from '../../test/oidc.ts';
import { appSignIn, passwordStep, sessionExists, userinfoStatus } from '../../test/sign-in-flow.ts';
import { activeUser, mailsTo, runCliOn, uniqueEmail } from './test-support.ts';
import { findUserByEmail } from './user.repository.ts';

/**
 * Invariant 7 for operators: disabling or deleting an account ends everything it holds at
 * once — the Keycard session, and the app's access and refresh tokens — over real HTTP with
 * openid-client as the app.
 */
describe.each(engines)('disabling and deleting accounts (keycard CLI) on %s', (engine) => {
  let t: TestApp;
  let origin: string;

  beforeAll(async () => {
    const listening = await listeningTestApp(engine);
    t = listening.t;
    origin = listening.origin('grand-hotel');
  });
  afterAll(() => t.close());

  const cli = (...argv: string[]) => runCliOn(t, ...argv);

  /** A new account signed in to the demo app: its browser and the app's tokens. */
  async function signedInToApp() {
    const email = uniqueEmail('status');
    await activeUser(t, email, demo.password);
    const config = await discoverIssuer(origin);
    const browser = new Browser();
    await passwordStep(browser, origin, 'grand-hotel', email);
    const tokens = await appSignIn(config, browser, origin, {
      scope: 'openid email offline_access',
      prompt: 'consent',
    });
    expect(tokens.refresh_token).toBeTruthy();
    return { email, config, browser, tokens };
  }

  const userinfo = (accessToken: string) => userinfoStatus(loopbackFetch, origin, accessToken);
  const signedIn = (browser: Browser) => sessionExists(browser, origin);

  it('disable-user ends the session and the app tokens at once; enable-user lets the account sign in again', async () => {
    const { email, config, browser, tokens } = await signedInToApp();
    expect(await userinfo(tokens.access_token)).toBe(200);
    expect(await signedIn(browser)).toBe(true);

    const disabled = await cli('disable-user', '--tenant', 'grand-hotel', '--email', email);
    expect(disabled).toMatchObject({ code: 0, out: expect.stringContaining(`Disabled ${email}`) });

    expect(await signedIn(browser)).toBe(false);
    expect(await userinfo(tokens.access_token)).toBe(401);
    await expect(client.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    const refused = await browser.fetch(`${origin}/api/login`, {
      method: 'POST',
      body: { email, password: demo.password, state: 'state-0123456789abcdef' },
    });
    expect(refused.status).toBe(401);

    expect((await cli('enable-user', '--tenant', 'grand-hotel', '--email', email)).out).toContain(
      `Enabled ${email}`,
    );
    const again = await browser.fetch(`${origin}/api/login`, {
      method: 'POST',
      body: { email, password: demo.password, state: 'state-0123456789abcdef' },
    });
    expect(again.status).toBe(200);
    // Nothing of before came back with it.
    expect(await userinfo(tokens.access_token)).toBe(401);
  });

  it('delete-user removes the account with its tokens and queued mail', async () => {
    const { email, config, tokens } = await signedInToApp();
    await t.services.db
      .insertInto('outbox')
      .values({
        id: crypto.randomUUID(),
        tenant_code: 'grand-hotel',
        channel: 'email',
        recipient: email,
        template: 'reset',
        payload: '{}',
        status: 'pending',
        attempts: 0,
        next_attempt_at: t.clock.now() + 60_000,
        created_at: t.clock.now(),
        sent_at: null,
        last_error: null,
      })
      .execute();

    const deleted = await cli('delete-user', '--tenant', 'grand-hotel', '--email', email);
    expect(deleted.code).toBe(0);
    expect(deleted.out).toContain(`Deleted ${email}`);
    expect(await findUserByEmail(t.services.db, 'grand-hotel', email)).toBeUndefined();
    expect(await mailsTo(t, email)).toEqual([]);
    expect(await userinfo(tokens.access_token)).toBe(401);
    await expect(client.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    const leftovers = await t.services.db
      .selectFrom('oidc_payloads')
      .select('model')
      .where('tenant_code', '=', 'grand-hotel')
      .where('account_id', '=', tokens.claims()!.sub)
      .execute();
    expect(leftovers).toEqual([]);
  });

  it('says so, and changes nothing, for an unknown address or an account already in that state', async () => {
    const unknown = await cli(
      'disable-user',
      '--tenant',
      'grand-hotel',
      '--email',
      'nobody@grand-hotel.test',
    );
    expect(unknown).toMatchObject({
      code: 0,
      out: expect.stringContaining('No account nobody@grand-hotel.test'),
    });
    const active = await cli('enable-user', '--tenant', 'grand-hotel', '--email', demo.grandHotel.email);
    expect(active.out).toContain('is active on grand-hotel; nothing changed');
  });
});
