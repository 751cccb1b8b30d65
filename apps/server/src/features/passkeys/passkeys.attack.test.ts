import { generateKeyPairSync } from 'node:crypto';
import { apiPaths, type PasskeyAssertion } from '@keycard/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../platform/db/database.ts';
import { engines } from '../../test/helper.ts';
import { Browser } from '../../test/http-client.ts';
import { type Cluster, instancesFor } from '../../test/instances.ts';
import {
  accountWithPasskey,
  insertFillerPasskeys,
  newAccount,
  passkeySignIn,
  passwordSignIn,
  post,
  registrationOptions,
  SoftwareAuthenticator,
  signInOptions,
  signInWith,
} from './passkey.test-support.ts';

/**
 * Attacks on passkey sign-in (issue 18), with real WebAuthn responses bent one part at a time:
 * each is refused with `passkey.challenge_invalid` or `passkey.verification_failed` (a credential
 * not held on the domain asked: `passkey.unknown_credential`) and opens no session. Races run 30 requests at once, on SQLite (one instance) and on PostgreSQL (two
 * instances of one database behind one origin): one challenge, one sign-in.
 */
const layouts = engines.map((engine): [Engine, string] => [
  engine,
  engine === 'postgres' ? 'two instances' : 'one instance',
]);

const refused = { status: 401, json: { code: 'passkey.verification_failed' } };
/** A credential this tenant does not hold on the domain asked: no account named, nothing verified. */
const unknownHere = { status: 401, json: { code: 'passkey.unknown_credential' } };
const spent = { status: 400, json: { code: 'passkey.challenge_invalid' } };

