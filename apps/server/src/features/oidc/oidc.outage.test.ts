import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { loopbackFetch } from '@keycard/demo-app/loopback-fetch';
import { sql } from 'kysely';
import * as client from 'openid-client';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../platform/db/database.ts';
import { buildTestApp, demo, freePort, postgresAdminUrl, type TestApp } from '../../test/helper.ts';
import { Browser } from '../../test/http-client.ts';
import { captureLog, stderrDuring } from '../../test/log-capture.ts';
import { discoverIssuer, demoRedirectUri as redirectUri, startAuthorization } from '../../test/oidc.ts';
import { callbackOf, passwordStep, refresh, tokenRequest } from '../../test/sign-in-flow.ts';

/**
 * Issue 16, item 5: during a database outage every /oidc route answers as OAuth defines it —
 * 503, Retry-After and `temporarily_unavailable` (JSON at the back-channel endpoints, a
 * redirect to the app where the authorization endpoint has checked the client and its
 * redirect_uri, the tenant's error page where it cannot) — never 500, prints nothing, and the
 * same flows work again once the database is back, with no restart.
 */

const retryAfter = '10';

/** An outage the test starts and ends on the app's real database. */
interface Outage {
  start(): Promise<void>;
  end(): Promise<void>;
}

async function withAdmin<T>(action: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: postgresAdminUrl });
  await admin.connect();
  try {
    return await action(admin);
  } finally {
    await admin.end();
  }
}

/**
 * PostgreSQL goes away: open connections are terminated and new ones refused (as during a
 * restart or failover), until the database accepts connections again.
 */
