import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY } from '../../platform/shared/clock.ts';
import { issueToken } from '../../platform/shared/one-time-token.ts';
import { buildTestApp, call, demo, engines, signIn, type TestApp } from '../../test/helper.ts';
import { activeUser, lastMailTo, linkIn, mailsTo, tokenIn, uniqueEmail } from './test-support.ts';

const password = 'Verify-me-please-1';

describe.each(engines)('e-mail verification API on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(engine, { env: { LOGIN_IP_LIMIT_PER_MINUTE: '10000' } });
  });
  afterAll(() => t.close());

  const sendPath = (email: string) => `/api/user/${encodeURIComponent(email)}/send-verification`;

  /** A signed-in user whose address still needs verifying. */
  async function unverifiedUser(locale: 'en' | 'th' = 'en') {
    const email = uniqueEmail('unverified');
    await activeUser(t, email, password, { emailVerificationRequired: true, locale });
    const { cookie, identity } = await signIn(t.app, { ...demo.grandHotel, email }, password);
    return { email, cookie, identity };
  }

  async function verificationLink(locale: 'en' | 'th' = 'en') {
    const user = await unverifiedUser(locale);
    const response = await call(t.app, 'POST', sendPath(user.email), { cookie: user.cookie });
    expect(response.statusCode).toBe(200);
    return { ...user, token: tokenIn(await lastMailTo(t, user.email, 'account.verify-email')) };
  }

  it('keeps a session that needs verification away from apps until the address is verified', async () => {
    const { identity, cookie, email, token } = await verificationLink();
    expect(identity.emailVerificationRequired).toBe(true);
    const blocked = await call(t.app, 'POST', '/api/authorize', { cookie, body: {} });
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json().code).toBe('session.incomplete');

    const verified = await call(t.app, 'PATCH', '/api/verify-email', { body: { email, token } });
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toEqual({ homepageUrl: 'http://grand-hotel.localhost:3000/authenticated' });
    const session = await call(t.app, 'GET', '/api/session', { cookie });
    expect(session.json().identity.emailVerificationRequired).toBe(false);
    expect((await call(t.app, 'POST', '/api/authorize', { cookie, body: {} })).statusCode).toBe(200);
  });

  it('mails a verification link valid for 24 hours, in the user language, on the tenant domain', async () => {
    const { email } = await verificationLink('th');
    const mail = await lastMailTo(t, email);
    expect(mail.subject).toBe('ยืนยันที่อยู่อีเมลของคุณสำหรับ Grand Hotel Group');
    expect(mail.html).toContain('lang="th"');
    const link = linkIn(mail);
    expect(link.origin).toBe('http://grand-hotel.localhost:3000');
    expect(link.pathname).toBe('/verify-email/');
    expect(mail.text).toContain('24');
  });

  it('needs a session, and only for the session’s own address', async () => {
    const { email, cookie } = await unverifiedUser();
    const anonymous = await call(t.app, 'POST', sendPath(email));
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().code).toBe('session.required');
    const someoneElse = await call(t.app, 'POST', sendPath(demo.grandHotel.email), { cookie });
    expect(someoneElse.statusCode).toBe(403);
    expect(someoneElse.json().code).toBe('verify.not_session_email');
    expect(await mailsTo(t, demo.grandHotel.email)).toHaveLength(0);
    // A session of another tenant is no session here.
    const seaside = await signIn(t.app, demo.seaside);
    const crossTenant = await call(t.app, 'POST', sendPath(demo.seaside.email), { cookie: seaside.cookie });
    expect(crossTenant.statusCode).toBe(401);
  });

  it('sends nothing for an address that is already verified', async () => {
    const { cookie } = await signIn(t.app);
    const response = await call(t.app, 'POST', sendPath(demo.grandHotel.email), { cookie });
    expect(response.statusCode).toBe(200);
    expect(await mailsTo(t, demo.grandHotel.email)).toHaveLength(0);
  });

  it('validates a link first (403 invalid, 410 expired) without using it', async () => {
    const { token } = await verificationLink();
    for (let i = 0; i < 2; i++) {
      const ok = await call(t.app, 'POST', '/api/validate-email-verification-token', { body: { token } });
      expect(ok.statusCode).toBe(200);
    }
    const unknown = await call(t.app, 'POST', '/api/validate-email-verification-token', {
      body: { token: 'z'.repeat(43) },
    });
    expect(unknown.statusCode).toBe(403);
    expect(unknown.json().code).toBe('verify.token_invalid');
    t.clock.advance(DAY + 1000);
    try {
      const expired = await call(t.app, 'POST', '/api/validate-email-verification-token', {
        body: { token },
      });
      expect(expired.statusCode).toBe(410);
      expect(expired.json().code).toBe('verify.token_expired');
    } finally {
      t.clock.advance(-(DAY + 1000));
    }
  });

  it('answers 400 email_invalid for another address and keeps the link usable', async () => {
    const { email, token } = await verificationLink();
    const wrong = await call(t.app, 'PATCH', '/api/verify-email', {
      body: { email: 'someone.else@grand-hotel.test', token },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe('verify.email_invalid');
    // The address is compared as typed by a person: case and spaces do not matter.
    const right = await call(t.app, 'PATCH', '/api/verify-email', {
      body: { email: ` ${email.toUpperCase()} `, token },
    });
    expect(right.statusCode).toBe(200);
  });

  it('uses a link once', async () => {
    const { email, token } = await verificationLink();
    expect((await call(t.app, 'PATCH', '/api/verify-email', { body: { email, token } })).statusCode).toBe(
      200,
    );
    const replay = await call(t.app, 'PATCH', '/api/verify-email', { body: { email, token } });
    expect(replay.statusCode).toBe(403);
    expect(replay.json().code).toBe('verify.token_invalid');
  });

  it('retires the older link when a new one is sent', async () => {
    const { email, cookie, token } = await verificationLink();
    await call(t.app, 'POST', sendPath(email), { cookie });
    const newer = tokenIn(await lastMailTo(t, email));
    expect((await call(t.app, 'PATCH', '/api/verify-email', { body: { email, token } })).statusCode).toBe(
      403,
    );
    expect(
      (await call(t.app, 'PATCH', '/api/verify-email', { body: { email, token: newer } })).statusCode,
    ).toBe(200);
  });

  it("refuses another tenant's link and another purpose's token", async () => {
    const { email, token } = await verificationLink();
    const crossTenant = await call(t.app, 'PATCH', '/api/verify-email', {
      host: demo.seaside.host,
      body: { email, token },
    });
    expect(crossTenant.statusCode).toBe(403);
    const user = (await t.services.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirst())!;
    const resetToken = await issueToken(
      t.services.db,
      { tenantCode: 'grand-hotel', userId: user.id, purpose: 'RESET', ttlMs: DAY },
      t.clock.now(),
    );
    const wrongPurpose = await call(t.app, 'PATCH', '/api/verify-email', {
      body: { email, token: resetToken },
    });
    expect(wrongPurpose.statusCode).toBe(403);
  });

  it('limits verification mails per account', async () => {
    const { email, cookie } = await unverifiedUser();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await call(t.app, 'POST', sendPath(email), { cookie })).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it.each([
    ['no body', undefined],
    ['an invalid e-mail', { email: 'nope', token: 'x' }],
    ['a missing token', { email: 'a@grand-hotel.test' }],
    ['an over-long token', { email: 'a@grand-hotel.test', token: 'x'.repeat(300) }],
  ])('answers 400 to PATCH /api/verify-email with %s', async (_name, body) => {
    const response = await call(t.app, 'PATCH', '/api/verify-email', body === undefined ? {} : { body });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('common.validation_failed');
  });

  it('refuses cross-site verification calls', async () => {
    const { email, cookie, token } = await verificationLink();
    const send = await call(t.app, 'POST', sendPath(email), { cookie, origin: 'https://evil.example' });
    expect(send.statusCode).toBe(403);
    for (const [method, url, body] of [
      ['POST', '/api/validate-email-verification-token', { token }],
      ['PATCH', '/api/verify-email', { email, token }],
    ] as const) {
      const response = await call(t.app, method, url, { body, origin: 'https://evil.example' });
      expect(response.statusCode, url).toBe(403);
    }
    expect((await call(t.app, 'PATCH', '/api/verify-email', { body: { email, token } })).statusCode).toBe(
      200,
    );
  });
});