describe.each(layouts)('passkey sign-in under attack on %s, %s', (engine) => {
  let cluster: Cluster;
  let origin: string;
  const t = () => cluster.t;
  /** The same browser (cookie jar) reaching the instances in turn, as a load balancer would. */
  const spread = (browser: Browser, i: number) =>
    browser.through(cluster.instances[i % cluster.instances.length]!.fetch);

  beforeAll(async () => {
    cluster = await instancesFor(engine, { env: { LOGIN_IP_LIMIT_PER_MINUTE: '100000' } });
    origin = cluster.origin('grand-hotel');
  });
  afterAll(() => cluster.close());

  /** Login codes issued to the account by a passkey sign-in (not its password steps). */
  const loginCodes = async (userId: string) =>
    (
      await t()
        .services.db.selectFrom('one_time_tokens')
        .select('data')
        .where('user_id', '=', userId)
        .where('purpose', '=', 'LOGIN_CODE')
        .execute()
    ).filter((row) => 'passkey' in JSON.parse(row.data ?? '{}')).length;

  const refusals = async (userId: string, reason: string) =>
    (
      await t()
        .services.db.selectFrom('audit_log')
        .select('after')
        .where('action', '=', 'passkey.refused')
        .where('target_id', '=', userId)
        .execute()
    ).filter((row) => JSON.parse(row.after ?? '{}').reason === reason).length;

  it('one challenge signs in once, also with 30 concurrent uses on every instance', async () => {
    const key = new SoftwareAuthenticator(origin, { synced: true });
    const { id } = await accountWithPasskey(t(), new Browser(), origin, key);
    const browser = new Browser();
    const assertion = key.get(await signInOptions(browser, origin));
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => signInWith(spread(browser, i), origin, assertion)),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const answer of answers.filter((a) => a.status !== 200)) expect(answer).toMatchObject(spent);
    expect(await loginCodes(id)).toBe(1);
    // Replayed later, the same assertion is worth nothing.
    expect(await signInWith(browser, origin, assertion)).toMatchObject(spent);
  });

  it('20 creations at once from 20 sessions of an account with 19 passkeys: one gets the 20th', async () => {
    const { id, email } = await newAccount(t());
    const browsers = Array.from({ length: 20 }, () => new Browser());
    for (const [i, browser] of browsers.entries()) {
      await passwordSignIn(spread(browser, i), origin, 'grand-hotel', email);
    }
    const now = t().clock.now();
    await insertFillerPasskeys(t(), id, { count: 19, prefix: 'race' });
    // The passkeys now make the account enrolled: its sessions passed MFA just now (as with a code).
    await t()
      .services.db.updateTable('sessions')
      .set({ mfa_method: 'totp', mfa_verified_at: now })
      .where('user_id', '=', id)
      .execute();
    const credentials: ReturnType<SoftwareAuthenticator['create']>[] = [];
    for (const [i, browser] of browsers.entries()) {
      const key = new SoftwareAuthenticator(origin);
      credentials.push(key.create(await registrationOptions(spread(browser, i), origin)));
    }
    const answers = await Promise.all(
      browsers.map((browser, i) =>
        post(spread(browser, i + 1), origin, apiPaths.passkeys.register, { credential: credentials[i] }),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    for (const answer of answers.filter((a) => a.status !== 201)) {
      expect(answer).toMatchObject({ status: 409, json: { code: 'passkey.limit_reached' } });
    }
    const stored = await t()
      .services.db.selectFrom('passkey_credentials')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBe(20);
  });

  it('two assertions with one counter (a cloned key) racing on two challenges: one passes', async () => {
    const key = new SoftwareAuthenticator(origin, { counter: 10 });
    const { id } = await accountWithPasskey(t(), new Browser(), origin, key);
    const browsers = Array.from({ length: 20 }, () => new Browser());
    const assertions: PasskeyAssertion[] = [];
    for (const [i, browser] of browsers.entries()) {
      assertions.push(key.get(await signInOptions(spread(browser, i), origin), { counter: 11 }));
    }
    const answers = await Promise.all(
      browsers.map((browser, i) => signInWith(spread(browser, i + 1), origin, assertions[i]!)),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const answer of answers.filter((a) => a.status !== 200)) expect(answer).toMatchObject(refused);
    expect(await loginCodes(id)).toBe(1);
  });

  it('a counter that goes back is refused and audited as a possible clone', async () => {
    const key = new SoftwareAuthenticator(origin, { counter: 50 });
    const { id } = await accountWithPasskey(t(), new Browser(), origin, key);
    await passkeySignIn(new Browser(), origin, 'grand-hotel', key);
    for (const counter of [51, 20]) {
      const browser = new Browser();
      const answer = await signInWith(
        browser,
        origin,
        key.get(await signInOptions(browser, origin), { counter }),
      );
      expect(answer).toMatchObject(refused);
    }
    expect(await refusals(id, 'counter_regressed')).toBe(2);
    expect(await loginCodes(id)).toBe(1);
  });

  it("refuses another tenant's, another domain's or a forged origin, RP ID, type or signature", async () => {
    const key = new SoftwareAuthenticator(origin, { counter: 1 });
    const { id } = await accountWithPasskey(t(), new Browser(), origin, key);
    const port = new URL(origin).port;
    const bends = [
      { origin: cluster.origin('seaside') },
      { origin: `http://localhost:${port}` },
      { origin: `http://evil.localhost:${port}` },
      { origin: origin.replace('http:', 'https:') },
      { rpIdForHash: 'seaside.localhost' },
      { rpIdForHash: 'localhost' },
      { type: 'webauthn.create' },
      { userVerified: false },
      { signWith: generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey },
    ];
    for (const bend of bends) {
      const browser = new Browser();
      const answer = await signInWith(browser, origin, key.get(await signInOptions(browser, origin), bend));
      expect(answer, JSON.stringify(Object.keys(bend))).toMatchObject(refused);
    }
    expect(await refusals(id, 'signature_or_origin')).toBe(bends.length);
    expect(await loginCodes(id)).toBe(0);
    // The key itself still works: nothing above spent it.
    await passkeySignIn(new Browser(), origin, 'grand-hotel', key);
  });

  it('a challenge works only in the browser, tenant, domain and purpose it was made for', async () => {
    const key = new SoftwareAuthenticator(origin);
    await accountWithPasskey(t(), new Browser(), origin, key);
    const browser = new Browser();
    const options = await signInOptions(browser, origin);
    // Another browser (no ceremony cookie, or its own).
    expect(await signInWith(new Browser(), origin, key.get(options))).toMatchObject(spent);
    const other = new Browser();
    await signInOptions(other, origin);
    expect(await signInWith(other, origin, key.get(options))).toMatchObject(spent);
    // The tenant's other domain (localhost) with this browser's cookie jar: another RP ID.
    const port = new URL(origin).port;
    const alias = `http://localhost:${port}`;
    expect(
      await signInWith(browser, alias, key.get(options, { origin: alias, rpIdForHash: 'localhost' })),
    ).toMatchObject(spent);
    // Another tenant's domain.
    const seaside = cluster.origin('seaside');
    expect(
      await signInWith(
        browser,
        seaside,
        key.get(options, { origin: seaside, rpIdForHash: 'seaside.localhost' }),
      ),
    ).toMatchObject(spent);
    // A made-up challenge, and one issued for the verify ceremony of a signed-in session.
    expect(await signInWith(browser, origin, key.get(options, { challenge: 'A'.repeat(43) }))).toMatchObject(
      spent,
    );
    // The right one is still unspent after all that.
    expect((await signInWith(browser, origin, key.get(options))).status).toBe(200);
  });

  it("refuses a mismatched user handle, another tenant's passkey, another domain's, and a disabled account", async () => {
    const key = new SoftwareAuthenticator(origin);
    const { id } = await accountWithPasskey(t(), new Browser(), origin, key);
    const mallory = new SoftwareAuthenticator(origin);
    const { id: malloryId } = await accountWithPasskey(t(), new Browser(), origin, mallory);

    // Mallory's key answering with the victim's handle, and with none.
    const victimHandle = key.userHandle;
    for (const userHandle of [victimHandle, undefined]) {
      const browser = new Browser();
      const options = await signInOptions(browser, origin);
      expect(await signInWith(browser, origin, mallory.get(options, { userHandle }))).toMatchObject(refused);
    }
    expect(await refusals(malloryId, 'user_handle_mismatch')).toBe(2);

    // A passkey made on seaside presented to grand-hotel (as if the browser let it).
    const seasideOrigin = cluster.origin('seaside');
    const seasideKey = new SoftwareAuthenticator(seasideOrigin);
    await accountWithPasskey(t(), new Browser(), seasideOrigin, seasideKey, 'seaside', 'seaside.test');
    let browser = new Browser();
    let options = await signInOptions(browser, origin);
    const foreign = seasideKey.get(options, { origin, rpIdForHash: 'grand-hotel.localhost' });
    expect(await signInWith(browser, origin, foreign)).toMatchObject(unknownHere);

    // A passkey made on the tenant's other domain (localhost) signs in there only.
    const port = new URL(origin).port;
    const alias = `http://localhost:${port}`;
    const aliasKey = new SoftwareAuthenticator(alias);
    await accountWithPasskey(t(), new Browser(), alias, aliasKey);
    browser = new Browser();
    options = await signInOptions(browser, origin);
    expect(
      await signInWith(
        browser,
        origin,
        aliasKey.get(options, { origin, rpIdForHash: 'grand-hotel.localhost' }),
      ),
    ).toMatchObject(unknownHere);
    await passkeySignIn(new Browser(), alias, 'grand-hotel', aliasKey);

    // A disabled account's passkey.
    await t().services.db.updateTable('users').set({ status: 'disabled' }).where('id', '=', id).execute();
    browser = new Browser();
    options = await signInOptions(browser, origin);
    expect(await signInWith(browser, origin, key.get(options))).toMatchObject(refused);
    expect(await refusals(id, 'account_inactive')).toBe(1);
    expect(await loginCodes(id)).toBe(0);
  });

  it('every attack at once, spread over the instances: only the honest assertion signs in', async () => {
    const port = new URL(origin).port;
    const key = new SoftwareAuthenticator(origin, { counter: 10 });
    const { id } = await accountWithPasskey(t(), new Browser(), origin, key);
    const mallory = new SoftwareAuthenticator(origin);
    const { id: malloryId } = await accountWithPasskey(t(), new Browser(), origin, mallory);
    const frozen = new SoftwareAuthenticator(origin);
    const { id: frozenId } = await accountWithPasskey(t(), new Browser(), origin, frozen);
    await t()
      .services.db.updateTable('users')
      .set({ status: 'disabled' })
      .where('id', '=', frozenId)
      .execute();

    const honest = new Browser();
    const assertion = key.get(await signInOptions(honest, origin));
    const attempts: { browser: Browser; credential: PasskeyAssertion; kind: 'honest' | 'replay' | 'bent' }[] =
      [{ browser: honest, credential: assertion, kind: 'honest' }];
    // The same assertion replayed in its own browser, and stolen into others.
    for (let i = 0; i < 10; i++) attempts.push({ browser: honest, credential: assertion, kind: 'replay' });
    for (let i = 0; i < 5; i++) {
      const thief = new Browser();
      await signInOptions(thief, origin);
      attempts.push({ browser: thief, credential: assertion, kind: 'replay' });
    }
    // Each bent assertion answers a challenge of its own browser.
    const bends: [SoftwareAuthenticator, Parameters<SoftwareAuthenticator['get']>[1]][] = [
      [key, { origin: cluster.origin('seaside') }],
      [key, { origin: `http://localhost:${port}` }],
      [key, { rpIdForHash: 'localhost' }],
      [key, { counter: 5 }],
      [mallory, { userHandle: key.userHandle }],
      [frozen, {}],
    ];
    for (const [authenticator, bend] of bends) {
      const browser = new Browser();
      attempts.push({
        browser,
        credential: authenticator.get(await signInOptions(browser, origin), bend),
        kind: 'bent',
      });
    }

    const answers = await Promise.all(
      attempts.map((attempt, i) => signInWith(spread(attempt.browser, i), origin, attempt.credential)),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const [i, attempt] of attempts.entries()) {
      const answer = answers[i]!;
      if (attempt.kind === 'bent') expect(answer, `bend ${i}`).toMatchObject(refused);
      else if (answer.status !== 200) expect(answer, `replay ${i}`).toMatchObject(spent);
    }
    expect(await loginCodes(id)).toBe(1);
    expect(await loginCodes(malloryId)).toBe(0);
    expect(await loginCodes(frozenId)).toBe(0);
    expect(await refusals(id, 'signature_or_origin')).toBe(3);
    expect(await refusals(id, 'counter_regressed')).toBe(1);
    expect(await refusals(malloryId, 'user_handle_mismatch')).toBe(1);
    expect(await refusals(frozenId, 'account_inactive')).toBe(1);
  });

  it('a passkey sign-in of one session cannot verify, create or remove for another', async () => {
    const key = new SoftwareAuthenticator(origin);
    const owner = new Browser();
    const { passkey } = await accountWithPasskey(t(), owner, origin, key);
    const intruderKey = new SoftwareAuthenticator(origin);
    const intruder = new Browser();
    await accountWithPasskey(t(), intruder, origin, intruderKey);
    // The intruder's session asks for verify options and answers with the owner's key.
    const options = await post(intruder, origin, apiPaths.passkeys.verifyOptions);
    const answer = await post(intruder, origin, apiPaths.passkeys.verify, {
      credential: key.get(options.json.options as { challenge: string; rpId: string }),
    });
    expect(answer).toMatchObject(refused);
    // The owner's verify challenge is not the intruder's to use.
    const ownerOptions = await post(owner, origin, apiPaths.passkeys.verifyOptions);
    const stolen = intruderKey.get(ownerOptions.json.options as { challenge: string; rpId: string });
    expect(await post(intruder, origin, apiPaths.passkeys.verify, { credential: stolen })).toMatchObject(
      spent,
    );
    const removal = await intruder.fetch(`${origin}${apiPaths.passkeys.item(passkey.id)}`, {
      method: 'DELETE',
      headers: { origin },
    });
    expect(removal.status).toBe(404);
  });
});
