import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { decodeProtectedHeader } from 'jose';
import * as client from 'openid-client';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../app.ts';
import { type Config, loadConfig } from '../../platform/config.ts';
import { type Db, openDatabase } from '../../platform/db/database.ts';
import { decrypt, keyRing } from '../../platform/shared/crypto.ts';
import { useRetiredKeys } from '../../platform/shared/retired-keys.ts';
import { loadSecrets } from '../../platform/shared/secrets.ts';
import { demo, engines, freePort, type TestApp, testPasswordHashingEnv } from '../../test/helper.ts';
import { Browser, type Fetcher } from '../../test/http-client.ts';
import { fetchVia } from '../../test/instances.ts';
import { demoRedirectUri, listeningTestApp, startAuthorization } from '../../test/oidc.ts';
import {
  appSignIn,
  callbackOf,
  passwordStep,
  registerTotp,
  sessionExists,
  totpCode,
} from '../../test/sign-in-flow.ts';
import { runCli } from './cli.ts';

/**
 * Rotating COOKIE_SECRET and ENCRYPTION_KEY as docs/operations.md#rotating-secrets says, on
 * one database, instance after instance, with openid-client as the app: nobody signs out, a
 * pending sign-in finishes, authenticator apps and recovery codes keep working before and
 * after `keycard rotate-encryption-key`, and once the old secrets are gone.
 */
