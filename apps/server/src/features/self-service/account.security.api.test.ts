import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  call,
  demo,
  engines,
  sessionCookieOf,
  signIn,
  type TestApp,
} from '../../test/helper.ts';
import {
  activeUser,
  mailsTo,
  refuseMailTo,
  setTenantSettings,
  signInTrail,
  uniqueEmail,
} from '../accounts/test-support.ts';
import {
  enrolTotp,
  mfaCall,
  newUser,
  passwordSignIn,
  summit,
  type TestTenant,
} from '../mfa/mfa.test-support.ts';

/**
 * The account page's trusted browsers, second steps and recent activity, and the security mail
 * of a new browser (docs/account.md).
 */
const chrome =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const grandHotel = { ...demo.grandHotel } as TestTenant;

describe.each(engines)('account security API on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(engine, { env: { LOGIN_IP_LIMIT_PER_MINUTE: '1000' } });
  });
  afterAll(() => t.close());

  /** An account with an authenticator app, signed in with it: answers the cookie too. */
  async function withTotp(tenant: TestTenant = summit) {
    const who = await newUser(t, tenant);
    const { cookie } = await passwordSignIn(t.app, who);
    await enrolTotp(t, who, cookie);
    return { who, cookie };
  }

  async function kinds(cookie: string, host = grandHotel.host): Promise<string[]> {
    const response = await call(t.app, 'GET', '/api/account/activity', { cookie, host });
    return response.json().items.map((item: { kind: string }) => item.kind);
  }

  it('lists trusted browsers, marks this one, and forgets one or all', async () => {
    const { who, cookie } = await withTotp();
    const trust = async (session: string) => {
      const response = await mfaCall(t, who, 'POST', '/api/mfa/user-device-tokens', session, {});
      return response.json().userDeviceToken as string;
    };
    const first = await trust(cookie);
    await trust(cookie);
    const device = `AUTH_X_DEVICE_ID=${first}`;
    const listed = await call(t.app, 'GET', '/api/account/trusted-browsers', {
      host: who.host,
      cookie: `${cookie}; ${device}`,
    });
    const { browsers } = listed.json();
    expect(browsers).toHaveLength(2);
    expect(browsers.filter((b: { current: boolean }) => b.current)).toHaveLength(1);
    expect(listed.body).not.toContain(first);

    const stranger = await withTotp();
    const foreign = await call(t.app, 'DELETE', `/api/account/trusted-browsers/${browsers[0].id}`, {
      host: who.host,
      cookie: stranger.cookie,
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().code).toBe('account.not_found');

    const one = await call(t.app, 'DELETE', `/api/account/trusted-browsers/${browsers[0].id}`, {
      host: who.host,
      cookie,
    });
    expect(one.statusCode).toBe(204);
    const all = await call(t.app, 'DELETE', '/api/account/trusted-browsers', { host: who.host, cookie });
    expect(all.json()).toEqual({ forgotten: 1 });
    const after = await call(t.app, 'GET', '/api/account/trusted-browsers', { host: who.host, cookie });
    expect(after.json()).toEqual({ browsers: [] });
  });

  it('removes a second step where the tenant allows it, and mails the owner', async () => {
    const { who, cookie } = await withTotp(grandHotel);
    const overview = await call(t.app, 'GET', '/api/account', { host: who.host, cookie });
    const [factor] = overview.json().mfa.factors;
    expect(factor).toMatchObject({ kind: 'authenticator-app', deliveryType: 'totp', canRemove: true });

    const stranger = await withTotp(grandHotel);
    const notTheirs = await call(t.app, 'DELETE', `/api/account/factors/${factor.id}`, {
      host: who.host,
      cookie: stranger.cookie,
    });
    expect(notTheirs.json().code).toBe('account.not_found');

    const removed = await call(t.app, 'DELETE', `/api/account/factors/${factor.id}`, {
      host: who.host,
      cookie,
      headers: { 'user-agent': chrome },
    });
    expect(removed.statusCode).toBe(204);
    const after = (await call(t.app, 'GET', '/api/account', { host: who.host, cookie })).json();
    expect(after.mfa).toMatchObject({ factors: [], canAdd: false, recoveryCodesRemaining: 0 });
    const mail = (await mailsTo(t, who.email)).find((m) => m.template === 'security.factor-removed');
    expect(mail?.text).toContain('authenticator app');
    expect(mail?.text).toContain('Chrome on macOS');
    expect(await kinds(cookie)).toContain('factor-removed');
  });

  it('keeps the last second step of a tenant that requires one, unless a passkey stands in', async () => {
    const { who, cookie } = await withTotp(summit);
    const [factor] = (await call(t.app, 'GET', '/api/account', { host: who.host, cookie })).json().mfa
      .factors;
    expect(factor.canRemove).toBe(false);
    const refused = await call(t.app, 'DELETE', `/api/account/factors/${factor.id}`, {
      host: who.host,
      cookie,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('account.factor_required');

    const user = await t.services.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', who.email)
      .executeTakeFirstOrThrow();
    await t.services.db
      .insertInto('passkey_credentials')
      .values({
        id: randomUUID(),
        tenant_code: 'summit',
        user_id: user.id,
        credential_id: randomUUID(),
        public_key: 'key',
        counter: 0,
        transports: '[]',
        rp_id: 'summit.localhost',
        aaguid: '00000000-0000-0000-0000-000000000000',
        backup_eligible: 1,
        backed_up: 1,
        name: 'Phone',
        created_at: t.clock.now(),
        last_used_at: null,
      })
      .execute();
    const overview = (await call(t.app, 'GET', '/api/account', { host: who.host, cookie })).json();
    expect(overview.passkeys.count).toBe(1);
    expect(overview.mfa.factors[0].canRemove).toBe(true);
    const removed = await call(t.app, 'DELETE', `/api/account/factors/${factor.id}`, {
      host: who.host,
      cookie,
    });
    expect(removed.statusCode).toBe(204);
  });

  it("records sign-ins and failed ones for the owner's eyes only, newest first, a page at a time", async () => {
    const email = uniqueEmail('activity');
    await activeUser(t, email, demo.password);
    const wrong = await call(t.app, 'POST', '/api/login', {
      body: { email, password: 'Not-the-password-1', state: 'state-0123456789abcdef' },
      headers: { 'user-agent': chrome },
    });
    expect(wrong.json().code).toBe('login.invalid_credentials');
    // An unknown address answers the same, and records nothing anywhere.
    const unknown = await call(t.app, 'POST', '/api/login', {
      body: { email: uniqueEmail('nobody'), password: 'Not-the-password-1', state: 'state-0123456789abcdef' },
    });
    expect(unknown.json()).toEqual(wrong.json());
    t.clock.advance(1000);
    const { cookie } = await signIn(t.app, { ...demo.grandHotel, email });

    // The failed attempt is written after its answer (the answer's timing must not tell).
    await expect.poll(() => kinds(cookie)).toEqual(['sign-in', 'sign-in-failed']);
    const first = await call(t.app, 'GET', '/api/account/activity?limit=1', { cookie });
    expect(first.json().items).toHaveLength(1);
    expect(first.json().items[0]).toMatchObject({ kind: 'sign-in', detail: { method: 'password' } });
    const next = first.json().next as string;
    const second = await call(
      t.app,
      'GET',
      `/api/account/activity?limit=1&cursor=${encodeURIComponent(next)}`,
      {
        cookie,
      },
    );
    expect(second.json()).toMatchObject({
      items: [{ kind: 'sign-in-failed', browser: { name: 'Chrome', os: 'macOS' }, ip: '127.0.0.1' }],
      next: null,
    });

    const stranger = await signIn(t.app, { ...demo.grandHotel, email: await newEmail() });
    expect(await kinds(stranger.cookie)).toEqual(['sign-in']);

    // Thirty days later it is gone.
    t.clock.advance(30 * 86_400_000);
    const later = await signIn(t.app, { ...demo.grandHotel, email });
    expect(await kinds(later.cookie)).toEqual(['sign-in']);
  });

  async function newEmail(): Promise<string> {
    const email = uniqueEmail('other');
    await activeUser(t, email, demo.password);
    return email;
  }

  it('mails the owner when a browser it has never seen signs in, where the tenant asks', async () => {
    await setTenantSettings(t, { securityMail: { newBrowserSignIn: true } });
    try {
      const email = await newEmail();
      const login = async (browserCookie?: string) => {
        const response = await call(t.app, 'POST', '/api/login', {
          body: { email, password: demo.password, state: 'state-0123456789abcdef' },
          headers: { 'user-agent': chrome },
          ...(browserCookie ? { cookie: browserCookie } : {}),
        });
        const authenticate = await call(t.app, 'POST', '/api/authenticate', {
          body: { code: response.json().code, tenantCode: 'grand-hotel' },
        });
        expect(sessionCookieOf(authenticate)).toBeDefined();
        const known = authenticate.cookies.find((c) => c.name === 'AUTH_X_BROWSER');
        return known ? `AUTH_X_BROWSER=${known.value}` : browserCookie;
      };
      const newBrowserMails = async () =>
        (await mailsTo(t, email)).filter((m) => m.template === 'security.new-browser-sign-in');

      // The account's first browser is no news.
      const known = await login();
      expect(await newBrowserMails()).toHaveLength(0);
      await login(known);
      expect(await newBrowserMails()).toHaveLength(0);
      await login();
      const [mail] = await newBrowserMails();
      expect(mail?.subject).toBe('New sign-in to your Grand Hotel Group account');
      expect(mail?.text).toContain('Chrome on macOS');
      expect(mail?.text).toContain('/reset-password/?email=');
    } finally {
      await setTenantSettings(t, {});
    }
  });

  it('commits the sign-in and its new-browser mail together: no mail, no sign-in', async () => {
    await setTenantSettings(t, { securityMail: { newBrowserSignIn: true } });
    const email = await newEmail();
    const login = () =>
      call(t.app, 'POST', '/api/login', {
        body: { email, password: demo.password, state: 'state-0123456789abcdef' },
        headers: { 'user-agent': chrome },
      });
    const written = () => signInTrail(t, email);
    // The account's first browser signs in (no news), so the next new one gets a mail.
    const first = await login();
    const authenticate = await call(t.app, 'POST', '/api/authenticate', {
      body: { code: first.json().code, tenantCode: 'grand-hotel' },
    });
    expect(sessionCookieOf(authenticate)).toBeDefined();
    const before = await written();
    expect(before).toMatchObject({ signIns: 1, mails: 0 });
    // An outbox that refuses this account's mail: the database failing at the password step's
    // last write. Nothing of that sign-in stays.
    const allow = await refuseMailTo(t, email);
    try {
      expect((await login()).statusCode).toBe(500);
      expect(await written()).toEqual(before);
    } finally {
      await allow();
    }
    // With the outbox back, the same sign-in writes all three.
    expect((await login()).statusCode).toBe(200);
    expect(await written()).toEqual({ codes: before.codes + 1, signIns: 2, mails: 1 });
    await setTenantSettings(t, {});
  });
});
