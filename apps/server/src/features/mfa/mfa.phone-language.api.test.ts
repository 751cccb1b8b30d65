import { apiErrorSchema, type Locale, phoneCodeSentResponse } from '@keycard/contract';
import { format, loadTexts } from '@keycard/texts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, engines, type TestApp } from '../../test/helper.ts';
import { lastPhoneMessage, mfaCall, newUser, passwordSignIn, summit } from './mfa.test-support.ts';

let numberSeq = 0;
/** A different valid German mobile number per test, so per-number quotas do not meet. */
function mobile(): { countryCode: string; phoneNumber: string; e164: string } {
  numberSeq += 1;
  const national = `1512347${String(3000 + numberSeq).padStart(4, '0')}`;
  return { countryCode: '+49', phoneNumber: `0${national}`, e164: `+49${national}` };
}

/** The SMS text with its code, as the catalogue of that language words it. */
async function smsText(locale: Locale, code: string | undefined): Promise<string> {
  return format((await loadTexts(locale)).mfa.messages.sms, {
    code: code ?? '',
    name: 'Summit',
    minutes: 10,
  });
}

/**
 * Issue 19 item 14: an SMS or a call goes out in the language the person was using when they
 * asked (the page's langCode), not the account's stored one; without one, the account's.
 */
describe.each(engines)('the language of a phone code, on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(engine);
  });
  afterAll(() => t.close());

  it('sends the set-up text and its resend by call in the languages asked in', async () => {
    const who = await newUser(t, summit, 'de');
    const { cookie } = await passwordSignIn(t.app, who);
    const number = mobile();
    const registered = await mfaCall(t, who, 'POST', '/api/mfa/register-phone', cookie, {
      countryCode: number.countryCode,
      phoneNumber: number.phoneNumber,
      deliveryType: 'sms',
      langCode: 'fr',
    });
    expect(registered.statusCode).toBe(200);
    phoneCodeSentResponse.parse(registered.json());
    const sms = await lastPhoneMessage(t.services.db, number.e164);
    expect(sms?.content.text).toContain(await smsText('fr', sms?.code));
    expect(sms?.content.language).toBe('fr-FR');

    t.clock.advance(31_000);
    const resent = await mfaCall(t, who, 'POST', '/api/mfa/send-phone-code', cookie, {
      deliveryType: 'voice',
      langCode: 'th',
    });
    expect(resent.statusCode).toBe(200);
    phoneCodeSentResponse.parse(resent.json());
    const call = await lastPhoneMessage(t.services.db, number.e164);
    expect(call?.row.channel).toBe('voice');
    expect(call?.content.language).toBe('th-TH');
    const digits = call!.code.split('').join(', ');
    expect(call?.content.text).toBe(
      format((await loadTexts('th')).mfa.messages.voice, { name: 'Summit', digits }),
    );
  });

  it('sends the sign-in code in the language asked in, else in the account language', async () => {
    const who = await newUser(t, summit, 'de');
    const first = await passwordSignIn(t.app, who);
    const number = mobile();
    await mfaCall(t, who, 'POST', '/api/mfa/register-phone', first.cookie, {
      countryCode: number.countryCode,
      phoneNumber: number.phoneNumber,
      deliveryType: 'sms',
    });
    const enrolment = await lastPhoneMessage(t.services.db, number.e164);
    // No langCode: the account's language, as before.
    expect(enrolment?.content.text).toContain(await smsText('de', enrolment?.code));
    const verified = await mfaCall(t, who, 'POST', '/api/mfa/verify', first.cookie, {
      code: enrolment!.code,
      deliveryType: 'sms',
    });
    expect(verified.json().state).toBe('AUTHENTICATED');

    t.clock.advance(31_000);
    const next = await passwordSignIn(t.app, who);
    expect(next.identity.state).toBe('MFA_VERIFICATION_REQUIRED');
    const sent = await mfaCall(t, who, 'POST', '/api/mfa/send-phone-code', next.cookie, {
      deliveryType: 'sms',
      langCode: 'es',
    });
    expect(sent.statusCode).toBe(200);
    phoneCodeSentResponse.parse(sent.json());
    const message = await lastPhoneMessage(t.services.db, number.e164);
    expect(message?.content.text).toContain(await smsText('es', message?.code));
    // The code still passes MFA: the language changes the words, nothing else.
    const ok = await mfaCall(t, who, 'POST', '/api/mfa/verify', next.cookie, {
      code: message!.code,
      deliveryType: 'sms',
    });
    expect(ok.json().state).toBe('AUTHENTICATED');
  });

  it('refuses a language it does not speak, and sends nothing', async () => {
    const who = await newUser(t, summit, 'en');
    const { cookie } = await passwordSignIn(t.app, who);
    const number = mobile();
    const refused = await mfaCall(t, who, 'POST', '/api/mfa/register-phone', cookie, {
      countryCode: number.countryCode,
      phoneNumber: number.phoneNumber,
      deliveryType: 'sms',
      langCode: 'xx',
    });
    expect(refused.statusCode).toBe(400);
    apiErrorSchema.parse(refused.json());
    expect(await lastPhoneMessage(t.services.db, number.e164)).toBeUndefined();
  });
});
