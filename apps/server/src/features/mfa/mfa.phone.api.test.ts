import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, engines, type TestApp } from '../../test/helper.ts';
import {
  lastPhoneMessage,
  mfaCall,
  newUser,
  passwordSignIn,
  startOfWindow,
  summit,
} from './mfa.test-support.ts';

let numberSeq = 0;
/** A different valid German mobile number per test, so per-number quotas do not meet. */
function mobile(): { countryCode: string; phoneNumber: string; e164: string } {
  numberSeq += 1;
  const national = `1512345${String(6000 + numberSeq).padStart(4, '0')}`;
  return { countryCode: '+49', phoneNumber: `0${national}`, e164: `+49${national}` };
}

describe.each(engines)('phone codes (SMS and voice) API on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(engine);
  });
  afterAll(() => t.close());

  async function startPhone(deliveryType: 'sms' | 'voice', number = mobile(), locale = 'en') {
    const who = await newUser(t, summit, locale);
    const { cookie } = await passwordSignIn(t.app, who);
    const response = await mfaCall(t, who, 'POST', '/api/mfa/register-phone', cookie, {
      countryCode: number.countryCode,
      phoneNumber: number.phoneNumber,
      deliveryType,
    });
    return { who, cookie, response, number };
  }

  it('registers a phone by SMS: the code goes through the outbox in the user language and confirms the factor', async () => {
    const { who, cookie, response, number } = await startPhone('sms', mobile(), 'de');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      deliveryType: 'sms',
      phone: expect.stringMatching(/^\+49 •+\d\d$/),
      resendInSeconds: 30,
      expiresInSeconds: 600,
      delivery: 'sent',
    });
    const message = await lastPhoneMessage(t.services.db, number.e164);
    expect(message?.row).toMatchObject({ channel: 'sms', tenant_code: 'summit', status: 'sent' });
    expect(message?.content.text).toContain('ist Ihr Bestätigungscode für Summit');
    expect(message?.content.text).toContain(`@summit.localhost #${message?.code}`);
    expect(message?.code).toMatch(/^\d{6}$/);

    const verify = await mfaCall(t, who, 'POST', '/api/mfa/verify', cookie, {
      code: message!.code,
      deliveryType: 'sms',
    });
    expect(verify.statusCode).toBe(200);
    expect(verify.json().state).toBe('AUTHENTICATED');
    expect((await mfaCall(t, who, 'GET', '/api/mfa/status', cookie)).json().factor).toEqual({
      deliveryType: 'sms',
      phone: response.json().phone,
      deviceName: null,
    });
  });

  it('registers a landline by voice: the call speaks the digits one by one', async () => {
    const landline = { countryCode: '49', phoneNumber: '030 1234567', e164: '+49301234567' };
    const { who, cookie, response } = await startPhone('voice', landline);
    expect(response.statusCode).toBe(200);
    const message = await lastPhoneMessage(t.services.db, landline.e164);
    expect(message?.row.channel).toBe('voice');
    expect(message?.content.language).toBe('en-GB');
    expect(message?.content.text).toMatch(/Your verification code is: \d, \d, \d, \d, \d, \d\./);
    const verify = await mfaCall(t, who, 'POST', '/api/mfa/verify', cookie, {
      code: message!.code,
      deliveryType: 'voice',
    });
    expect(verify.json().state).toBe('AUTHENTICATED');
  });

  it('validates the number: invalid country code, invalid number, premium rate, SMS to a landline', async () => {
    const who = await newUser(t);
    const { cookie } = await passwordSignIn(t.app, who);
    const cases = [
      [
        { countryCode: '+999', phoneNumber: '0151 23456789', deliveryType: 'sms' },
        'mfa.country_code_invalid',
        'countryCode',
      ],
      [
        { countryCode: 'abc', phoneNumber: '0151 23456789', deliveryType: 'sms' },
        'mfa.country_code_invalid',
        'countryCode',
      ],
      [{ countryCode: '+49', phoneNumber: '12', deliveryType: 'sms' }, 'mfa.phone_invalid', 'phoneNumber'],
      [
        { countryCode: '+49', phoneNumber: 'call me maybe', deliveryType: 'sms' },
        'mfa.phone_invalid',
        'phoneNumber',
      ],
      [
        { countryCode: '+44', phoneNumber: '0900 123 4567', deliveryType: 'voice' },
        'mfa.phone_invalid',
        'phoneNumber',
      ],
      [
        { countryCode: '+44', phoneNumber: '07911 123456 ext. 12', deliveryType: 'voice' },
        'mfa.phone_invalid',
        'phoneNumber',
      ],
      [
        { countryCode: '+49', phoneNumber: '030 1234567', deliveryType: 'sms' },
        'mfa.phone_not_mobile',
        'phoneNumber',
      ],
    ] as const;
    for (const [body, code, field] of cases) {
      const response = await mfaCall(t, who, 'POST', '/api/mfa/register-phone', cookie, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().code, JSON.stringify(body)).toBe(code);
      expect(Object.keys(response.json().fields)).toContain(field);
    }
    expect((await mfaCall(t, who, 'POST', '/api/mfa/register-phone', cookie, {})).json().code).toBe(
      'common.validation_failed',
    );
    const english = (await mfaCall(t, who, 'POST', '/api/mfa/register-phone', cookie, cases[0][0])).json();
    expect(english.message).toBe('Invalid country code');
    const invalid = (await mfaCall(t, who, 'POST', '/api/mfa/register-phone', cookie, cases[2][0])).json();
    expect(invalid.message).toBe('This number is invalid');
  });

  it('takes a number typed with its own international prefix', async () => {
    const number = mobile();
    const { response } = await startPhone('sms', { ...number, countryCode: '', phoneNumber: number.e164 });
    expect(response.statusCode).toBe(200);
    expect(await lastPhoneMessage(t.services.db, number.e164)).toBeDefined();
  });

  it('enforces the resend interval the countdown shows; a resent code replaces the old one', async () => {
    const { who, cookie, number } = await startPhone('sms');
    const first = await lastPhoneMessage(t.services.db, number.e164);
    const early = await mfaCall(t, who, 'POST', '/api/mfa/send-phone-code', cookie, { deliveryType: 'sms' });
    expect(early.statusCode).toBe(429);
    expect(early.json().code).toBe('mfa.resend_too_soon');
    const wait = Number(early.json().fields.retryAfterSeconds);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(30);

    t.clock.advance(wait * 1000);
    // Call back instead: the same number, by voice.
    const resent = await mfaCall(t, who, 'POST', '/api/mfa/send-phone-code', cookie, {
      deliveryType: 'voice',
    });
    expect(resent.statusCode).toBe(200);
    expect(resent.json()).toMatchObject({ deliveryType: 'voice', resendInSeconds: 30 });
    const second = await lastPhoneMessage(t.services.db, number.e164);
    expect(second?.row.channel).toBe('voice');

    if (first!.code !== second!.code) {
      const old = await mfaCall(t, who, 'POST', '/api/mfa/verify', cookie, {
        code: first!.code,
        deliveryType: 'sms',
      });
      expect(old.json().code).toBe('mfa.code_invalid');
    }
    const ok = await mfaCall(t, who, 'POST', '/api/mfa/verify', cookie, {
      code: second!.code,
      deliveryType: 'voice',
    });
    expect(ok.json().state).toBe('AUTHENTICATED');
    // The factor remembers the channel that worked.
    expect((await mfaCall(t, who, 'GET', '/api/mfa/status', cookie)).json().factor.deliveryType).toBe(
      'voice',
    );
  });

  it('expires a code after 10 minutes', async () => {
    const { who, cookie, number } = await startPhone('sms');
    const message = await lastPhoneMessage(t.services.db, number.e164);
    t.clock.advance(10 * 60_000 + 1000);
    const late = await mfaCall(t, who, 'POST', '/api/mfa/verify', cookie, {
      code: message!.code,
      deliveryType: 'sms',
    });
    expect(late.statusCode).toBe(400);
    expect(late.json().code).toBe('mfa.code_expired');
  });

  it('allows five attempts per code, then asks for a new code; the new code works', async () => {
    const { who, cookie, number } = await startPhone('sms');
    const message = await lastPhoneMessage(t.services.db, number.e164);
    const wrong = message!.code === '000000' ? '111111' : '000000';
    const answers: string[] = [];
    for (let i = 0; i < 5; i++) {
      answers.push(
        (
          await mfaCall(t, who, 'POST', '/api/mfa/verify', cookie, { code: wrong, deliveryType: 'sms' })
        ).json().code,
      );
    }
    expect(answers).toEqual([
      'mfa.code_invalid',
      'mfa.code_invalid',
      'mfa.code_invalid',
      'mfa.code_invalid',
      'mfa.attempts_exceeded',
    ]);
    const right = await mfaCall(t, who, 'POST', '/api/mfa/verify', cookie, {
      code: message!.code,
      deliveryType: 'sms',
    });
    expect(right.statusCode).toBe(429);
    expect(right.json().code).toBe('mfa.attempts_exceeded');

    t.clock.advance(31_000);
    expect(
      (await mfaCall(t, who, 'POST', '/api/mfa/send-phone-code', cookie, { deliveryType: 'sms' })).statusCode,
    ).toBe(200);
    const fresh = await lastPhoneMessage(t.services.db, number.e164);
    const ok = await mfaCall(t, who, 'POST', '/api/mfa/verify', cookie, {
      code: fresh!.code,
      deliveryType: 'sms',
    });
    expect(ok.json().state).toBe('AUTHENTICATED');
  });

  it('counts parallel guesses atomically: no more than five are checked', async () => {
    const { who, cookie, number } = await startPhone('sms');
    const message = await lastPhoneMessage(t.services.db, number.e164);
    const wrong = message!.code === '000000' ? '111111' : '000000';
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        mfaCall(t, who, 'POST', '/api/mfa/verify', cookie, { code: wrong, deliveryType: 'sms' }),
      ),
    );
    const codes = answers.map((a) => a.json().code);
    expect(codes.filter((c) => c === 'mfa.code_invalid').length).toBeLessThanOrEqual(4);
    expect(codes.filter((c) => c === 'mfa.attempts_exceeded').length).toBeGreaterThanOrEqual(4);
  });

  it('sends a code at sign-in to the enrolled phone, and the code passes MFA', async () => {
    const { who, cookie, number } = await startPhone('sms');
    const enrolment = await lastPhoneMessage(t.services.db, number.e164);
    await mfaCall(t, who, 'POST', '/api/mfa/verify', cookie, { code: enrolment!.code, deliveryType: 'sms' });
    t.clock.advance(31_000);

    const next = await passwordSignIn(t.app, who);
    expect(next.identity.state).toBe('MFA_VERIFICATION_REQUIRED');
    const sent = await mfaCall(t, who, 'POST', '/api/mfa/send-phone-code', next.cookie, {
      deliveryType: 'sms',
    });
    expect(sent.statusCode).toBe(200);
    const delivery = await mfaCall(t, who, 'GET', '/api/mfa/delivery', next.cookie);
    expect(delivery.json()).toEqual({ delivery: 'sent', error: null });
    const message = await lastPhoneMessage(t.services.db, number.e164);
    const ok = await mfaCall(t, who, 'POST', '/api/mfa/verify', next.cookie, {
      code: message!.code,
      deliveryType: 'sms',
    });
    expect(ok.json().state).toBe('AUTHENTICATED');
    // A TOTP code cannot pass a phone factor.
    const other = await passwordSignIn(t.app, who);
    const mismatch = await mfaCall(t, who, 'POST', '/api/mfa/verify', other.cookie, {
      code: '123456',
      deliveryType: 'totp',
    });
    expect(mismatch.json().code).toBe('mfa.code_invalid');
  });

  it('limits codes per number per hour against SMS pumping', async () => {
    startOfWindow(t, 60 * 60_000);
    const number = mobile();
    const answers: number[] = [];
    for (let i = 0; i < 6; i++) {
      const { response } = await startPhone('sms', number);
      answers.push(response.statusCode);
    }
    expect(answers.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(answers[5]).toBe(429);
    const { response } = await startPhone('sms', number);
    expect(response.json().code).toBe('mfa.rate_limited');
    // Another number is not affected.
    expect((await startPhone('sms')).response.statusCode).toBe(200);
  });

  it('limits codes per user per hour', async () => {
    startOfWindow(t, 60 * 60_000);
    const { who, cookie } = await startPhone('sms');
    const answers: string[] = [];
    for (let i = 0; i < 10; i++) {
      t.clock.advance(31_000);
      const response = await mfaCall(t, who, 'POST', '/api/mfa/register-phone', cookie, {
        ...mobile(),
        deliveryType: 'sms',
      });
      answers.push(response.statusCode === 200 ? 'ok' : response.json().code);
    }
    expect(answers.filter((a) => a === 'ok')).toHaveLength(9);
    expect(answers.at(-1)).toBe('mfa.rate_limited');
  });

  it('answers registration_not_started to a resend with nothing registered', async () => {
    const who = await newUser(t);
    const { cookie } = await passwordSignIn(t.app, who);
    const response = await mfaCall(t, who, 'POST', '/api/mfa/send-phone-code', cookie, {
      deliveryType: 'sms',
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().code).toBe('mfa.registration_not_started');
    expect((await mfaCall(t, who, 'GET', '/api/mfa/delivery', cookie)).json()).toEqual({
      delivery: 'none',
      error: null,
    });
  });

  it('never answers the code itself', async () => {
    const { response, number } = await startPhone('sms');
    const message = await lastPhoneMessage(t.services.db, number.e164);
    expect(response.body).not.toContain(message!.code);
  });
});
