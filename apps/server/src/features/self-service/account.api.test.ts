import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, demo, engines, signIn, type TestApp } from '../../test/helper.ts';
import { activeUser, mailsTo, setTenantSettings, uniqueEmail } from '../accounts/test-support.ts';
import { enrolTotp, mfaCall, newUser, passwordSignIn, summit, totpAt } from '../mfa/mfa.test-support.ts';

/**
 * The account page's overview, password change and "confirm it is you" (docs/account.md):
 * only a finished sign-in sees it, every change needs a recent sign-in and the page's own
 * origin, the new password follows the same rules as a reset, and the owner is told.
 */
const firefox = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

describe.each(engines)('account page API on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(engine);
  });
  afterAll(() => t.close());

  const grand = demo.grandHotel;

  /** A fresh grand-hotel account (MFA off), signed in; answers its address and cookie. */
  async function account(locale: 'en' | 'de' | 'th' = 'en') {
    const email = uniqueEmail('account');
    await activeUser(t, email, demo.password, { locale });
    const { cookie } = await signIn(t.app, { ...grand, email });
    return { email, cookie };
  }

  function changePassword(cookie: string, currentPassword: string, newPassword: string, origin?: string) {
    return call(t.app, 'POST', '/api/account/password', {
      cookie,
      body: { currentPassword, newPassword },
      headers: { 'user-agent': firefox },
      ...(origin ? { origin } : {}),
    });
  }

  it('shows a signed-in account its overview, and nothing without a session', async () => {
    const { email, cookie } = await account();
    const overview = await call(t.app, 'GET', '/api/account', { cookie });
    expect(overview.statusCode).toBe(200);
    const body = overview.json();
    expect(body).toMatchObject({
      email,
      locale: 'en',
      signInMethod: 'password',
      password: { set: true, expiryDays: null, expiresAt: null },
      mfa: { mode: 'off', factors: [], recoveryCodesRemaining: 0 },
      passkeys: { count: 0, mode: 'offered' },
    });
    expect(body.recentSignIn.recent).toBe(true);
    expect(body.recentSignIn.until).toBeGreaterThan(t.clock.now());
    expect(body.recentSignIn.until).toBeLessThanOrEqual(t.clock.now() + 5 * 60_000);

    const anonymous = await call(t.app, 'GET', '/api/account');
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().code).toBe('session.required');
    // Another tenant's host does not know this session.
    const elsewhere = await call(t.app, 'GET', '/api/account', { cookie, host: demo.seaside.host });
    expect(elsewhere.statusCode).toBe(401);
  });

  it('shows nothing to a session that still owes its second step', async () => {
    const who = await newUser(t, summit);
    const first = await passwordSignIn(t.app, who);
    await enrolTotp(t, who, first.cookie);
    const pending = await passwordSignIn(t.app, who);
    expect(pending.identity.state).toBe('MFA_VERIFICATION_REQUIRED');
    for (const [method, url, body] of [
      ['GET', '/api/account', undefined],
      ['GET', '/api/account/sessions', undefined],
      ['GET', '/api/account/activity', undefined],
      ['DELETE', '/api/account/sessions', undefined],
      ['POST', '/api/account/password', { currentPassword: demo.password, newPassword: 'Another-pass-42' }],
    ] as const) {
      const response = await call(t.app, method, url, { host: who.host, cookie: pending.cookie, body });
      expect(response.statusCode, url).toBe(403);
      expect(response.json().code, url).toBe('session.incomplete');
    }
  });

  it('changes the password, keeps this session, ends the others and tells the owner in their language', async () => {
    const { email, cookie } = await account('de');
    const other = await signIn(t.app, { ...grand, email });
    const changed = await changePassword(cookie, demo.password, 'Neues-Passwort-2026');
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toEqual({ changedAt: expect.any(Number), endedSessions: 1 });

    expect((await call(t.app, 'GET', '/api/account', { cookie })).statusCode).toBe(200);
    expect((await call(t.app, 'GET', '/api/session', { cookie: other.cookie })).json()).toEqual({
      exists: false,
    });
    await expect(signIn(t.app, { ...grand, email })).rejects.toThrow(/login failed: 401/);
    await signIn(t.app, { ...grand, email }, 'Neues-Passwort-2026');

    const [mail] = (await mailsTo(t, email)).filter((m) => m.template === 'security.password-changed');
    expect(mail?.subject).toBe('Ihr Passwort für Grand Hotel Group wurde geändert');
    expect(mail?.text).toContain('Firefox unter Windows');
    expect(mail?.html).toContain('lang="de"');
    const links = [...(mail?.text ?? '').matchAll(/https?:\/\/\S+/g)].map((match) => new URL(match[0]));
    expect(links.map((link) => `${link.host}${link.pathname}`)).toEqual([
      'grand-hotel.localhost:3000/reset-password/',
      'grand-hotel.localhost:3000/account',
    ]);
    // "This was not me" opens the reset request for the address: no token, nothing signs in.
    expect(links[0]?.searchParams.get('email')).toBe(email);
    expect(links[0]?.searchParams.get('langCode')).toBe('de');
    expect(links[0]?.searchParams.has('token')).toBe(false);
    expect(links[1]?.searchParams.get('langCode')).toBe('de');

    const activity = await call(t.app, 'GET', '/api/account/activity', { cookie });
    expect(activity.json().items.map((item: { kind: string }) => item.kind)).toContain('password-changed');
  });

  it('refuses a wrong current password, counting it against the lockout', async () => {
    const { email, cookie } = await account();
    for (let i = 0; i < t.config.login.maxFailures - 1; i++) {
      const wrong = await changePassword(cookie, 'Not-the-password-1', 'Another-pass-42');
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().code).toBe('account.current_password_invalid');
    }
    const locked = await changePassword(cookie, 'Not-the-password-1', 'Another-pass-42');
    expect(locked.statusCode).toBe(429);
    expect(locked.json().code).toBe('login.too_many_attempts');
    // The same lock the sign-in page of an unknown browser meets.
    const login = await call(t.app, 'POST', '/api/login', {
      body: { email, password: demo.password, state: 'state-0123456789abcdef' },
    });
    expect(login.json().code).toBe('login.too_many_attempts');
    expect((await mailsTo(t, email)).length).toBe(0);
  });

  it('holds a new password to the rules of a reset: format, leak list and history', async () => {
    const { cookie } = await account();
    const weak = await changePassword(cookie, demo.password, 'short');
    expect(weak.statusCode).toBe(400);
    expect(weak.json().code).toBe('common.validation_failed');
    const same = await changePassword(cookie, demo.password, demo.password);
    expect(same.json().code).toBe('password.history');
    const leaked = await changePassword(cookie, demo.password, 'Password1');
    expect(leaked.json().code).toBe('password.leaked');
    expect((await changePassword(cookie, demo.password, 'First-change-1')).statusCode).toBe(200);
    expect((await changePassword(cookie, 'First-change-1', 'Second-change-2')).statusCode).toBe(200);
    // The first password is still one of the last four.
    expect((await changePassword(cookie, 'Second-change-2', demo.password)).json().code).toBe(
      'password.history',
    );
  });

  it('refuses a change from another origin', async () => {
    const { cookie } = await account();
    const forged = await changePassword(cookie, demo.password, 'Another-pass-42', 'https://evil.example');
    expect(forged.statusCode).toBe(403);
    expect(forged.json().code).toBe('common.forbidden_origin');
    for (const [method, url] of [
      ['DELETE', '/api/account/sessions'],
      ['DELETE', '/api/account/trusted-browsers'],
      ['POST', '/api/account/reauthenticate'],
    ] as const) {
      const response = await call(t.app, method, url, {
        cookie,
        origin: 'https://evil.example',
        ...(method === 'POST' ? { body: { password: demo.password } } : {}),
      });
      expect(response.statusCode, url).toBe(403);
    }
  });

  it('asks for a recent sign-in after five minutes, and takes the password again for it', async () => {
    const { cookie } = await account();
    t.clock.advance(5 * 60_000 + 1);
    const overview = await call(t.app, 'GET', '/api/account', { cookie });
    expect(overview.json().recentSignIn).toEqual({ recent: false, until: null });
    const stale = await changePassword(cookie, demo.password, 'Another-pass-42');
    expect(stale.statusCode).toBe(401);
    expect(stale.json().code).toBe('account.recent_sign_in_required');
    const endAll = await call(t.app, 'DELETE', '/api/account/sessions', { cookie });
    expect(endAll.json().code).toBe('account.recent_sign_in_required');

    const wrong = await call(t.app, 'POST', '/api/account/reauthenticate', {
      cookie,
      body: { password: 'Not-the-password-1' },
    });
    expect(wrong.json().code).toBe('account.current_password_invalid');
    const proven = await call(t.app, 'POST', '/api/account/reauthenticate', {
      cookie,
      body: { password: demo.password },
    });
    expect(proven.statusCode).toBe(200);
    expect(proven.json()).toEqual({
      recentSignIn: { recent: true, until: expect.any(Number) },
      factorRequired: false,
    });
    expect((await changePassword(cookie, demo.password, 'Another-pass-42')).statusCode).toBe(200);
  });

  it('wants the factor too after the password, for an account that has one', async () => {
    const who = await newUser(t, summit);
    const { cookie } = await passwordSignIn(t.app, who);
    const { secret } = await enrolTotp(t, who, cookie);
    t.clock.advance(5 * 60_000);
    const proven = await call(t.app, 'POST', '/api/account/reauthenticate', {
      host: who.host,
      cookie,
      body: { password: demo.password },
    });
    expect(proven.json()).toEqual({ recentSignIn: { recent: false, until: null }, factorRequired: true });
    const verify = await mfaCall(t, who, 'POST', '/api/mfa/verify', cookie, {
      code: await totpAt(secret, t.clock.now()),
      deliveryType: 'totp',
    });
    expect(verify.statusCode).toBe(200);
    const overview = await call(t.app, 'GET', '/api/account', { host: who.host, cookie });
    expect(overview.json().recentSignIn.recent).toBe(true);
  });

  it('lets an expired password be changed in place, and nothing else', async () => {
    const email = uniqueEmail('expired');
    await activeUser(t, email, demo.password, { locale: 'th' });
    await setTenantSettings(t, { passwordExpiryDays: 90 });
    try {
      await t.services.db
        .updateTable('users')
        .set({ password_changed_at: t.clock.now() - 100 * 86_400_000 })
        .where('email', '=', email)
        .execute();
      const { cookie, identity } = await signIn(t.app, { ...grand, email });
      expect(identity.state).toBe('PASSWORD_EXPIRED');
      expect((await call(t.app, 'GET', '/api/account', { cookie })).json().code).toBe('session.incomplete');
      const changed = await changePassword(cookie, demo.password, 'Fresh-password-90');
      expect(changed.statusCode).toBe(200);
      const session = await call(t.app, 'GET', '/api/session', { cookie });
      expect(session.json().identity.state).toBe('AUTHENTICATED');
      const mail = (await mailsTo(t, email)).find((m) => m.template === 'security.password-changed');
      expect(mail?.subject).toBe('รหัสผ่าน Grand Hotel Group ของคุณถูกเปลี่ยนแล้ว');
    } finally {
      await setTenantSettings(t, {});
    }
  });
});
