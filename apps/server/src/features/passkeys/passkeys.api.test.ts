import { apiPaths, type LoginDomainResponse, type PasskeyListResponse } from '@keycard/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY } from '../../platform/shared/clock.ts';
import { engines } from '../../test/helper.ts';
import { Browser } from '../../test/http-client.ts';
import { type Cluster, oneInstance } from '../../test/instances.ts';
import { registerTotp } from '../../test/sign-in-flow.ts';
import { mailsTo, refuseMailTo, setTenantSettings, signInTrail } from '../accounts/test-support.ts';
import {
  accountWithPasskey,
  createPasskey,
  insertFillerPasskeys,
  newAccount,
  passkeySignIn,
  passkeyVerify,
  passwordSignIn,
  post,
  registrationOptions,
  SoftwareAuthenticator,
  signInOptions,
  signInWith,
  testPassword,
} from './passkey.test-support.ts';

/**
 * Passkeys through the portal API (docs/passkeys.md), with real WebAuthn responses made by a
 * software authenticator: creation after a recent sign-in, sign-in by passkey (MFA by itself,
 * no password expiry), a passkey as the second factor of a password sign-in, the list,
 * renaming and removal, the limit, and the tenant's `off` setting.
 */
describe.each(engines)('passkeys on %s', (engine) => {
  let cluster: Cluster;
  let origin: string;
  const t = () => cluster.t;

  beforeAll(async () => {
    cluster = await oneInstance(engine, { env: { LOGIN_IP_LIMIT_PER_MINUTE: '100000' } });
    origin = cluster.origin('grand-hotel');
  });
  afterAll(() => cluster.close());

  const sessionOf = (userId: string) =>
    t()
      .services.db.selectFrom('sessions')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();

  it('creates a passkey after a password sign-in, lists it, and tells the owner', async () => {
    const browser = new Browser();
    const key = new SoftwareAuthenticator(origin, { counter: 1 });
    const { email, id, passkey } = await accountWithPasskey(t(), browser, origin, key);
    expect(passkey).toMatchObject({
      synced: false,
      deviceBound: true,
      transports: ['usb'],
      rpId: 'grand-hotel.localhost',
      usableHere: true,
      lastUsedAt: null,
    });
    expect(passkey.name).toMatch(/^Security key \(\d{4}-\d{2}-\d{2}\)$/);

    const list = await browser.fetch(`${origin}${apiPaths.passkeys.list}`);
    const body = (await list.json()) as PasskeyListResponse;
    expect(body.passkeys.map((p) => p.id)).toEqual([passkey.id]);
    expect(body.limit).toBe(20);

    // The user handle is random, never the account's id or address.
    const options = await registrationOptions(browser, origin);
    const handle = await t()
      .services.db.selectFrom('passkey_user_handles')
      .select('handle')
      .where('user_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(options.user.id).toBe(handle.handle);
    // The list names the credential as the authenticator knows it, and the account's handle
    // (for the portal's WebAuthn Signal API calls).
    expect(body.passkeys.map((p) => p.credentialId)).toEqual([key.id]);
    expect(body.userHandle).toBe(handle.handle);
    expect(body.userHandle).toBe(key.userHandle);
    expect(Buffer.from(handle.handle, 'base64url')).toHaveLength(32);
    expect(options.user.id).not.toContain(id);
    expect(options.excludeCredentials.map((c) => c.id)).toEqual([key.id]);
    expect(options.authenticatorSelection).toEqual({
      residentKey: 'required',
      requireResidentKey: true,
      userVerification: 'required',
    });
    expect(options.rp.id).toBe('grand-hotel.localhost');

    const mails = await mailsTo(t(), email);
    expect(mails.some((mail) => mail.template.includes('passkey-added'))).toBe(true);
    const audit = await t()
      .services.db.selectFrom('audit_log')
      .select(['action', 'target_id'])
      .where('action', '=', 'passkey.added')
      .where('target_id', '=', id)
      .execute();
    expect(audit).toHaveLength(1);
    const activity = await t()
      .services.db.selectFrom('account_activity')
      .select('kind')
      .where('user_id', '=', id)
      .execute();
    expect(activity.map((a) => a.kind)).toContain('passkey-added');
  });

  it('signs in with a passkey (packed attestation): MFA complete, no password step, counter and last use', async () => {
    const key = new SoftwareAuthenticator(origin, { counter: 5, attestation: 'packed' });
    const { id } = await accountWithPasskey(t(), new Browser(), origin, key);
    const browser = new Browser();
    const identity = await passkeySignIn(browser, origin, 'grand-hotel', key);
    expect(identity.state).toBe('AUTHENTICATED');
    const session = await sessionOf(id);
    expect(session).toMatchObject({ provider: 'passkey', mfa_method: 'passkey-hwk' });
    expect(session.mfa_verified_at).toBe(session.created_at);
    const row = await t()
      .services.db.selectFrom('passkey_credentials')
      .selectAll()
      .where('user_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(Number(row.counter)).toBe(6);
    expect(row.last_used_at).not.toBeNull();
    // A passkey session may change the account at once: it is a recent sign-in.
    await createPasskey(browser, origin, new SoftwareAuthenticator(origin));
  });

  it('a synced passkey counts as swk; an expired password does not stop a passkey sign-in', async () => {
    const key = new SoftwareAuthenticator(origin, { synced: true });
    const { id, passkey } = await accountWithPasskey(t(), new Browser(), origin, key);
    expect(passkey).toMatchObject({ synced: true, deviceBound: false, transports: ['hybrid', 'internal'] });
    await setTenantSettings(t(), { passwordExpiryDays: 30 });
    try {
      await t()
        .services.db.updateTable('users')
        .set({ password_changed_at: t().clock.now() - 60 * DAY })
        .where('id', '=', id)
        .execute();
      const identity = await passkeySignIn(new Browser(), origin, 'grand-hotel', key);
      expect(identity.state).toBe('AUTHENTICATED');
      expect(identity.passwordExpiryInDays).toBeNull();
      expect((await sessionOf(id)).mfa_method).toBe('passkey-swk');
    } finally {
      await setTenantSettings(t(), {});
    }
  });

  it("keeps a synced passkey's backup state as its authenticator reports it at each use", async () => {
    const key = new SoftwareAuthenticator(origin, { synced: true });
    const { id } = await accountWithPasskey(t(), new Browser(), origin, key);
    const flags = () =>
      t()
        .services.db.selectFrom('passkey_credentials')
        .select(['backup_eligible', 'backed_up'])
        .where('user_id', '=', id)
        .executeTakeFirstOrThrow();
    expect(await flags()).toMatchObject({ backup_eligible: 1, backed_up: 1 });
    // Restored on a phone whose backup is off for now: still eligible (synced, swk), not backed up.
    await passkeySignIn(new Browser(), origin, 'grand-hotel', key, { bend: { backedUp: false } });
    expect(await flags()).toMatchObject({ backup_eligible: 1, backed_up: 0 });
    expect((await sessionOf(id)).mfa_method).toBe('passkey-swk');
    await passkeySignIn(new Browser(), origin, 'grand-hotel', key);
    expect(await flags()).toMatchObject({ backup_eligible: 1, backed_up: 1 });
  });

  it('a passkey is the second factor of a password sign-in (a security key without PIN too)', async () => {
    const key = new SoftwareAuthenticator(origin, { counter: 1 });
    const { email, id } = await accountWithPasskey(t(), new Browser(), origin, key);
    const browser = new Browser();
    const identity = await passwordSignIn(browser, origin, 'grand-hotel', email);
    expect(identity.state).toBe('MFA_VERIFICATION_REQUIRED');
    const status = await browser.fetch(`${origin}${apiPaths.mfa.status}`);
    expect(await status.json()).toMatchObject({ passkeysHere: true, passkeyDomainsElsewhere: [] });
    const options = await post(browser, origin, apiPaths.passkeys.verifyOptions);
    expect(options.json.options).toMatchObject({
      userVerification: 'preferred',
      allowCredentials: [{ id: key.id, type: 'public-key', transports: ['usb'] }],
    });
    const verified = await passkeyVerify(browser, origin, key, { userVerified: false });
    expect(verified).toEqual({ status: 200, json: { state: 'AUTHENTICATED' } });
    expect(await sessionOf(id)).toMatchObject({ provider: 'keycard', mfa_method: 'passkey-hwk' });
    // On the tenant's other domain the passkey does not work; the status says where it does.
    const alias = `http://localhost:${new URL(origin).port}`;
    const there = new Browser();
    await passwordSignIn(there, alias, 'grand-hotel', email);
    const elsewhere = await there.fetch(`${alias}${apiPaths.mfa.status}`, { headers: { origin: alias } });
    expect(await elsewhere.json()).toMatchObject({
      passkeysHere: false,
      passkeyDomainsElsewhere: ['grand-hotel.localhost'],
    });
    expect(await post(there, alias, apiPaths.passkeys.verifyOptions)).toMatchObject({
      status: 404,
      json: { code: 'passkey.not_found' },
    });
  });

  it('creating needs a recent sign-in; renaming does not; removing does, and ends the passkey', async () => {
    const key = new SoftwareAuthenticator(origin);
    const browser = new Browser();
    const { passkey } = await accountWithPasskey(t(), browser, origin, key);
    t().clock.advance(6 * 60_000);
    try {
      const late = await post(browser, origin, apiPaths.passkeys.registrationOptions);
      expect(late.status).toBe(401);
      expect(late.json.code).toBe('account.recent_sign_in_required');
      const renamed = await browser.fetch(`${origin}${apiPaths.passkeys.item(passkey.id)}`, {
        method: 'PATCH',
        body: { name: '  Work laptop ' },
      });
      expect(renamed.status).toBe(200);
      expect(((await renamed.json()) as { passkey: { name: string } }).passkey.name).toBe('Work laptop');
      const stale = await browser.fetch(`${origin}${apiPaths.passkeys.item(passkey.id)}`, {
        method: 'DELETE',
        headers: { origin },
      });
      expect(stale.status).toBe(401);

      // The passkey itself makes the sign-in recent again (the account page's check).
      expect((await passkeyVerify(browser, origin, key)).status).toBe(200);
      // A ceremony in flight when the passkey goes fails.
      const other = new Browser();
      const pending = await signInOptions(other, origin);
      const removed = await browser.fetch(`${origin}${apiPaths.passkeys.item(passkey.id)}`, {
        method: 'DELETE',
        headers: { origin },
      });
      expect(removed.status).toBe(204);
      // Said as unknown (its own code), so the portal can tell the authenticator to drop it.
      const gone = await signInWith(other, origin, key.get(pending));
      expect(gone).toMatchObject({ status: 401, json: { code: 'passkey.unknown_credential' } });
      const again = await browser.fetch(`${origin}${apiPaths.passkeys.item(passkey.id)}`, {
        method: 'DELETE',
        headers: { origin },
      });
      expect(again.status).toBe(404);
    } finally {
      t().clock.advance(-6 * 60_000);
    }
  });

  it('a key touched without user verification is a second step, never a recent sign-in on its own', async () => {
    const key = new SoftwareAuthenticator(origin);
    const browser = new Browser();
    await accountWithPasskey(t(), browser, origin, key);
    t().clock.advance(6 * 60_000);
    try {
      // Someone at the unattended computer touches the plugged-in key: no PIN, no password.
      expect(await passkeyVerify(browser, origin, key, { userVerified: false })).toMatchObject({
        status: 401,
        json: { code: 'passkey.verification_failed' },
      });
      const late = await post(browser, origin, apiPaths.passkeys.registrationOptions);
      expect(late.json.code).toBe('account.recent_sign_in_required');
      // After the password again, the same touch is the second step, and the change may go on.
      const again = await post(browser, origin, apiPaths.account.reauthenticate, { password: testPassword });
      expect(again.json).toMatchObject({ factorRequired: true });
      expect((await passkeyVerify(browser, origin, key, { userVerified: false })).status).toBe(200);
      expect((await post(browser, origin, apiPaths.passkeys.registrationOptions)).status).toBe(200);
      // With user verification (PIN, fingerprint) the key is a sign-in of its own, as before.
      t().clock.advance(6 * 60_000);
      expect((await passkeyVerify(browser, origin, key)).status).toBe(200);
      expect((await post(browser, origin, apiPaths.passkeys.registrationOptions)).status).toBe(200);
    } finally {
      t().clock.advance(-12 * 60_000);
    }
  });

  it('refuses another account passkey id, the 21st passkey, and the same authenticator twice', async () => {
    const key = new SoftwareAuthenticator(origin);
    const browser = new Browser();
    const { id } = await accountWithPasskey(t(), browser, origin, key);
    const stranger = new Browser();
    const { passkey: theirs } = await accountWithPasskey(
      t(),
      stranger,
      origin,
      new SoftwareAuthenticator(origin),
    );
    const rename = await browser.fetch(`${origin}${apiPaths.passkeys.item(theirs.id)}`, {
      method: 'PATCH',
      body: { name: 'mine now' },
    });
    expect(rename.status).toBe(404);
    expect(
      (
        await browser.fetch(`${origin}${apiPaths.passkeys.item(theirs.id)}`, {
          method: 'DELETE',
          headers: { origin },
        })
      ).status,
    ).toBe(404);

    const twice = await post(browser, origin, apiPaths.passkeys.register, {
      credential: key.create(await registrationOptions(browser, origin)),
    });
    expect(twice).toMatchObject({ status: 409, json: { code: 'passkey.already_registered' } });

    await insertFillerPasskeys(t(), id, { count: 19, prefix: 'filler' });
    const full = await post(browser, origin, apiPaths.passkeys.registrationOptions);
    expect(full).toMatchObject({ status: 409, json: { code: 'passkey.limit_reached' } });
    // At the limit the list still names every one: the portal's signalAllAcceptedCredentials
    // makes authenticators drop whatever it leaves out.
    const list = (await (
      await browser.fetch(`${origin}${apiPaths.passkeys.list}`)
    ).json()) as PasskeyListResponse;
    expect(list.passkeys).toHaveLength(20);
    expect(new Set(list.passkeys.map((p) => p.credentialId))).toEqual(
      new Set([key.id, ...Array.from({ length: 19 }, (_, i) => `filler-${id}-${i}`)]),
    );
  });

  it('lists no user handle before the first passkey, and makes none by listing', async () => {
    const browser = new Browser();
    const { email, id } = await newAccount(t());
    await passwordSignIn(browser, origin, 'grand-hotel', email);
    const list = await browser.fetch(`${origin}${apiPaths.passkeys.list}`);
    expect(list.status).toBe(200);
    expect(await list.json()).toEqual({ passkeys: [], limit: 20, userHandle: null });
    const handles = await t()
      .services.db.selectFrom('passkey_user_handles')
      .select('handle')
      .where('user_id', '=', id)
      .execute();
    expect(handles).toHaveLength(0);
  });

  it("the tenant's `off` setting refuses every passkey call and passkeys stop counting as a factor", async () => {
    const key = new SoftwareAuthenticator(origin);
    const { email } = await accountWithPasskey(t(), new Browser(), origin, key);
    const login = (await (
      await new Browser().fetch(`${origin}${apiPaths.loginDomain('grand-hotel.localhost')}`)
    ).json()) as LoginDomainResponse;
    expect(login.tenant.passkeys).toBe('offered');
    await setTenantSettings(t(), { passkeys: 'off' });
    try {
      const browser = new Browser();
      const offAnswer = (await (
        await browser.fetch(`${origin}${apiPaths.loginDomain('grand-hotel.localhost')}`)
      ).json()) as LoginDomainResponse;
      expect(offAnswer.tenant.passkeys).toBe('off');
      const options = await post(browser, origin, apiPaths.passkeys.signInOptions);
      expect(options).toMatchObject({ status: 403, json: { code: 'passkey.not_offered' } });
      const identity = await passwordSignIn(browser, origin, 'grand-hotel', email);
      expect(identity.state).toBe('AUTHENTICATED');
      for (const path of [apiPaths.passkeys.registrationOptions, apiPaths.passkeys.verifyOptions]) {
        expect((await post(browser, origin, path)).json.code).toBe('passkey.not_offered');
      }
    } finally {
      await setTenantSettings(t(), {});
    }
  });

  it('a passkey sign-in from a browser never seen before mails the owner, where the tenant asks', async () => {
    const key = new SoftwareAuthenticator(origin);
    const first = new Browser();
    const { email } = await accountWithPasskey(t(), first, origin, key);
    const newBrowserMails = async () =>
      (await mailsTo(t(), email)).filter((mail) => mail.template === 'security.new-browser-sign-in');
    // Off by default: a new browser signs in without a mail.
    await passkeySignIn(new Browser(), origin, 'grand-hotel', key);
    expect(await newBrowserMails()).toHaveLength(0);
    await setTenantSettings(t(), { securityMail: { newBrowserSignIn: true } });
    try {
      // The browser that signed in with the password is known: no news.
      await passkeySignIn(first, origin, 'grand-hotel', key);
      expect(await newBrowserMails()).toHaveLength(0);
      const stranger = new Browser();
      await passkeySignIn(stranger, origin, 'grand-hotel', key);
      const [mail] = await newBrowserMails();
      expect(mail?.subject).toBe('New sign-in to your Grand Hotel Group account');
      expect(mail?.text).toContain('/reset-password/?email=');
      expect(mail?.text).toContain('/account?langCode=');
      // Once seen, that browser is known too.
      await passkeySignIn(stranger, origin, 'grand-hotel', key);
      expect(await newBrowserMails()).toHaveLength(1);
    } finally {
      await setTenantSettings(t(), {});
    }
  });

  it('commits a passkey sign-in and its new-browser mail together: no mail, no sign-in', async () => {
    const key = new SoftwareAuthenticator(origin);
    const { email } = await accountWithPasskey(t(), new Browser(), origin, key);
    const written = () => signInTrail(t(), email);
    await setTenantSettings(t(), { securityMail: { newBrowserSignIn: true } });
    try {
      const before = await written();
      const allow = await refuseMailTo(t(), email);
      try {
        const stranger = new Browser();
        const answer = await signInWith(stranger, origin, key.get(await signInOptions(stranger, origin)));
        expect(answer.status).toBe(500);
        expect(await written()).toEqual(before);
      } finally {
        await allow();
      }
      await passkeySignIn(new Browser(), origin, 'grand-hotel', key);
      expect(await written()).toEqual({ codes: before.codes + 1, signIns: before.signIns + 1, mails: 1 });
    } finally {
      await setTenantSettings(t(), {});
    }
  });

  it("an MFA reset removes the account's passkeys; the owner is told of each change", async () => {
    const { email, id } = await newAccount(t());
    const browser = new Browser();
    await passwordSignIn(browser, origin, 'grand-hotel', email);
    await registerTotp(browser, origin, t().clock.now());
    const key = new SoftwareAuthenticator(origin);
    await createPasskey(browser, origin, key);
    // A passkey sign-in is in the recent activity, and the new factor and renewed codes mailed.
    await passkeySignIn(new Browser(), origin, 'grand-hotel', key);
    const renewed = await post(browser, origin, apiPaths.mfa.recoveryCodes);
    expect(renewed.status).toBe(200);
    const kinds = async () =>
      (
        await t()
          .services.db.selectFrom('account_activity')
          .select(['kind', 'detail'])
          .where('user_id', '=', id)
          .execute()
      ).map(
        (row) => `${row.kind}${JSON.parse(row.detail).method ? `:${JSON.parse(row.detail).method}` : ''}`,
      );
    expect(await kinds()).toEqual(
      expect.arrayContaining(['factor-added', 'passkey-added', 'sign-in:passkey', 'recovery-codes-renewed']),
    );
    const templates = (await mailsTo(t(), email)).map((mail) => mail.template);
    for (const event of ['factor-added', 'passkey-added', 'recovery-codes-renewed']) {
      expect(
        templates.some((template) => template.includes(event)),
        event,
      ).toBe(true);
    }

    const reset = await post(browser, origin, apiPaths.mfa.reset, {
      proof: { recoveryCode: (renewed.json.recoveryCodes as string[])[0] },
    });
    expect(reset.status, JSON.stringify(reset.json)).toBe(200);
    const left = await t()
      .services.db.selectFrom('passkey_credentials')
      .select('id')
      .where('user_id', '=', id)
      .execute();
    expect(left).toEqual([]);
    expect(await kinds()).toContain('factor-removed');
    const status = await browser.fetch(`${origin}${apiPaths.mfa.status}`);
    expect(((await status.json()) as { passkeysHere: boolean }).passkeysHere).toBe(false);
  });
});

describe('passkey sign-in limits', () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await oneInstance('sqlite', { env: { LOGIN_IP_LIMIT_PER_MINUTE: '2' } });
  });
  afterAll(() => cluster.close());

  it('counts options and assertions per client address: twice the password rate, then 429', async () => {
    const origin = cluster.origin('grand-hotel');
    const browser = new Browser();
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await post(browser, origin, apiPaths.passkeys.signInOptions));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 429]);
    expect(answers[4]?.json).toMatchObject({
      code: 'passkey.rate_limited',
      fields: { retryAfterSeconds: expect.stringMatching(/^[1-9]\d*$/) },
    });
    // Another tenant's budget is its own.
    expect((await post(browser, cluster.origin('seaside'), apiPaths.passkeys.signInOptions)).status).toBe(
      200,
    );
  });
});
