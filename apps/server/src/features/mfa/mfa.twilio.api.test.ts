import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startTwilioStub,
  type TwilioStub,
  twilioErrors,
} from '../../platform/messaging/phone/twilio-stub.test-support.ts';
import { buildTestApp, call, engines, type TestApp } from '../../test/helper.ts';
import { mfaCall, newUser, passwordSignIn } from './mfa.test-support.ts';

let seq = 0;
function mobile() {
  seq += 1;
  const national = `1517654${String(3000 + seq).padStart(4, '0')}`;
  return { countryCode: '+49', phoneNumber: `0${national}`, e164: `+49${national}` };
}

/**
 * The phone API with the Twilio adapter configured (TWILIO_* variables), talking to a local
 * stand-in that checks Twilio's request format and answers Twilio's documented errors.
 */
describe.each(engines)('phone codes through Twilio on %s', (engine) => {
  let t: TestApp;
  let stub: TwilioStub;
  beforeAll(async () => {
    stub = await startTwilioStub();
    t = await buildTestApp(engine, {
      env: {
        TWILIO_ACCOUNT_SID: stub.accountSid,
        TWILIO_AUTH_TOKEN: stub.authToken,
        TWILIO_FROM: stub.from,
        TWILIO_API_URL: stub.url,
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await stub.close();
  });

  async function register(deliveryType: 'sms' | 'voice', number = mobile()) {
    const who = await newUser(t);
    const { cookie } = await passwordSignIn(t.app, who);
    const response = await mfaCall(t, who, 'POST', '/api/mfa/register-phone', cookie, {
      countryCode: number.countryCode,
      phoneNumber: number.phoneNumber,
      deliveryType,
    });
    return { who, cookie, response, number };
  }

  it('sends the code by SMS through Twilio and the code from the SMS body confirms the factor', async () => {
    const { who, cookie, response, number } = await register('sms');
    expect(response.statusCode).toBe(200);
    expect(response.json().delivery).toBe('sent');
    expect(stub.problems).toEqual([]);
    const sent = stub.requests.filter((r) => r.params.To === number.e164);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.resource).toBe('Messages');
    const code = sent[0]!.params.Body!.match(/#(\d{6})$/)![1]!;
    const verify = await mfaCall(t, who, 'POST', '/api/mfa/verify', cookie, { code, deliveryType: 'sms' });
    expect(verify.json().state).toBe('AUTHENTICATED');
  });

  it.each([
    ['invalidNumber', 'mfa.phone_rejected', 'This phone number cannot receive codes. Use another number.'],
    ['unsubscribed', 'mfa.phone_blocked', 'This phone number is blocked. Contact support.'],
    ['regionDisabled', 'mfa.delivery_failed', 'The code could not be delivered. Contact support.'],
    ['unreachable', 'mfa.delivery_retryable', 'The code could not be delivered right now. Try again later.'],
    [
      'tooManyRequests',
      'mfa.delivery_retryable',
      'The code could not be delivered right now. Try again later.',
    ],
    ['unexpected', 'mfa.telecom_error', 'An unexpected telecom error occurred.'],
  ] as const)('answers Twilio %s as %s, with the provider code in brackets', async (name, code, message) => {
    const number = mobile();
    stub.answers.set(number.e164, twilioErrors[name]);
    const { response } = await register('sms', number);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      code,
      message,
      fields: { providerCode: String(twilioErrors[name].code) },
    });
  });

  it('lets the user fix a refused number at once, without waiting for the resend interval', async () => {
    const refused = mobile();
    stub.answers.set(refused.e164, twilioErrors.invalidNumber);
    const { who, cookie, response } = await register('sms', refused);
    expect(response.statusCode).toBe(422);
    const fixed = mobile();
    const retry = await mfaCall(t, who, 'POST', '/api/mfa/register-phone', cookie, {
      countryCode: fixed.countryCode,
      phoneNumber: fixed.phoneNumber,
      deliveryType: 'sms',
    });
    expect(retry.statusCode).toBe(200);
  });

  it('calls by voice and learns a busy line from the signed status callback (SPEC voice code 107)', async () => {
    const { who, cookie, response, number } = await register('voice');
    expect(response.statusCode).toBe(200);
    const placed = stub.requests.filter((r) => r.params.To === number.e164);
    expect(placed).toHaveLength(1);
    expect(placed[0]!.resource).toBe('Calls');
    expect(placed[0]!.params.Twiml).toContain('<Say language="en-GB">');
    const callback = new URL(placed[0]!.params.StatusCallback!);
    expect(callback.origin).toBe('http://summit.localhost:3000');
    expect((await mfaCall(t, who, 'GET', '/api/mfa/delivery', cookie)).json()).toEqual({
      delivery: 'sent',
      error: null,
    });

    const params = { CallSid: `CA${'1'.repeat(32)}`, CallStatus: 'busy', AccountSid: stub.accountSid };
    const body = new URLSearchParams(params).toString();
    const sign = (token: string) =>
      createHmac('sha1', token)
        .update(
          Object.keys(params)
            .sort()
            .reduce((acc, key) => acc + key + params[key as keyof typeof params], callback.href),
        )
        .digest('base64');
    const post = (signature: string) =>
      call(t.app, 'POST', callback.pathname, {
        host: 'summit.localhost:3000',
        origin: null,
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature },
        body,
      });

    const forged = await post(sign('not-the-auth-token'));
    expect(forged.statusCode).toBe(403);
    expect((await mfaCall(t, who, 'GET', '/api/mfa/delivery', cookie)).json().delivery).toBe('sent');

    expect((await post(sign(stub.authToken))).statusCode).toBe(204);
    expect((await mfaCall(t, who, 'GET', '/api/mfa/delivery', cookie)).json()).toEqual({
      delivery: 'failed',
      error: { code: 'mfa.line_busy', providerCode: '107' },
    });
  });
});

describe('phone factor without a provider (production without Twilio)', () => {
  it('is not offered, and a phone registration is refused', async () => {
    // Production needs PostgreSQL; there is no local outbox page to fall back on.
    const t = await buildTestApp('postgres', {
      env: { NODE_ENV: 'production', PUBLIC_SCHEME: 'http', PUBLIC_PORT: '3000' },
    });
    try {
      const who = await newUser(t);
      const { cookie } = await passwordSignIn(t.app, who);
      expect((await mfaCall(t, who, 'GET', '/api/mfa/status', cookie)).json().phoneAvailable).toBe(false);
      const refused = await mfaCall(t, who, 'POST', '/api/mfa/register-phone', cookie, {
        ...mobile(),
        deliveryType: 'sms',
      });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().code).toBe('mfa.telecom_error');
    } finally {
      await t.close();
    }
  });
});
