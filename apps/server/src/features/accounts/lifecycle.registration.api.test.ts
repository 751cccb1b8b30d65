import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY } from '../../platform/shared/clock.ts';
import { issueToken } from '../../platform/shared/one-time-token.ts';
import { buildTestApp, call, demo, engines, signIn, type TestApp } from '../../test/helper.ts';
import { createRegistrationLink, inviteUser } from './invitation.service.ts';
import { lastMailTo, setTenantSettings, tenantOf, tokenIn, uniqueEmail } from './test-support.ts';
import { findUserByEmail } from './user.repository.ts';

const draft = { password: 'Sea-breeze-2024', secretQuestion: 'first-school', secretAnswer: 'Hillside' };

describe.each(engines)('registration API on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(engine);
  });
  afterAll(() => t.close());

  async function registrationLink(
    email = uniqueEmail('newcomer'),
    redirectUri?: string,
    code = 'grand-hotel',
  ) {
    const tenant = await tenantOf(t, code);
    const { link } = await createRegistrationLink(
      t.services,
      tenant,
      { email, type: 'partner', locale: 'fr', redirectUri },
      t.clock.now(),
    );
    const url = new URL(link);
    return { email, link: url, token: url.searchParams.get('token')! };
  }

  it('makes a single-use link on the tenant domain, carrying a registered redirect', async () => {
    const { link } = await registrationLink(undefined, 'http://localhost:3001/callback');
    expect(link.origin).toBe('http://grand-hotel.localhost:3000');
    expect(link.pathname).toBe('/register/');
    expect(link.searchParams.get('redirectUri')).toBe('http://localhost:3001/callback');
    expect(link.searchParams.get('langCode')).toBe('fr');
  });

  it('refuses to make a link to an unregistered redirect or for an existing account', async () => {
    await expect(registrationLink(undefined, 'https://evil.example/')).rejects.toMatchObject({
      code: 'redirect.not_allowed',
    });
    await expect(registrationLink(demo.grandHotel.email)).rejects.toMatchObject({
      code: 'register.account_exists',
    });
  });

  it('validates a link (403 when invalid) without using it up', async () => {
    const { email, token } = await registrationLink();
    for (let i = 0; i < 2; i++) {
      const ok = await call(t.app, 'POST', '/api/validate-registration-token', { body: { token } });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toEqual({ email });
    }
    const invalid = await call(t.app, 'POST', '/api/validate-registration-token', {
      body: { token: 'y'.repeat(43) },
    });
    expect(invalid.statusCode).toBe(403);
    expect(invalid.json().code).toBe('register.token_invalid');
  });

  it('registers: an active account of the link address, then the user signs in with that password', async () => {
    const { email, token } = await registrationLink();
    const response = await call(t.app, 'POST', '/api/user/register', { body: { token, ...draft } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ email });
    const user = (await findUserByEmail(t.services.db, 'grand-hotel', email))!;
    expect(user).toMatchObject({ status: 'active', type: 'partner', locale: 'fr', email_verified: 0 });
    expect(user.secret_answer_hash).toMatch(/^\$argon2id\$/);
    const history = await t.services.db
      .selectFrom('password_history')
      .selectAll()
      .where('user_id', '=', user.id)
      .execute();
    expect(history).toHaveLength(1);
    const { identity } = await signIn(t.app, { ...demo.grandHotel, email }, draft.password);
    expect(identity).toMatchObject({ email, emailVerificationRequired: false });
  });

  it('asks new registrations to verify their address when the tenant requires it', async () => {
    await setTenantSettings(t, { emailVerificationRequired: true });
    try {
      const { email, token } = await registrationLink();
      expect(
        (await call(t.app, 'POST', '/api/user/register', { body: { token, ...draft } })).statusCode,
      ).toBe(200);
      const { identity } = await signIn(t.app, { ...demo.grandHotel, email }, draft.password);
      expect(identity.emailVerificationRequired).toBe(true);
    } finally {
      await setTenantSettings(t, {});
    }
  });

  it('uses a link once: a replay answers 403', async () => {
    const { token } = await registrationLink();
    expect((await call(t.app, 'POST', '/api/user/register', { body: { token, ...draft } })).statusCode).toBe(
      200,
    );
    const replay = await call(t.app, 'POST', '/api/user/register', { body: { token, ...draft } });
    expect(replay.statusCode).toBe(403);
    expect(replay.json().code).toBe('register.token_invalid');
    const validate = await call(t.app, 'POST', '/api/validate-registration-token', { body: { token } });
    expect(validate.statusCode).toBe(403);
  });

  it("refuses another tenant's link, another purpose's token and an expired link", async () => {
    const seaside = await registrationLink(uniqueEmail('other', 'seaside.test'), undefined, 'seaside');
    const crossTenant = await call(t.app, 'POST', '/api/user/register', {
      body: { token: seaside.token, ...draft },
    });
    expect(crossTenant.statusCode).toBe(403);
    expect(
      (
        await call(t.app, 'POST', '/api/user/register', {
          host: demo.seaside.host,
          body: { token: seaside.token, ...draft },
        })
      ).statusCode,
    ).toBe(200);

    const invitee = uniqueEmail('invitee');
    await inviteUser(
      t.services,
      await tenantOf(t),
      { email: invitee, type: 'staff', locale: 'en' },
      t.clock.now(),
    );
    const activationToken = tokenIn(await lastMailTo(t, invitee));
    const wrongPurpose = await call(t.app, 'POST', '/api/user/register', {
      body: { token: activationToken, ...draft },
    });
    expect(wrongPurpose.statusCode).toBe(403);

    const stale = await registrationLink();
    t.clock.advance(7 * DAY + 1000);
    try {
      const expired = await call(t.app, 'POST', '/api/user/register', {
        body: { token: stale.token, ...draft },
      });
      expect(expired.statusCode).toBe(403);
      expect(await findUserByEmail(t.services.db, 'grand-hotel', stale.email)).toBeUndefined();
    } finally {
      t.clock.advance(-(7 * DAY + 1000));
    }
  });

  it('answers 409 when the address got an account after the link was made', async () => {
    const { email, token } = await registrationLink();
    await inviteUser(t.services, await tenantOf(t), { email, type: 'staff', locale: 'en' }, t.clock.now());
    const response = await call(t.app, 'POST', '/api/user/register', { body: { token, ...draft } });
    expect(response.statusCode).toBe(409);
    expect(response.json().code).toBe('register.account_exists');
  });

  it('refuses a grant without an address (a forged data row) as an invalid link', async () => {
    const token = await issueToken(
      t.services.db,
      { tenantCode: 'grand-hotel', userId: null, purpose: 'REGISTER', ttlMs: DAY, data: { type: 'staff' } },
      t.clock.now(),
    );
    const response = await call(t.app, 'POST', '/api/validate-registration-token', { body: { token } });
    expect(response.statusCode).toBe(403);
  });

  it('refuses a leaked password and keeps the link', async () => {
    const { token } = await registrationLink();
    const leaked = await call(t.app, 'POST', '/api/user/register', {
      body: { ...draft, token, password: 'Qwerty123' },
    });
    expect(leaked.statusCode).toBe(400);
    expect(leaked.json().code).toBe('password.leaked');
    expect(
      (await call(t.app, 'POST', '/api/validate-registration-token', { body: { token } })).statusCode,
    ).toBe(200);
  });

  it.each([
    ['an empty object', {}],
    ['a weak password', { ...draft, token: 'x', password: 'weakpass' }],
    ['a missing question', { token: 'x', password: draft.password, secretAnswer: 'a' }],
    ['an array', [draft]],
  ])('answers 400 validation_failed for %s', async (_name, body) => {
    const response = await call(t.app, 'POST', '/api/user/register', { body });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('common.validation_failed');
  });

  it('refuses cross-site registration', async () => {
    const { email, token } = await registrationLink();
    for (const url of ['/api/user/register', '/api/validate-registration-token']) {
      const evil = await call(t.app, 'POST', url, {
        body: { token, ...draft },
        origin: 'https://evil.example',
      });
      expect(evil.statusCode, url).toBe(403);
    }
    expect(await findUserByEmail(t.services.db, 'grand-hotel', email)).toBeUndefined();
  });
});
