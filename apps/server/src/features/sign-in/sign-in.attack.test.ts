import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY } from '../../platform/shared/clock.ts';
import { engines } from '../../test/helper.ts';
import { Browser } from '../../test/http-client.ts';
import { type Cluster, instancesFor } from '../../test/instances.ts';
import { discoverIssuer, startAuthorization } from '../../test/oidc.ts';
import { appSignIn, callbackOf, passwordStep, refresh } from '../../test/sign-in-flow.ts';
import { activeUser, uniqueEmail } from '../accounts/test-support.ts';
import { updateTenantSettings } from '../tenants/tenant.admin.ts';

/**
 * Invariant 1 against single sign-on, attacked over real HTTP with openid-client as the app:
 * a session made under older settings gets no code once the tenant requires more (on this
 * instance at once, on every other within 5 s), and an app that asks for a fresh sign-in
 * (max_age, prompt=login) gets one — with an auth_time that tells the truth.
 */
/** Tenant changes that ask more of a password-only sign-in, and how to undo them. */
const policies: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
  ['MFA required', { mfa: { mode: 'required' } }, { mfa: { mode: 'off' } }],
  ['password expiry', { passwordExpiryDays: 5 }, { passwordExpiryDays: null }],
];

describe.each(engines)('sign-in decisions under attack on %s', (engine) => {
  let cluster: Cluster;
  let origin: string;
  let config: client.Configuration;
  beforeAll(async () => {
    cluster = await instancesFor(engine, { env: { LOGIN_IP_LIMIT_PER_MINUTE: '1000' } });
    origin = cluster.origin('grand-hotel');
    config = await discoverIssuer(origin);
  });
  afterAll(() => cluster.close());

  /** A new account on grand-hotel (MFA off, no password expiry), signed in through OIDC. */
  async function signedInThroughApp(email = uniqueEmail('sso')) {
    await activeUser(cluster.t, email, 'Anchor-bay-2020');
    const browser = new Browser();
    expect((await passwordStep(browser, origin, 'grand-hotel', email, 'Anchor-bay-2020')).state).toBe(
      'AUTHENTICATED',
    );
    const tokens = await appSignIn(config, browser, origin);
    return { email, browser, tokens };
  }

  /** What prompt=none answers a browser, through one instance: a code or an error. */
  async function silentSignIn(browser: Browser, extra: Record<string, string> = {}) {
    const { location } = await startAuthorization(config, browser, { prompt: 'none', ...extra });
    const url = new URL(location, origin);
    return { code: url.searchParams.get('code'), error: url.searchParams.get('error') };
  }

  describe('policy changes reach single sign-on at once', () => {
    it.each(policies)(
      '%s: no code for an older session, here at once and on every instance within 5 s',
      async (_name, change, restore) => {
        const { email, browser } = await signedInThroughApp();
        // The password was set 10 days ago: within policy until the tenant makes passwords
        // expire after 5 days.
        await cluster.t.services.db
          .updateTable('users')
          .set({ password_changed_at: cluster.t.clock.now() - 10 * DAY })
          .where('email', '=', email)
          .execute();
        // Single sign-on works on every instance (each has the tenant and its provider cached).
        for (const instance of cluster.instances) {
          expect(await silentSignIn(browser.through(instance.fetch))).toEqual({
            code: expect.any(String),
            error: null,
          });
        }

        const [here, ...elsewhere] = cluster.instances;
        try {
          // An operator's change on one instance, as the admin API makes it.
          await updateTenantSettings(here!.services.db, 'grand-hotel', change);
          here!.services.tenants.invalidate('grand-hotel');
          const changedAt = performance.now();
          expect(await silentSignIn(browser.through(here!.fetch))).toEqual({
            code: null,
            error: 'login_required',
          });
          // The other instances were not told: they find the change by its version.
          for (const instance of elsewhere) {
            let answer = await silentSignIn(browser.through(instance.fetch));
            while (answer.code !== null && performance.now() - changedAt < 8000) {
              await new Promise((resolve) => setTimeout(resolve, 100));
              answer = await silentSignIn(browser.through(instance.fetch));
            }
            expect(answer).toEqual({ code: null, error: 'login_required' });
            expect(performance.now() - changedAt).toBeLessThan(5000);
          }
        } finally {
          await updateTenantSettings(here!.services.db, 'grand-hotel', restore);
          for (const instance of cluster.instances) instance.services.tenants.invalidate('grand-hotel');
        }
      },
    );
  });

  describe('policy changes reach refresh tokens', () => {
    it.each(policies)(
      '%s: a refresh token from a password-only sign-in stops refreshing',
      async (_name, change, restore) => {
        const email = uniqueEmail('refresh');
        await activeUser(cluster.t, email, 'Anchor-bay-2020');
        const browser = new Browser();
        await passwordStep(browser, origin, 'grand-hotel', email, 'Anchor-bay-2020');
        const tokens = await appSignIn(config, browser, origin, {
          scope: 'openid offline_access',
          prompt: 'consent',
        });
        await cluster.t.services.db
          .updateTable('users')
          .set({ password_changed_at: cluster.t.clock.now() - 10 * DAY })
          .where('email', '=', email)
          .execute();
        const [here] = cluster.instances;
        const before = await refresh(here!.fetch, origin, tokens.refresh_token!);
        expect(before.status).toBe(200);
        try {
          await updateTenantSettings(here!.services.db, 'grand-hotel', change);
          here!.services.tenants.invalidate('grand-hotel');
          // The app must sign the user in again, under the new rule.
          expect(await refresh(here!.fetch, origin, before.refresh_token!)).toMatchObject({
            status: 400,
            error: 'invalid_grant',
          });
        } finally {
          await updateTenantSettings(here!.services.db, 'grand-hotel', restore);
          for (const instance of cluster.instances) instance.services.tenants.invalidate('grand-hotel');
        }
      },
    );
  });

  describe('fresh sign-in requests (max_age, prompt=login)', () => {
    const requests: Array<[string, Record<string, string>]> = [
      ['max_age=0', { max_age: '0' }],
      ['prompt=login', { prompt: 'login' }],
    ];

    /** A complete session whose password step was a minute ago, known to the provider too. */
    async function signedInAMinuteAgo() {
      const { clock } = cluster.t;
      clock.advance(-60_000);
      try {
        const email = uniqueEmail('fresh');
        await activeUser(cluster.t, email, 'Anchor-bay-2020');
        const browser = new Browser();
        const signedInAt = clock.now();
        await passwordStep(browser, origin, 'grand-hotel', email, 'Anchor-bay-2020');
        return { email, browser, signedInAt };
      } finally {
        clock.advance(60_000);
      }
    }

    const authTimeOf = (tokens: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers) =>
      Number(tokens.claims()!.auth_time) * 1000;

    it.each(requests)(
      '%s: the existing session does not finish it; a fresh password step does, and is its auth_time',
      async (_name, params) => {
        const { email, browser } = await signedInAMinuteAgo();
        const first = await startAuthorization(config, browser);
        await callbackOf(browser, origin, first.location);

        const start = await startAuthorization(config, browser, params);
        expect(start.location).toMatch(/^\/login\?iid=/);
        const iid = new URL(start.location, origin).searchParams.get('iid');
        const refused = await browser.fetch(`${origin}/api/authorize`, { method: 'POST', body: { iid } });
        expect(refused.status).toBe(401);
        expect(((await refused.json()) as { code: string }).code).toBe('session.reauthentication_required');
        // Resuming without a result does not reach the app either: back to the password.
        const resumed = await browser.fetch(`${origin}/oidc/auth/${iid}`);
        const pending = resumed.headers.get('location') ?? '';
        expect(pending).not.toContain('code=');
        expect(pending).toMatch(/^\/login\?iid=/);

        // The portal asks for the password again, in the same browser; the user takes a
        // moment to type it (the provider's request time is whole seconds).
        const { clock } = cluster.t;
        clock.advance(2000);
        const steppedAt = clock.now();
        try {
          await passwordStep(browser, origin, 'grand-hotel', email, 'Anchor-bay-2020');
        } finally {
          clock.advance(-2000);
        }
        const callback = await callbackOf(browser, origin, pending);
        const tokens = await client.authorizationCodeGrant(config, callback, {
          pkceCodeVerifier: start.verifier,
          expectedState: start.state,
          expectedNonce: start.nonce,
        });
        expect(Math.abs(authTimeOf(tokens) - steppedAt)).toBeLessThanOrEqual(1000);
      },
    );

    it.each(requests)(
      '%s: a password entered for the request is fresh however fast it comes (a password manager)',
      async (_name, params) => {
        const { email, browser } = await signedInAMinuteAgo();
        const start = await startAuthorization(config, browser, params);
        const iid = new URL(start.location, origin).searchParams.get('iid')!;
        // No pause: the portal sends the request's id with the password.
        await passwordStep(browser, origin, 'grand-hotel', email, 'Anchor-bay-2020', { iid });
        const callback = await callbackOf(browser, origin, start.location);
        expect(callback.searchParams.get('code')).toBeTruthy();
      },
    );

    /**
     * Without max_age or prompt=login an ID token carries auth_time only for a client that
     * registered require_auth_time (OIDC Dynamic Client Registration §2): the demo app does,
     * for the length of a test.
     */
    async function requireAuthTime(required: boolean) {
      const { db } = cluster.t.services;
      const demoApp = () =>
        db
          .selectFrom('oidc_clients')
          .where('tenant_code', '=', 'grand-hotel')
          .where('client_id', '=', 'demo-app');
      const { metadata } = await demoApp().select('metadata').executeTakeFirstOrThrow();
      const changed = { ...JSON.parse(metadata), require_auth_time: required };
      await db
        .updateTable('oidc_clients')
        .set({ metadata: JSON.stringify(changed) })
        .where('tenant_code', '=', 'grand-hotel')
        .where('client_id', '=', 'demo-app')
        .execute();
      for (const instance of cluster.instances) instance.services.tenants.invalidate('grand-hotel');
    }

    it('single sign-on without max_age keeps the auth_time of the original password step', async () => {
      await requireAuthTime(true);
      try {
        await expectOriginalAuthTime();
      } finally {
        await requireAuthTime(false);
      }
    });

    async function expectOriginalAuthTime() {
      const { browser, signedInAt } = await signedInAMinuteAgo();
      const firstTokens = await appSignIn(config, browser, origin);
      expect(Math.abs(authTimeOf(firstTokens) - signedInAt)).toBeLessThanOrEqual(1000);

      const tokens = await appSignIn(config, browser, origin);
      const claims = tokens.claims()!;
      expect(Math.abs(authTimeOf(tokens) - signedInAt)).toBeLessThanOrEqual(1000);
      // Not the time of this request: the ID token was issued a minute after the sign-in.
      expect(claims.iat - Number(claims.auth_time)).toBeGreaterThanOrEqual(59);
    }

    it('answers login_required to prompt=none with max_age=0, even with a complete session', async () => {
      const { browser } = await signedInAMinuteAgo();
      const first = await startAuthorization(config, browser);
      await callbackOf(browser, origin, first.location);
      expect(await silentSignIn(browser)).toEqual({ code: expect.any(String), error: null });
      expect(await silentSignIn(browser, { max_age: '0' })).toEqual({ code: null, error: 'login_required' });
    });
  });
});
