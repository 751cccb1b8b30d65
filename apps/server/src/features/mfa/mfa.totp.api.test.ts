import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../platform/db/database.ts';
import { buildTestApp, call, engines, type TestApp } from '../../test/helper.ts';
import { findActiveFactor } from '../factors/mfa-policy.ts';
import { checkTotp } from '../factors/totp.service.ts';
import { enrolTotp, mfaCall, newUser, passwordSignIn, startOfWindow, totpAt } from './mfa.test-support.ts';

describe.each(engines)('authenticator app (TOTP) API on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(engine);
  });
  afterAll(() => t.close());

  it('starts registration with a secret, an otpauth URI (issuer = theme name, account = e-mail) and an inline QR code', async () => {
    const who = await newUser(t);
    const { cookie } = await passwordSignIn(t.app, who);
    const response = await mfaCall(t, who, 'POST', '/api/mfa/register-totp', cookie);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(body.otpauthUri);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe(`/Summit:${who.email}`);
    expect(uri.searchParams.get('issuer')).toBe('Summit');
    expect(uri.searchParams.get('secret')).toBe(body.secret);
    expect(body).toMatchObject({ issuer: 'Summit', account: who.email });
    expect(body.qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(body.qrCode.split(',')[1], 'base64').toString()).toContain('<svg');
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('keeps the secret encrypted at rest', async () => {
    const who = await newUser(t);
    const { cookie } = await passwordSignIn(t.app, who);
    const { secret } = (await mfaCall(t, who, 'POST', '/api/mfa/register-totp', cookie)).json();
    const rows = await t.services.db.selectFrom('mfa_factors').selectAll().execute();
    const sealed = rows.map((row) => row.secret_sealed ?? '').join('\n');
    expect(sealed).toContain('v1.');
    expect(sealed).not.toContain(secret);
  });

  it('refuses a wrong first code, then activates with the right one and answers ten recovery codes', async () => {
    const who = await newUser(t);
    const { cookie } = await passwordSignIn(t.app, who);
    const { secret } = (await mfaCall(t, who, 'POST', '/api/mfa/register-totp', cookie)).json();
    const good = await totpAt(secret, t.clock.now());
    const wrong = good === '000000' ? '111111' : '000000';
    const refused = await mfaCall(t, who, 'POST', '/api/mfa/verify', cookie, {
      code: wrong,
      deliveryType: 'totp',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      code: 'mfa.code_invalid',
      message: 'Invalid code. Please try again.',
    });

    const accepted = await mfaCall(t, who, 'POST', '/api/mfa/verify', cookie, {
      code: good,
      deliveryType: 'totp',
    });
    expect(accepted.statusCode).toBe(200);
    const body = accepted.json();
    expect(body.state).toBe('AUTHENTICATED');
    expect(body.recoveryCodes).toHaveLength(10);
    expect(new Set(body.recoveryCodes).size).toBe(10);
    for (const code of body.recoveryCodes) expect(code).toMatch(/^[0-9a-z]{5}-[0-9a-z]{5}$/);
    const status = (await mfaCall(t, who, 'GET', '/api/mfa/status', cookie)).json();
    expect(status).toMatchObject({
      state: 'AUTHENTICATED',
      factor: { deliveryType: 'totp', phone: null },
      recoveryCodesRemaining: 10,
      freshVerification: true,
    });
    expect(
      (await call(t.app, 'POST', '/api/authorize', { host: who.host, cookie, body: {} })).statusCode,
    ).toBe(200);
  });

  it('asks for a code at the next sign-in and accepts the current one and one step either side, not two', async () => {
    const who = await newUser(t);
    const { secret } = await enrolTotp(t, who, (await passwordSignIn(t.app, who)).cookie);
    for (const steps of [0, -1, 1]) {
      t.clock.advance(90_000);
      const next = await passwordSignIn(t.app, who);
      expect(next.identity.state).toBe('MFA_VERIFICATION_REQUIRED');
      const code = await totpAt(secret, t.clock.now(), steps);
      const answer = await mfaCall(t, who, 'POST', '/api/mfa/verify', next.cookie, {
        code,
        deliveryType: 'totp',
      });
      expect(answer.statusCode, `step ${steps}`).toBe(200);
      expect(answer.json()).toMatchObject({ state: 'AUTHENTICATED', recoveryCodes: null });
    }
    for (const steps of [-3, 3]) {
      t.clock.advance(90_000);
      const next = await passwordSignIn(t.app, who);
      const code = await totpAt(secret, t.clock.now(), steps);
      const answer = await mfaCall(t, who, 'POST', '/api/mfa/verify', next.cookie, {
        code,
        deliveryType: 'totp',
      });
      expect(answer.json().code, `step ${steps}`).toBe('mfa.code_invalid');
    }
  });

  it('accepts a code only once: a replay in another session is refused', async () => {
    const who = await newUser(t);
    const { secret } = await enrolTotp(t, who, (await passwordSignIn(t.app, who)).cookie);
    const code = await totpAt(secret, t.clock.now());
    const first = await passwordSignIn(t.app, who);
    expect(
      (await mfaCall(t, who, 'POST', '/api/mfa/verify', first.cookie, { code, deliveryType: 'totp' }))
        .statusCode,
    ).toBe(200);
    const second = await passwordSignIn(t.app, who);
    const replay = await mfaCall(t, who, 'POST', '/api/mfa/verify', second.cookie, {
      code,
      deliveryType: 'totp',
    });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().code).toBe('mfa.code_invalid');
    // An older code (the previous step) is refused after a newer one was used, too.
    const older = await totpAt(secret, t.clock.now(), -1);
    const back = await mfaCall(t, who, 'POST', '/api/mfa/verify', second.cookie, {
      code: older,
      deliveryType: 'totp',
    });
    expect(back.json().code).toBe('mfa.code_invalid');
  });

  it('lets exactly one of two instances accept the same code at the same moment', async () => {
    const who = await newUser(t);
    const { secret } = await enrolTotp(t, who, (await passwordSignIn(t.app, who)).cookie);
    // A second instance: its own connection (pool) to the same database.
    const other = await openDatabase({
      databaseUrl: t.config.databaseUrl,
      sqliteFile: path.join(t.config.dataDir, 'test.sqlite'),
    });
    try {
      const user = await t.services.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', who.email)
        .executeTakeFirstOrThrow();
      const factor = (await findActiveFactor(t.services.db, 'summit', user.id))!;
      const now = t.clock.now();
      const code = await totpAt(secret, now);
      const key = t.services.secrets.encryptionKey;
      const results = await Promise.all([
        checkTotp(t.services.db, key, factor, code, now),
        checkTotp(other.kysely, key, factor, code, now),
        checkTotp(t.services.db, key, factor, code, now),
        checkTotp(other.kysely, key, factor, code, now),
      ]);
      expect(results.filter((r) => r === 'ok')).toHaveLength(1);
      expect(results.filter((r) => r === 'replayed')).toHaveLength(3);
    } finally {
      await other.close();
    }
  });

  it('answers already_enrolled to a second registration, and registration_not_started to a stray code', async () => {
    const enrolled = await newUser(t);
    const { cookie } = await passwordSignIn(t.app, enrolled);
    await enrolTotp(t, enrolled, cookie);
    const again = await mfaCall(t, enrolled, 'POST', '/api/mfa/register-totp', cookie);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('mfa.already_enrolled');

    const fresh = await newUser(t);
    const session = await passwordSignIn(t.app, fresh);
    const stray = await mfaCall(t, fresh, 'POST', '/api/mfa/verify', session.cookie, {
      code: '123456',
      deliveryType: 'totp',
    });
    expect(stray.statusCode).toBe(409);
    expect(stray.json().code).toBe('mfa.registration_not_started');
  });

  it('expires a registration that is not confirmed within 30 minutes', async () => {
    const who = await newUser(t);
    const { cookie } = await passwordSignIn(t.app, who);
    const { secret } = (await mfaCall(t, who, 'POST', '/api/mfa/register-totp', cookie)).json();
    t.clock.advance(31 * 60_000);
    const late = await mfaCall(t, who, 'POST', '/api/mfa/verify', cookie, {
      code: await totpAt(secret, t.clock.now()),
      deliveryType: 'totp',
    });
    expect(late.json().code).toBe('mfa.registration_not_started');
  });

  it('limits guesses: the eleventh wrong code within 15 minutes is rate limited', async () => {
    const who = await newUser(t);
    const { secret } = await enrolTotp(t, who, (await passwordSignIn(t.app, who)).cookie);
    // A new 15-minute window, without the registration's own attempt.
    startOfWindow(t, 15 * 60_000);
    const { cookie } = await passwordSignIn(t.app, who);
    const good = await totpAt(secret, t.clock.now());
    const wrong = String((Number(good) + 500_000) % 1_000_000).padStart(6, '0');
    const codes: string[] = [];
    for (let i = 0; i < 11; i++) {
      codes.push(
        (
          await mfaCall(t, who, 'POST', '/api/mfa/verify', cookie, { code: wrong, deliveryType: 'totp' })
        ).json().code,
      );
    }
    // Nine wrong codes are just wrong; the tenth fills the allowance and locks at once.
    expect(codes).toEqual([...Array(9).fill('mfa.code_invalid'), 'mfa.rate_limited', 'mfa.rate_limited']);
    const limited = await mfaCall(t, who, 'POST', '/api/mfa/verify', cookie, {
      code: good,
      deliveryType: 'totp',
    });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('mfa.rate_limited');
    expect(Number(limited.json().fields.retryAfterSeconds)).toBeGreaterThan(0);
  });

  it('refuses codes that are not exactly six digits', async () => {
    const who = await newUser(t);
    const { cookie } = await passwordSignIn(t.app, who);
    for (const code of ['12345', '1234567', 'abcdef', '12 456', '']) {
      const response = await mfaCall(t, who, 'POST', '/api/mfa/verify', cookie, {
        code,
        deliveryType: 'totp',
      });
      expect(response.statusCode, code).toBe(400);
      expect(response.json().code).toBe('common.validation_failed');
    }
  });
});