describe.each(engines)('secret rotation (%s)', (engine) => {
  let t: TestApp | undefined;
  const closers: Array<() => Promise<void>> = [];

  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    await t?.close();
    t = undefined;
  });

  const secret = () => randomBytes(32).toString('hex');

  /** An instance on t's database and public port, started with these secrets, as main.ts starts one. */
  async function instanceWith(
    base: TestApp,
    secrets: { cookie: string; key: string },
  ): Promise<{ app: FastifyInstance; config: Config; database: Db; fetch: Fetcher }> {
    const port = await freePort();
    const config = loadConfig({
      NODE_ENV: 'test',
      PORT: String(port),
      PUBLIC_PORT: String(base.config.port),
      DATA_DIR: base.config.dataDir,
      LOG_LEVEL: 'silent',
      COOKIE_SECRET: secrets.cookie,
      ENCRYPTION_KEY: secrets.key,
      LOGIN_IP_LIMIT_PER_MINUTE: '1000',
      ...(base.config.databaseUrl ? { DATABASE_URL: base.config.databaseUrl } : {}),
      ...testPasswordHashingEnv,
    });
    const database = await openDatabase({
      databaseUrl: config.databaseUrl,
      sqliteFile: path.join(config.dataDir, 'test.sqlite'),
    });
    const loaded = await loadSecrets(config);
    await useRetiredKeys(database.kysely, loaded.encryptionKey);
    const { app } = await createApp({ config, database, secrets: loaded, clock: base.clock, logger: false });
    await app.listen({ port, host: '127.0.0.1' });
    closers.push(async () => {
      await app.close();
      await database.close();
    });
    return { app, config, database, fetch: fetchVia(port) };
  }

  async function rotate(instance: { config: Config; database: Db }, args: string[] = []) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(['rotate-encryption-key', ...args], {
      out: (line) => out.push(line),
      err: (line) => err.push(line),
      database: instance.database,
      config: instance.config,
    });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  it('keeps everyone signed in and every factor working through the rotation and after', async () => {
    const [cookieA, cookieB] = [secret(), secret()];
    const [keyA, keyB] = [secret(), secret()];
    const listening = await listeningTestApp(engine, {
      env: { COOKIE_SECRET: cookieA, ENCRYPTION_KEY: keyA, LOGIN_IP_LIMIT_PER_MINUTE: '1000' },
    });
    t = listening.t;
    const { clock } = t;
    const origin = listening.origin('grand-hotel');
    const nextStep = () => clock.advance(30_000);

    // Before: one browser signed in to the app (the provider's session cookie signed with A),
    // with an authenticator app (its secret sealed with A) and recovery codes (keyed with A);
    // another browser half-way through a sign-in (its interaction cookie signed with A).
    const browser = new Browser(fetchVia(t.config.port));
    await passwordStep(browser, origin, 'grand-hotel', demo.grandHotel.email);
    const { secret: totpSecret, recoveryCodes } = await registerTotp(browser, origin, clock.now());
    const issuerA = await discover(origin, fetchVia(t.config.port));
    const firstTokens = await appSignIn(issuerA, browser, origin);
    const firstKid = decodeProtectedHeader(firstTokens.id_token ?? '').kid;
    const pending = new Browser(fetchVia(t.config.port));
    const pendingStart = await startAuthorization(issuerA, pending);
    expect(pendingStart.location).toMatch(/^\/login\?iid=/);

    // Step 1: the new secrets first, the old ones still listed.
    const both = await instanceWith(t, { cookie: `${cookieB},${cookieA}`, key: `${keyB},${keyA}` });
    const viaBoth = browser.through(both.fetch);
    const issuerBoth = await discover(origin, both.fetch);
    expect(await sessionExists(viaBoth, origin)).toBe(true);
    const sessionSigBefore = browser.cookies.get('_session.sig');
    const sso = await appSignIn(issuerBoth, viaBoth, origin);
    expect(sso.claims()?.email).toBe(demo.grandHotel.email);
    // The provider read its cookie signed with A and signed it again with B.
    expect(browser.cookies.get('_session.sig')).not.toBe(sessionSigBefore);
    // The sign-in begun under A finishes here.
    const pendingHere = pending.through(both.fetch);
    await passwordStep(pendingHere, origin, 'grand-hotel', demo.grandHotel.email, demo.password, {
      iid: new URL(pendingStart.location, origin).searchParams.get('iid') ?? '',
    });
    nextStep();
    const pendingMfa = await pendingHere.fetch(`${origin}/api/mfa/verify`, {
      method: 'POST',
      body: { code: await totpCode(totpSecret, clock.now()), deliveryType: 'totp' },
    });
    expect(pendingMfa.status).toBe(200);
    await pendingCallback(pendingHere, origin, pendingStart.location);
    await signInWithTotp(both.fetch, origin, totpSecret, clock.now(), nextStep);
    expect(await redeemRecovery(both.fetch, origin, recoveryCodes[0] ?? '')).toBe(200);

    // Step 2: everything stored sealed again with B; a second run finds nothing to do.
    const first = await rotate(both);
    expect(first.err).toBe('');
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/signing keys: [1-9]\d* sealed again/);
    expect(first.out).toMatch(/authenticator-app secrets: 1 sealed again/);
    expect(first.out).toMatch(/retired keys: 1 older keys kept/);
    const second = await rotate(both);
    expect(second.code).toBe(0);
    expect(second.out).toMatch(/signing keys: 0 sealed again/);
    expect(second.out).toMatch(
      /authenticator-app secrets: 0 sealed again with the newest key, 1 already were/,
    );
    expect(second.out).toMatch(
      /retired keys: 0 older keys kept for the recovery codes made under them, 0 kept/,
    );
    const onlyB = keyRing([Buffer.from(keyB, 'hex')]);
    const sealed = [
      ...(await t.services.db.selectFrom('signing_keys').select('sealed_jwk as value').execute()),
      ...(await t.services.db
        .selectFrom('mfa_factors')
        .select('secret_sealed as value')
        .where('secret_sealed', 'is not', null)
        .execute()),
    ];
    for (const row of sealed) expect(() => decrypt(onlyB, row.value ?? '')).not.toThrow();
    await signInWithTotp(both.fetch, origin, totpSecret, clock.now(), nextStep);

    // Step 3: the old secrets removed. Still signed in, the same signing key, every factor.
    const onlyNew = await instanceWith(t, { cookie: cookieB, key: keyB });
    const viaNew = browser.through(onlyNew.fetch);
    expect(await sessionExists(viaNew, origin)).toBe(true);
    const issuerNew = await discover(origin, onlyNew.fetch);
    const later = await appSignIn(issuerNew, viaNew, origin);
    expect(decodeProtectedHeader(later.id_token ?? '').kid).toBe(firstKid);
    await signInWithTotp(onlyNew.fetch, origin, totpSecret, clock.now(), nextStep);
    expect(await redeemRecovery(onlyNew.fetch, origin, recoveryCodes[1] ?? '')).toBe(200);

    // Forgetting the retired key is what voids recovery codes made under it (and only them).
    const forget = await rotate(onlyNew, ['--forget-retired']);
    expect(forget.code).toBe(0);
    expect(forget.out).toMatch(/retired keys: 1 forgotten/);
    const afterForget = await instanceWith(t, { cookie: cookieB, key: keyB });
    expect(await redeemRecovery(afterForget.fetch, origin, recoveryCodes[2] ?? '')).toBe(400);
    await signInWithTotp(afterForget.fetch, origin, totpSecret, clock.now(), nextStep);
  });

  it('refuses to call done while a value is sealed with a key it is not given', async () => {
    const [keyA, keyB] = [secret(), secret()];
    const listening = await listeningTestApp(engine, { env: { ENCRYPTION_KEY: keyA } });
    t = listening.t;
    const browser = new Browser(fetchVia(t.config.port));
    const origin = listening.origin('grand-hotel');
    await passwordStep(browser, origin, 'grand-hotel', demo.grandHotel.email);
    await registerTotp(browser, origin, t.clock.now());
    const onlyB = await instanceWith(t, { cookie: secret(), key: keyB });
    const result = await rotate(onlyB);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/authenticator-app secrets: 1 cannot be opened/);
    expect(result.err).toMatch(/add it back to ENCRYPTION_KEY/);
  });

  function discover(origin: string, fetcher: Fetcher): Promise<client.Configuration> {
    return client.discovery(new URL(`${origin}/oidc`), 'demo-app', 'demo-app-secret', undefined, {
      execute: [client.allowInsecureRequests],
      [client.customFetch]: fetcher as never,
    });
  }

  /** A fresh browser: password, then the authenticator app's code of the next time step. */
  async function signInWithTotp(
    fetcher: Fetcher,
    origin: string,
    totpSecret: string,
    now: number,
    nextStep: () => void,
  ): Promise<void> {
    nextStep();
    const fresh = new Browser(fetcher);
    const identity = await passwordStep(fresh, origin, 'grand-hotel', demo.grandHotel.email);
    expect(identity.state).not.toBe('AUTHENTICATED');
    const verify = await fresh.fetch(`${origin}/api/mfa/verify`, {
      method: 'POST',
      body: { code: await totpCode(totpSecret, now + 30_000), deliveryType: 'totp' },
    });
    expect(verify.status, await verify.clone().text()).toBe(200);
    expect(((await verify.json()) as { state: string }).state).toBe('AUTHENTICATED');
  }

  async function redeemRecovery(fetcher: Fetcher, origin: string, code: string): Promise<number> {
    const fresh = new Browser(fetcher);
    await passwordStep(fresh, origin, 'grand-hotel', demo.grandHotel.email);
    const verify = await fresh.fetch(`${origin}/api/mfa/verify`, {
      method: 'POST',
      body: { recoveryCode: code },
    });
    return verify.status;
  }

  async function pendingCallback(browser: Browser, origin: string, location: string): Promise<void> {
    const callback = await callbackOf(browser, origin, location);
    expect(callback.href.startsWith(demoRedirectUri)).toBe(true);
    expect(callback.searchParams.get('code')).toBeTruthy();
  }
});
