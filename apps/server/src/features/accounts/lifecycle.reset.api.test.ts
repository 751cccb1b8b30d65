import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY } from '../../platform/shared/clock.ts';
import { issueToken } from '../../platform/shared/one-time-token.ts';
import { buildTestApp, call, demo, engines, signIn, type TestApp } from '../../test/helper.ts';
import { inviteUser } from './invitation.service.ts';
import { mailRequestFloorMs } from './password-reset.service.ts';
import { activeUser, lastMailTo, linkIn, mailsTo, tenantOf, tokenIn, uniqueEmail } from './test-support.ts';
import { findUserByEmail } from './user.repository.ts';

const oldPassword = 'Anchor-bay-2020';
const state = 'state-0123456789abcdef';

describe.each(engines)('password reset API on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    // A generous login limit: these tests sign in many times from one address.
    t = await buildTestApp(engine, {
      env: { LOGIN_IP_LIMIT_PER_MINUTE: '10000', LOGIN_MAX_FAILURES: '3', TRUST_PROXY: 'true' },
    });
  });
  afterAll(() => t.close());

  const resetPath = (email: string) => `/api/user/${encodeURIComponent(email)}/reset-password`;
  // Each test speaks from its own client address, so the per-address limit stays out of the way.
  let ip = 0;
  const fromNewIp = () => ({ 'x-forwarded-for': `10.0.0.${++ip}` });

  async function requestReset(email: string, headers: Record<string, string> = fromNewIp()) {
    return call(t.app, 'POST', resetPath(email), { body: {}, headers });
  }

  async function userWithResetLink(prefix = 'resetter') {
    const email = uniqueEmail(prefix);
    await activeUser(t, email, oldPassword);
    const response = await requestReset(email);
    expect(response.json()).toEqual({ state: 'reset' });
    return { email, token: tokenIn(await lastMailTo(t, email, 'account.reset')) };
  }

  const applyReset = (token: string, password: string, options: Parameters<typeof call>[3] = {}) =>
    call(t.app, 'PATCH', '/api/user', { body: { token, password }, ...options });

  it('mails an active account a reset link to the update page on the tenant domain', async () => {
    const { email } = await userWithResetLink();
    const mail = await lastMailTo(t, email);
    expect(mail.subject).toBe('Reset your Grand Hotel Group password');
    const link = linkIn(mail);
    expect(link.origin).toBe('http://grand-hotel.localhost:3000');
    expect(link.pathname).toBe('/reset-password/update');
    expect(link.searchParams.get('email')).toBe(email);
    expect(mail.text).toContain('60 minutes');
  });

  it("sends a pending account its activation mail again and answers 'activate'", async () => {
    const email = uniqueEmail('pending');
    await inviteUser(t.services, await tenantOf(t), { email, type: 'staff', locale: 'en' }, t.clock.now());
    const response = await requestReset(email);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ state: 'activate' });
    const mails = await mailsTo(t, email);
    expect(mails.map((m) => m.template)).toEqual(['account.activation', 'account.activation']);
  });

  it('gives unknown and disabled addresses the same answer as known ones, with no mail and similar timing', async () => {
    const disabled = uniqueEmail('disabled');
    await activeUser(t, disabled, oldPassword);
    await t.services.db
      .updateTable('users')
      .set({ status: 'disabled' })
      .where('email', '=', disabled)
      .execute();
    const known = uniqueEmail('known');
    await activeUser(t, known, oldPassword);
    const unknown = uniqueEmail('ghost');

    const timings: Record<string, number[]> = { known: [], unknown: [] };
    // Five of each (the address's mail limit), interleaved, compared by their medians: one slow
    // moment of a loaded machine moves a median of three, not of five.
    for (let i = 0; i < 5; i++) {
      for (const [label, email] of [
        ['known', known],
        ['unknown', unknown],
      ] as const) {
        const started = performance.now();
        const response = await requestReset(email, fromNewIp());
        timings[label]!.push(performance.now() - started);
        expect(response.statusCode).toBe(200);
        expect(response.json()).toEqual({ state: 'reset' });
      }
    }
    expect((await requestReset(disabled)).json()).toEqual({ state: 'reset' });
    expect(await mailsTo(t, unknown)).toHaveLength(0);
    expect(await mailsTo(t, disabled)).toHaveLength(0);
    expect(await mailsTo(t, known)).toHaveLength(5);

    const median = (values: number[]) => [...values].sort((a, b) => a - b)[2]!;
    expect(median(timings.known!)).toBeGreaterThanOrEqual(mailRequestFloorMs - 5);
    expect(median(timings.unknown!)).toBeGreaterThanOrEqual(mailRequestFloorMs - 5);
    expect(Math.abs(median(timings.known!) - median(timings.unknown!))).toBeLessThan(100);
  });

  it('takes e-mail addresses up to the 254-character maximum in the path', async () => {
    const long = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(50)}.test`;
    expect(long.length).toBeLessThanOrEqual(254);
    const response = await call(t.app, 'POST', resetPath(long), { body: {} });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ state: 'reset' });
    const tooLong = await call(t.app, 'POST', resetPath(`${'a'.repeat(250)}@x.test`), { body: {} });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().code).toBe('common.validation_failed');
  });

  it('validates a reset link for the update page (purpose RESET) without using it', async () => {
    const { email, token } = await userWithResetLink();
    const ok = await call(t.app, 'POST', '/api/user/validate-token', { body: { token, purpose: 'RESET' } });
    expect(ok.json()).toEqual({ email });
    // A reset link is not an activation link.
    const asActivation = await call(t.app, 'POST', '/api/user/validate-token', { body: { token } });
    expect(asActivation.statusCode).toBe(409);
    expect(asActivation.json().code).toBe('activate.token_invalid');
  });

  it('resets: old password refused, new one works, every session ended, the link used up', async () => {
    const { email, token } = await userWithResetLink();
    const account = { ...demo.grandHotel, email };
    const first = await signIn(t.app, account, oldPassword);
    const second = await signIn(t.app, account, oldPassword);

    const response = await applyReset(token, 'Lighthouse-keeper-7', { cookie: first.cookie });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({});

    for (const { cookie } of [first, second]) {
      expect((await call(t.app, 'GET', '/api/session', { cookie })).json()).toEqual({ exists: false });
    }
    const old = await call(t.app, 'POST', '/api/login', { body: { email, password: oldPassword, state } });
    expect(old.statusCode).toBe(401);
    await signIn(t.app, account, 'Lighthouse-keeper-7');

    const replay = await applyReset(token, 'Another-password-8');
    expect(replay.statusCode).toBe(409);
    expect(replay.json().code).toBe('reset.token_not_found');
  });

  it('retires the other reset links of the user once one is used', async () => {
    const { email, token } = await userWithResetLink();
    await requestReset(email);
    const newer = tokenIn(await lastMailTo(t, email, 'account.reset'));
    expect((await applyReset(newer, 'Fresh-start-2025')).statusCode).toBe(200);
    expect((await applyReset(token, 'Fresh-start-2026')).statusCode).toBe(409);
  });

  it('answers 410 after 60 minutes', async () => {
    const { token } = await userWithResetLink();
    t.clock.advance(60 * 60_000 + 1000);
    try {
      const response = await applyReset(token, 'Too-late-for-this-1');
      expect(response.statusCode).toBe(410);
      expect(response.json().code).toBe('reset.token_expired');
    } finally {
      t.clock.advance(-(60 * 60_000 + 1000));
    }
  });

  it("refuses another tenant's link and another purpose's token with 409", async () => {
    const { token } = await userWithResetLink();
    const crossTenant = await applyReset(token, 'Sunny-island-55', { host: demo.seaside.host });
    expect(crossTenant.statusCode).toBe(409);

    const email = uniqueEmail('purpose');
    const user = await activeUser(t, email, oldPassword);
    const verifyToken = await issueToken(
      t.services.db,
      { tenantCode: 'grand-hotel', userId: user.id, purpose: 'VERIFY_EMAIL', ttlMs: DAY, data: { email } },
      t.clock.now(),
    );
    const wrongPurpose = await applyReset(verifyToken, 'Sunny-island-55');
    expect(wrongPurpose.statusCode).toBe(409);
    expect(wrongPurpose.json().code).toBe('reset.token_not_found');
    await signIn(t.app, { ...demo.grandHotel, email }, oldPassword);
  });

  it('refuses the last four passwords and accepts the fifth-last again', async () => {
    const email = uniqueEmail('history');
    await activeUser(t, email, 'History-pass-1');
    const passwords = ['History-pass-1', 'History-pass-2', 'History-pass-3', 'History-pass-4'];
    for (const password of passwords.slice(1)) {
      t.clock.advance(1000);
      await requestReset(email, fromNewIp());
      expect((await applyReset(tokenIn(await lastMailTo(t, email)), password)).statusCode).toBe(200);
    }
    await requestReset(email, fromNewIp());
    const token = tokenIn(await lastMailTo(t, email));
    for (const reused of passwords) {
      const response = await applyReset(token, reused);
      expect(response.statusCode, reused).toBe(400);
      expect(response.json().code).toBe('password.history');
    }
    t.clock.advance(1000);
    expect((await applyReset(token, 'History-pass-5')).statusCode).toBe(200);
    // History-pass-1 is now the fifth-last password: allowed again.
    t.clock.advance(1000);
    await requestReset(email, fromNewIp());
    expect((await applyReset(tokenIn(await lastMailTo(t, email)), 'History-pass-1')).statusCode).toBe(200);
  });

  it('refuses a leaked password and keeps the link usable', async () => {
    const { token } = await userWithResetLink();
    const leaked = await applyReset(token, 'Password123');
    expect(leaked.statusCode).toBe(400);
    expect(leaked.json().code).toBe('password.leaked');
    expect((await applyReset(token, 'Quiet-harbour-9')).statusCode).toBe(200);
  });

  it('lifts the login lockout of the address', async () => {
    const { email, token } = await userWithResetLink();
    for (let i = 0; i < 3; i++) {
      await call(t.app, 'POST', '/api/login', { body: { email, password: `Wrong-${i}-A`, state } });
    }
    const locked = await call(t.app, 'POST', '/api/login', { body: { email, password: oldPassword, state } });
    expect(locked.json().code).toBe('login.too_many_attempts');
    expect((await applyReset(token, 'Unlocked-door-3')).statusCode).toBe(200);
    await signIn(t.app, { ...demo.grandHotel, email }, 'Unlocked-door-3');
  });

  it('limits mail per address silently, and requests per client address with a 429', async () => {
    const email = uniqueEmail('limited');
    await activeUser(t, email, oldPassword);
    for (let i = 0; i < 7; i++) {
      const response = await requestReset(email, fromNewIp());
      expect(response.json()).toEqual({ state: 'reset' });
    }
    expect(await mailsTo(t, email)).toHaveLength(5);

    const crowd = { 'x-forwarded-for': '192.0.2.77' };
    const answers = await Promise.all(
      Array.from({ length: 21 }, async () => (await requestReset(uniqueEmail('crowd'), crowd)).statusCode),
    );
    expect(answers.filter((status) => status === 200)).toHaveLength(20);
    expect(answers.filter((status) => status === 429)).toHaveLength(1);
    const limited = await requestReset(uniqueEmail('crowd'), crowd);
    expect(limited.json().code).toBe('common.rate_limited');
  });

  it.each([
    ['an address that is not an e-mail', '/api/user/not-an-email/reset-password', {}],
    ['a captcha token that is not a string', resetPath('a@grand-hotel.test'), { recaptchaToken: 5 }],
  ])('answers 400 for %s', async (_name, url, body) => {
    const response = await call(t.app, 'POST', url, { body });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('common.validation_failed');
  });

  it.each([
    ['no body', undefined],
    ['a weak password', { token: 'x', password: 'weak' }],
    ['a missing token', { password: 'Strong-enough-1' }],
  ])('answers 400 to PATCH /api/user with %s', async (_name, body) => {
    const response = await call(t.app, 'PATCH', '/api/user', body === undefined ? {} : { body });
    expect(response.statusCode).toBe(400);
  });

  it('refuses cross-site reset requests and updates', async () => {
    const { email, token } = await userWithResetLink();
    const before = (await mailsTo(t, email)).length;
    const request = await call(t.app, 'POST', resetPath(email), { body: {}, origin: 'https://evil.example' });
    expect(request.statusCode).toBe(403);
    const update = await applyReset(token, 'Evil-plan-123', { origin: 'https://evil.example' });
    expect(update.statusCode).toBe(403);
    expect(await mailsTo(t, email)).toHaveLength(before);
    expect((await findUserByEmail(t.services.db, 'grand-hotel', email))!.password_changed_at).not.toBeNull();
    await signIn(t.app, { ...demo.grandHotel, email }, oldPassword);
  });
});
