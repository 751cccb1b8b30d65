import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY } from '../../platform/shared/clock.ts';
import { issueToken } from '../../platform/shared/one-time-token.ts';
import { buildTestApp, call, demo, engines, signIn, type TestApp } from '../../test/helper.ts';
import { inviteUser } from './invitation.service.ts';
import { lastMailTo, linkIn, mailsTo, tenantOf, tokenIn, uniqueEmail } from './test-support.ts';
import { findUserByEmail } from './user.repository.ts';

const newPassword = 'Harbour-lights-42';
const draft = { password: newPassword, secretQuestion: 'first-pet-name', secretAnswer: '  Rex  ' };

describe.each(engines)('invitation and activation API on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(engine);
  });
  afterAll(() => t.close());

  async function invite(email = uniqueEmail('invitee'), locale: 'en' | 'de' = 'en') {
    const tenant = await tenantOf(t);
    await inviteUser(t.services, tenant, { email, type: 'property', locale }, t.clock.now());
    return { email, token: tokenIn(await lastMailTo(t, email, 'account.activation')) };
  }

  it('invites: a pending account and one activation mail on the tenant domain, in the user language', async () => {
    const email = uniqueEmail('invited');
    const { token } = await invite(email, 'de');
    const user = await findUserByEmail(t.services.db, 'grand-hotel', email);
    expect(user).toMatchObject({ status: 'pending', type: 'property', locale: 'de', password_hash: null });
    const mails = await mailsTo(t, email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Aktivieren Sie Ihr Konto bei Grand Hotel Group');
    const link = linkIn(mails[0]!);
    expect(link.origin).toBe('http://grand-hotel.localhost:3000');
    expect(link.pathname).toBe('/activate/');
    expect(link.searchParams.get('langCode')).toBe('de');
    expect(token.length).toBeGreaterThanOrEqual(43);
    // Only the hash of the token is stored.
    const stored = await t.services.db.selectFrom('one_time_tokens').select('id').execute();
    expect(stored.map((row) => row.id)).not.toContain(token);
  });

  it('validates a link before the form: the e-mail for a good one, coded errors otherwise', async () => {
    const { email, token } = await invite();
    const ok = await call(t.app, 'POST', '/api/user/validate-token', { body: { token } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ email });
    expect(ok.headers['cache-control']).toBe('no-store');

    const unknown = await call(t.app, 'POST', '/api/user/validate-token', {
      body: { token: 'x'.repeat(43) },
    });
    expect(unknown.statusCode).toBe(409);
    expect(unknown.json().code).toBe('activate.token_invalid');

    // The same link on another tenant's domain is unknown there.
    const otherTenant = await call(t.app, 'POST', '/api/user/validate-token', {
      host: demo.seaside.host,
      body: { token },
    });
    expect(otherTenant.statusCode).toBe(409);

    // Validating does not use the link up.
    expect((await call(t.app, 'POST', '/api/user/validate-token', { body: { token } })).statusCode).toBe(200);
  });

  it('answers 410 token_expired after seven days', async () => {
    const { token } = await invite();
    t.clock.advance(7 * DAY + 1000);
    try {
      const validate = await call(t.app, 'POST', '/api/user/validate-token', { body: { token } });
      expect(validate.statusCode).toBe(410);
      expect(validate.json().code).toBe('activate.token_expired');
      const activate = await call(t.app, 'POST', '/api/user/activate', { body: { token, ...draft } });
      expect(activate.statusCode).toBe(410);
    } finally {
      t.clock.advance(-(7 * DAY + 1000));
    }
  });

  it('refuses a token of another purpose', async () => {
    const { email } = await invite();
    const user = (await findUserByEmail(t.services.db, 'grand-hotel', email))!;
    const resetToken = await issueToken(
      t.services.db,
      { tenantCode: 'grand-hotel', userId: user.id, purpose: 'RESET', ttlMs: DAY },
      t.clock.now(),
    );
    const response = await call(t.app, 'POST', '/api/user/activate', {
      body: { token: resetToken, ...draft },
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().code).toBe('activate.token_invalid');
    expect((await findUserByEmail(t.services.db, 'grand-hotel', email))!.status).toBe('pending');
  });

  it('activates: password and hashed secret answer set, the address verified, the user can sign in', async () => {
    const { email, token } = await invite();
    const response = await call(t.app, 'POST', '/api/user/activate', { body: { token, ...draft } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ email });
    const user = (await findUserByEmail(t.services.db, 'grand-hotel', email))!;
    expect(user).toMatchObject({ status: 'active', secret_question: 'first-pet-name', email_verified: 1 });
    expect(user.secret_answer_hash).toMatch(/^\$argon2id\$/);
    expect(user.secret_answer_hash).not.toContain('rex');
    expect(user.password_hash).toMatch(/^\$argon2id\$/);
    const { identity } = await signIn(t.app, { ...demo.grandHotel, email }, newPassword);
    expect(identity).toMatchObject({ email, state: 'AUTHENTICATED', emailVerificationRequired: false });
  });

  it('uses a link once: a replay answers 409, and of two concurrent submissions only one wins', async () => {
    const { token } = await invite();
    const first = await call(t.app, 'POST', '/api/user/activate', { body: { token, ...draft } });
    expect(first.statusCode).toBe(200);
    const replay = await call(t.app, 'POST', '/api/user/activate', { body: { token, ...draft } });
    expect(replay.statusCode).toBe(409);
    expect(replay.json().code).toBe('activate.token_invalid');

    const second = await invite();
    const racing = await Promise.all(
      [0, 1, 2].map(() =>
        call(t.app, 'POST', '/api/user/activate', { body: { token: second.token, ...draft } }),
      ),
    );
    expect(racing.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
  });

  it.each([
    ['no body', undefined],
    ['a missing token', { ...draft }],
    ['a password without a digit', { ...draft, token: 'x', password: 'Harbour-lights' }],
    ['a password without an upper-case letter', { ...draft, token: 'x', password: 'harbour-lights-1' }],
    ['a password under 8 characters', { ...draft, token: 'x', password: 'Ab1' }],
    ['a password over 2048 characters', { ...draft, token: 'x', password: `Aa1${'x'.repeat(2046)}` }],
    ['an unknown secret question', { ...draft, token: 'x', secretQuestion: 'favourite-colour' }],
    ['an empty secret answer', { ...draft, token: 'x', secretAnswer: '   ' }],
    ['a token over 256 characters', { ...draft, token: 'x'.repeat(257) }],
    ['a number for the password', { ...draft, token: 'x', password: 12345678 }],
  ])('answers 400 validation_failed for %s', async (_name, body) => {
    const response = await call(t.app, 'POST', '/api/user/activate', body === undefined ? {} : { body });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('common.validation_failed');
  });

  it('names the password field when its format is wrong', async () => {
    const response = await call(t.app, 'POST', '/api/user/activate', {
      body: { ...draft, token: 'x', password: 'short' },
    });
    expect(response.json().fields).toHaveProperty('password');
  });

  it('refuses a leaked password with a coded error, and the link stays usable', async () => {
    const { token } = await invite();
    const leaked = await call(t.app, 'POST', '/api/user/activate', {
      body: { ...draft, token, password: 'Password1' },
    });
    expect(leaked.statusCode).toBe(400);
    expect(leaked.json().code).toBe('password.leaked');
    expect((await call(t.app, 'POST', '/api/user/activate', { body: { token, ...draft } })).statusCode).toBe(
      200,
    );
  });

  it('answers 400 for malformed JSON and 415 for a form body', async () => {
    const malformed = await call(t.app, 'POST', '/api/user/activate', { body: '{"token":' });
    expect(malformed.statusCode).toBe(400);
    const form = await call(t.app, 'POST', '/api/user/activate', {
      body: 'token=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.statusCode).toBe(415);
  });

  it('refuses cross-site calls before doing any work', async () => {
    const { email, token } = await invite();
    for (const [url, body] of [
      ['/api/user/activate', { token, ...draft }],
      ['/api/user/validate-token', { token }],
      [`/api/user/${encodeURIComponent(email)}/resend-activation`, {}],
    ] as const) {
      const evil = await call(t.app, 'POST', url, { body, origin: 'https://evil.example' });
      expect(evil.statusCode, url).toBe(403);
      expect(evil.json().code).toBe('common.forbidden_origin');
      const otherTenant = await call(t.app, 'POST', url, { body, origin: 'http://seaside.localhost:3000' });
      expect(otherTenant.statusCode, url).toBe(403);
    }
    expect((await findUserByEmail(t.services.db, 'grand-hotel', email))!.status).toBe('pending');
    expect(await mailsTo(t, email)).toHaveLength(1);
  });

  it('resends activation to a pending account (the old link stops working), and answers the same for others', async () => {
    const { email, token } = await invite();
    const resend = await call(t.app, 'POST', `/api/user/${encodeURIComponent(email)}/resend-activation`, {
      body: {},
    });
    expect(resend.statusCode).toBe(200);
    expect(resend.json()).toEqual({});
    const mails = await mailsTo(t, email);
    expect(mails).toHaveLength(2);
    const newToken = tokenIn(mails[0]!);
    expect(newToken).not.toBe(token);
    expect((await call(t.app, 'POST', '/api/user/validate-token', { body: { token } })).statusCode).toBe(409);
    expect(
      (await call(t.app, 'POST', '/api/user/validate-token', { body: { token: newToken } })).statusCode,
    ).toBe(200);

    for (const other of ['nobody@grand-hotel.test', demo.grandHotel.email]) {
      const answer = await call(t.app, 'POST', `/api/user/${encodeURIComponent(other)}/resend-activation`);
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toEqual({});
      expect(await mailsTo(t, other)).toHaveLength(0);
    }
  });

  it('answers 400 for an address that is not an e-mail in the path', async () => {
    const response = await call(t.app, 'POST', '/api/user/not-an-email/resend-activation', { body: {} });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('common.validation_failed');
  });

  it('refuses to invite an address that already has an active account', async () => {
    const tenant = await tenantOf(t);
    await expect(
      inviteUser(
        t.services,
        tenant,
        { email: demo.grandHotel.email, type: 'staff', locale: 'en' },
        t.clock.now(),
      ),
    ).rejects.toMatchObject({ code: 'invite.account_exists' });
  });
});