function postgresOutage(t: TestApp): Outage {
  const name = new URL(t.config.databaseUrl!).pathname.slice(1);
  return {
    start: () =>
      withAdmin(async (admin) => {
        await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
        await admin.query(
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
          [name],
        );
      }),
    end: async () => {
      await withAdmin((admin) => admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`));
    },
  };
}

/**
 * SQLite's outage: another process holds the file's write lock (a backup, a migration, a
 * `sqlite3` shell in a transaction) beyond the busy timeout (5 s; shortened in this test). Reads go on in WAL mode;
 * every write fails with "database is locked" until the lock is released. (An embedded file
 * cannot otherwise go away and come back under a running process.)
 */
function sqliteOutage(t: TestApp): Outage {
  let holder: DatabaseSync | undefined;
  return {
    start: async () => {
      holder = new DatabaseSync(path.join(t.config.dataDir, 'test.sqlite'));
      holder.exec('BEGIN IMMEDIATE');
    },
    end: async () => {
      holder?.exec('ROLLBACK');
      holder?.close();
      holder = undefined;
    },
  };
}

/** What a back-channel endpoint answers during an outage. */
async function expectUnavailableJson(response: Response, what: string) {
  expect(response.status, what).toBe(503);
  expect(response.headers.get('retry-after'), what).toBe(retryAfter);
  expect(response.headers.get('content-type'), what).toMatch(/^application\/json/);
  expect(await response.json(), what).toMatchObject({ error: 'temporarily_unavailable' });
}

/** What a browser route answers when it cannot redirect: the tenant's page, 503. */
async function expectUnavailablePage(response: Response, what: string, brand: string | null) {
  expect(response.status, what).toBe(503);
  expect(response.headers.get('retry-after'), what).toBe(retryAfter);
  expect(response.headers.get('location'), what).toBeNull();
  expect(response.headers.get('content-type'), what).toMatch(/^text\/html/);
  const html = await response.text();
  expect(html, what).toContain('temporarily_unavailable');
  expect(html, what).toContain('The sign-in service is briefly unavailable. Try again in a moment.');
  if (brand) expect(html, what).toContain(brand);
}

/** The app's callback with an error, as the authorization endpoint sends it during an outage. */
function expectRedirectedUnavailable(response: Response, state: string, what: string) {
  expect(response.status, what).toBe(303);
  const location = new URL(response.headers.get('location') ?? '', 'http://invalid');
  expect(`${location.origin}${location.pathname}`, what).toBe(redirectUri);
  expect(location.searchParams.get('error'), what).toBe('temporarily_unavailable');
  expect(location.searchParams.get('state'), what).toBe(state);
  expect(location.searchParams.get('code'), what).toBeNull();
}

describe.each(['postgres', 'sqlite'] as Engine[])(
  'the OIDC provider during a database outage on %s',
  (engine) => {
    let t: TestApp;
    let origin: (tenant: string) => string;
    let outage: Outage;
    const log = captureLog();

    beforeAll(async () => {
      const port = await freePort();
      t = await buildTestApp(engine, {
        env: { PORT: String(port), LOG_LEVEL: 'info' },
        logStream: log.stream,
      });
      await t.app.listen({ port, host: '127.0.0.1' });
      origin = (tenant) => `http://${tenant}.localhost:${port}`;
      outage = engine === 'postgres' ? postgresOutage(t) : sqliteOutage(t);
      // The server waits 5 s for a held write lock before it fails; a quarter second here tries
      // the same failure without waiting out the full timeout on every write route.
      if (engine === 'sqlite') await sql`PRAGMA busy_timeout = 250`.execute(t.services.db);
    });
    afterAll(async () => {
      await outage.end();
      await t.close();
    });

    /** A signed-in browser, an app's tokens with offline access, and a code not yet redeemed. */
    async function signedInApp() {
      const home = origin('grand-hotel');
      const config = await discoverIssuer(home);
      const browser = new Browser();
      await passwordStep(browser, home, 'grand-hotel', demo.grandHotel.email);
      const authorize = async () => {
        const start = await startAuthorization(config, browser, {
          scope: 'openid email offline_access',
          prompt: 'consent',
        });
        return { start, callback: await callbackOf(browser, home, start.location) };
      };
      const first = await authorize();
      const tokens = await client.authorizationCodeGrant(config, first.callback, {
        pkceCodeVerifier: first.start.verifier,
        expectedState: first.start.state,
        expectedNonce: first.start.nonce,
      });
      const pending = await authorize();
      return { home, config, browser, tokens, pending };
    }

    const revoke = (home: string, token: string) =>
      loopbackFetch(`${home}/oidc/token/revocation`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from('demo-app:demo-app-secret').toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ token }).toString(),
      });

    it('answers 503 temporarily_unavailable with Retry-After on every route, never 500, and recovers', async () => {
      const { home, config, browser, tokens, pending } = await signedInApp();
      const refreshToken = tokens.refresh_token!;
      expect(refreshToken).toBeTruthy();
      // Another tenant this instance knows (a page of it was served) but whose provider it has
      // not built yet.
      expect((await loopbackFetch(`${origin('seaside')}/api/session`)).status).toBe(200);
      log.clear();

      await outage.start();
      const printed = await stderrDuring(async () => {
        // The authorization endpoint, client and redirect_uri checked: back to the app, with the error.
        const sso = await startAuthorization(config, browser);
        expectRedirectedUnavailable(sso.response, sso.state, 'single sign-on at /oidc/auth');

        // An unregistered redirect_uri is never followed, outage or not.
        const foreign = await startAuthorization(config, browser, {
          redirect_uri: 'https://evil.example/cb',
        });
        expect(foreign.response.status, 'an unregistered redirect_uri').toBeGreaterThanOrEqual(400);
        expect(foreign.response.status, 'an unregistered redirect_uri').toBeLessThan(500);
        expect(foreign.response.headers.get('location')).toBeNull();

        // The token endpoint: the code and the refresh token.
        await expectUnavailableJson(
          await tokenRequest(loopbackFetch, home, {
            grant_type: 'authorization_code',
            code: pending.callback.searchParams.get('code')!,
            redirect_uri: redirectUri,
            code_verifier: pending.start.verifier,
          }),
          'code exchange at /oidc/token',
        );
        await expectUnavailableJson(
          await tokenRequest(loopbackFetch, home, {
            grant_type: 'refresh_token',
            refresh_token: refreshToken,
          }),
          'refresh at /oidc/token',
        );
        await expectUnavailableJson(await revoke(home, refreshToken), 'revocation');

        if (engine === 'postgres') {
          // SQLite's readers go on during a write lock; PostgreSQL's cannot.
          const userinfo = await loopbackFetch(`${home}/oidc/me`, {
            headers: { authorization: `Bearer ${tokens.access_token}` },
          });
          await expectUnavailableJson(userinfo, 'userinfo');

          // A browser without a provider session: its interaction cannot be saved.
          const fresh = await startAuthorization(config, new Browser());
          expectRedirectedUnavailable(fresh.response, fresh.state, 'a new browser at /oidc/auth');

          // A client the provider would have to look up: no redirect to an unverified URI.
          const unknown = await loopbackFetch(
            `${home}/oidc/auth?client_id=no-such-app&response_type=code&scope=openid&redirect_uri=${encodeURIComponent(
              'https://evil.example/cb',
            )}&state=s&code_challenge=${'a'.repeat(43)}&code_challenge_method=S256`,
            { redirect: 'manual', headers: { accept: 'text/html' } },
          );
          await expectUnavailablePage(unknown, 'an unknown client at /oidc/auth', 'Grand Hotel Group');

          // Resuming an interaction, and logging out: the tenant's page.
          const resume = await browser.fetch(`${home}/oidc/auth/${'x'.repeat(21)}`, {
            headers: { accept: 'text/html' },
          });
          await expectUnavailablePage(resume, 'resuming at /oidc/auth/:uid', 'Grand Hotel Group');
          const logout = await browser.fetch(`${home}/oidc/session/end`, {
            headers: { accept: 'text/html' },
          });
          await expectUnavailablePage(logout, 'logout at /oidc/session/end', 'Grand Hotel Group');

          // A tenant whose provider was never built on this instance (its clients and keys are
          // in the database): discovery, JWKS and token answer JSON, the authorization endpoint
          // the tenant's page in its language.
          const seaside = origin('seaside');
          await expectUnavailableJson(
            await loopbackFetch(`${seaside}/oidc/.well-known/openid-configuration`),
            'discovery of an unbuilt provider',
          );
          await expectUnavailableJson(
            await loopbackFetch(`${seaside}/oidc/jwks`),
            'JWKS of an unbuilt provider',
          );
          await expectUnavailableJson(
            await tokenRequest(loopbackFetch, seaside, { grant_type: 'refresh_token', refresh_token: 'x' }),
            'token endpoint of an unbuilt provider',
          );
          const seasideAuth = await loopbackFetch(`${seaside}/oidc/auth?client_id=demo-app&langCode=de`, {
            redirect: 'manual',
          });
          expect(seasideAuth.status).toBe(503);
          expect(seasideAuth.headers.get('retry-after')).toBe(retryAfter);
          const seasidePage = await seasideAuth.text();
          expect(seasidePage).toContain('Der Anmeldedienst ist kurzzeitig nicht erreichbar.');
          expect(seasidePage).toContain('<html lang="de"');
          expect(seasidePage).toContain('Seaside');

          // A host this instance has not seen yet: which tenant it is cannot be read either.
          const summit = origin('summit');
          await expectUnavailableJson(
            await tokenRequest(loopbackFetch, summit, { grant_type: 'refresh_token', refresh_token: 'x' }),
            'token endpoint of an unknown host',
          );
          await expectUnavailablePage(
            await loopbackFetch(`${summit}/oidc/auth?client_id=demo-app`, { redirect: 'manual' }),
            'authorization endpoint of an unknown host',
            null,
          );
        }
      });
      expect(printed, 'nothing printed to stderr').toEqual([]);
      const failures = log.errors();
      expect(failures.length, 'each outage logged as an error').toBeGreaterThan(0);
      for (const entry of failures) expect(entry.msg).toMatch(/request failed/);

      // The database returns: the same flows work again, on the same running app.
      await outage.end();
      const renewed = await refresh(loopbackFetch, home, refreshToken);
      expect(renewed.status, 'refresh after the outage').toBe(200);
      const userinfo = await client.fetchUserInfo(config, renewed.access_token!, tokens.claims()!.sub);
      expect(userinfo.email).toBe(demo.grandHotel.email);
      const again = await startAuthorization(config, browser);
      const callback = await callbackOf(browser, home, again.location);
      const set = await client.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: again.verifier,
        expectedState: again.state,
        expectedNonce: again.nonce,
      });
      expect(set.claims()?.email).toBe(demo.grandHotel.email);
      const revoked = await revoke(home, set.access_token);
      expect(revoked.status).toBe(200);
      if (engine === 'postgres') {
        const seaside = await discoverIssuer(origin('seaside'));
        expect(seaside.serverMetadata().issuer).toBe(`${origin('seaside')}/oidc`);
      }
    }, 120_000);
  },
);
