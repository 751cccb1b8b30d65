import { loopbackFetch } from '@keycard/demo-app/loopback-fetch';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo, engines, type TestApp } from '../../test/helper.ts';
import { Browser } from '../../test/http-client.ts';
import { demoRedirectUri, discoverIssuer, listeningTestApp, startAuthorization } from '../../test/oidc.ts';
import { callbackOf, passwordStep } from '../../test/sign-in-flow.ts';

/**
 * The interaction is the browser's (the provider's cookie, read through interactionDetails), and
 * "Back to <app>" ends it with access_denied at the app's registered redirect URI (OpenID
 * Connect Core §3.1.2.6), through the provider and an openid-client relying party.
 */
describe.each(engines)('the pending sign-in belongs to its browser; going back to the app (%s)', (engine) => {
  let t: TestApp;
  let origin: string;
  let config: client.Configuration;

  beforeAll(async () => {
    const listening = await listeningTestApp(engine);
    t = listening.t;
    origin = listening.origin('grand-hotel');
    config = await discoverIssuer(origin);
  });
  afterAll(() => t.close());

  /** A browser sent by the app to the portal: its interaction id and what the app must check. */
  async function pendingSignIn(browser = new Browser()) {
    const started = await startAuthorization(config, browser);
    expect(started.location).toMatch(/^\/login\?iid=/);
    const iid = new URL(started.location, origin).searchParams.get('iid') ?? '';
    return { browser, iid, state: started.state, verifier: started.verifier, nonce: started.nonce };
  }

  const abort = (browser: Browser, iid: string) =>
    browser.fetch(`${origin}/api/authorize/abort`, { method: 'POST', body: { iid } });
  const authorize = (browser: Browser, iid: string) =>
    browser.fetch(`${origin}/api/authorize`, { method: 'POST', body: { iid } });

  it('returns the user to the app with error=access_denied and its state, at its redirect URI', async () => {
    const { browser, iid, state, verifier, nonce } = await pendingSignIn();
    const described = await browser.fetch(
      `${origin}/api/authorize/interaction?iid=${encodeURIComponent(iid)}`,
    );
    expect(described.status).toBe(200);
    expect(await described.json()).toEqual({ iid, clientName: 'demo-app' });

    const aborted = await abort(browser, iid);
    expect(aborted.status).toBe(200);
    const { location } = (await aborted.json()) as { location: string };
    // The provider's resume URL: it answers the app, never a target the page chose.
    expect(location.startsWith(`${origin}/oidc/auth/`)).toBe(true);
    const resumed = await browser.fetch(location);
    expect(resumed.status).toBe(303);
    const callback = new URL(resumed.headers.get('location') ?? '');
    expect(`${callback.origin}${callback.pathname}`).toBe(demoRedirectUri);
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('state')).toBe(state);
    expect(callback.searchParams.get('code')).toBeNull();
    // What the app's OIDC library makes of it: the user declined, for the request it made.
    await expect(
      client.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: verifier,
        expectedState: state,
        expectedNonce: nonce,
      }),
    ).rejects.toMatchObject({ error: 'access_denied' });

    // The request is over: neither going back again nor signing in finishes it.
    const again = await abort(browser, iid);
    expect(again.status).toBe(404);
    expect(((await again.json()) as { code: string }).code).toBe('interaction.not_found');
  });

  it('lets a stolen interaction id, without the browser cookie, neither finish nor abort the sign-in', async () => {
    const victim = await pendingSignIn();

    // A thief with a complete session of their own and the victim's id (a log, a screenshot).
    const thief = new Browser();
    await passwordStep(thief, origin, 'grand-hotel', demo.grandHotel.email);
    for (const attempt of [authorize(thief, victim.iid), abort(thief, victim.iid)]) {
      const response = await attempt;
      expect(response.status).toBe(404);
      expect(((await response.json()) as { code: string }).code).toBe('interaction.not_found');
    }
    const peek = await thief.fetch(`${origin}/api/authorize/interaction?iid=${victim.iid}`);
    expect(peek.status).toBe(404);

    // Nor does a thief whose browser holds a pending sign-in of its own name the victim's.
    await pendingSignIn(thief);
    expect((await authorize(thief, victim.iid)).status).toBe(404);
    expect((await abort(thief, victim.iid)).status).toBe(404);

    // The victim's sign-in is untouched: it finishes with a code for the app.
    await passwordStep(victim.browser, origin, 'grand-hotel', demo.grandHotel.email, demo.password, {
      iid: victim.iid,
    });
    const callback = await callbackOf(victim.browser, origin, `/login?iid=${victim.iid}`);
    expect(callback.searchParams.get('code')).toBeTruthy();
    expect(callback.searchParams.get('state')).toBe(victim.state);
  });

  it('answers 404 to going back after the sign-in finished, and after it expired', async () => {
    const finished = await pendingSignIn();
    await passwordStep(finished.browser, origin, 'grand-hotel', demo.grandHotel.email, demo.password, {
      iid: finished.iid,
    });
    await callbackOf(finished.browser, origin, `/login?iid=${finished.iid}`);
    const late = await abort(finished.browser, finished.iid);
    expect(late.status).toBe(404);
    expect(((await late.json()) as { code: string }).code).toBe('interaction.not_found');

    const expired = await pendingSignIn();
    await t.services.db
      .updateTable('oidc_payloads')
      .set({ expires_at: Date.now() - 1000 })
      .where('tenant_code', '=', 'grand-hotel')
      .where('model', '=', 'Interaction')
      .where('id', '=', expired.iid)
      .execute();
    const tooLate = await abort(expired.browser, expired.iid);
    expect(tooLate.status).toBe(404);
    expect(((await tooLate.json()) as { code: string }).code).toBe('interaction.not_found');
    // Signing in does not bring it back either.
    await passwordStep(expired.browser, origin, 'grand-hotel', demo.grandHotel.email);
    const finish = await authorize(expired.browser, expired.iid);
    expect(finish.status).toBe(404);
    expect(((await finish.json()) as { code: string }).code).toBe('interaction.not_found');
  });

  it('refuses a page whose id is not the one its browser is signing in for', async () => {
    const older = await pendingSignIn();
    // A second request in the same browser: the cookie now names the newer interaction.
    const newer = await pendingSignIn(older.browser);
    expect(newer.iid).not.toBe(older.iid);
    expect((await abort(older.browser, older.iid)).status).toBe(404);
    const aborted = await abort(newer.browser, newer.iid);
    expect(aborted.status).toBe(200);
  });

  it('takes going back only from its own pages (same origin)', async () => {
    const { browser, iid } = await pendingSignIn();
    // A form another site posts in the user's browser: their cookies, another origin.
    const response = await loopbackFetch(`${origin}/api/authorize/abort`, {
      method: 'POST',
      headers: {
        cookie: [...browser.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        'content-type': 'application/json',
        origin: 'https://evil.example',
      },
      body: JSON.stringify({ iid }),
    });
    expect(response.status).toBe(403);
    expect(((await response.json()) as { code: string }).code).toBe('common.forbidden_origin');
    // The sign-in is still pending for its own page.
    expect((await abort(browser, iid)).status).toBe(200);
  });
});
