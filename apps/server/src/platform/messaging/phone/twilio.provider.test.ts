import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeliveryError } from '../message.types.ts';
import { createPhoneTransports, parseDeliveryFailure } from './phone-provider.ts';
import {
  callFailureOf,
  createTwilioProvider,
  isValidTwilioSignature,
  voiceTwiml,
} from './twilio.provider.ts';
import { startTwilioStub, type TwilioStub, twilioErrors } from './twilio-stub.test-support.ts';

describe('Twilio provider (against a local stand-in for the REST API)', () => {
  let stub: TwilioStub;
  beforeAll(async () => {
    stub = await startTwilioStub();
  });
  afterAll(() => stub.close());

  const provider = () =>
    createTwilioProvider({
      accountSid: stub.accountSid,
      authToken: stub.authToken,
      from: stub.from,
      apiUrl: stub.url,
    });
  const message = (to: string, text = 'Your code is 123456') => ({
    to,
    text,
    language: 'de-DE',
    reference: 'ref-1',
  });

  async function failure(promise: Promise<void>) {
    const error = await promise.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(DeliveryError);
    const delivery = error as DeliveryError;
    return { retryable: delivery.retryable, ...parseDeliveryFailure(delivery.code) };
  }

  it('sends an SMS through the Messages API in the documented format', async () => {
    await provider().sendSms(message('+4915123456789', 'Ihr Code: 123456 & mehr'));
    expect(stub.problems).toEqual([]);
    expect(stub.requests.at(-1)).toEqual({
      resource: 'Messages',
      params: { To: '+4915123456789', From: stub.from, Body: 'Ihr Code: 123456 & mehr' },
    });
  });

  it('places a call through the Calls API with TwiML that speaks the text twice in the language', async () => {
    await provider().placeCall({
      ...message('+49301234567', 'Ihr Code lautet: 1, 2, 3 <4>'),
      statusCallbackUrl: 'https://summit.example/api/mfa/phone/call-status/abc',
    });
    expect(stub.problems).toEqual([]);
    const params = stub.requests.at(-1)!.params;
    expect(stub.requests.at(-1)!.resource).toBe('Calls');
    expect(params).toMatchObject({
      To: '+49301234567',
      From: stub.from,
      StatusCallback: 'https://summit.example/api/mfa/phone/call-status/abc',
      StatusCallbackMethod: 'POST',
    });
    expect(params.Twiml).toBe(voiceTwiml('Ihr Code lautet: 1, 2, 3 <4>', 'de-DE'));
    expect(params.Twiml).toContain('<Say language="de-DE">Ihr Code lautet: 1, 2, 3 &lt;4&gt;</Say>');
    expect(params.Twiml?.match(/<Say /g)).toHaveLength(2);
  });

  it.each([
    ['invalidNumber', 'phone.invalid_number', false],
    ['notMobile', 'phone.invalid_number', false],
    ['unknownHandset', 'phone.invalid_number', false],
    ['unsubscribed', 'phone.blocked', false],
    ['regionDisabled', 'phone.undeliverable', false],
    ['unreachable', 'phone.unavailable', true],
    ['tooManyRequests', 'phone.rate_limited', true],
    ['internal', 'phone.unavailable', true],
    ['unexpected', 'phone.provider_error', false],
  ] as const)(
    'maps Twilio %s to %s (retryable: %s) with the provider code',
    async (name, kind, retryable) => {
      const to = `+4915100000${String(Object.keys(twilioErrors).indexOf(name)).padStart(3, '0')}`;
      stub.answers.set(to, twilioErrors[name]);
      expect(await failure(provider().sendSms(message(to)))).toEqual({
        kind,
        providerCode: String(twilioErrors[name].code),
        retryable,
      });
    },
  );

  it('treats a refused connection, a dropped connection and a wrong token as what they are', async () => {
    const down = createTwilioProvider({
      accountSid: stub.accountSid,
      authToken: stub.authToken,
      from: stub.from,
      apiUrl: 'http://127.0.0.1:1',
    });
    expect(await failure(down.sendSms(message('+4915123456789')))).toMatchObject({
      kind: 'phone.unavailable',
      retryable: true,
    });
    stub.hangUpFor.add('+4915199999999');
    expect(await failure(provider().sendSms(message('+4915199999999')))).toMatchObject({
      kind: 'phone.unavailable',
      retryable: true,
    });
    const wrongToken = createTwilioProvider({
      accountSid: stub.accountSid,
      authToken: 'not-the-token-000000',
      from: stub.from,
      apiUrl: stub.url,
    });
    expect(await failure(wrongToken.placeCall(message('+4915123456789')))).toEqual({
      kind: 'phone.provider_error',
      providerCode: '20003',
      retryable: false,
    });
  });

  it('does not send a code that expired while the outbox was retrying', async () => {
    let now = 1_000;
    const transports = createPhoneTransports(provider(), { now: () => now });
    const before = stub.requests.length;
    const outboxMessage = {
      id: 'm1',
      tenantCode: 'summit',
      channel: 'sms' as const,
      recipient: '+4915123456789',
      template: 'mfa-code-sms',
      content: { text: 'code', expiresAt: 2_000 },
      attempts: 3,
    };
    await transports.sms.send(outboxMessage);
    now = 2_000;
    const error = await transports.sms.send(outboxMessage).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'phone.expired', retryable: false });
    expect(stub.requests.length).toBe(before + 1);
  });
});

describe('Twilio webhooks', () => {
  // The example from Twilio's webhook-security documentation: the URL, the POST parameters
  // sorted by name and appended as name + value, HMAC-SHA1 with the auth token, base64.
  const authToken = '12345';
  const url = 'https://mycompany.com/myapp.php?foo=1&bar=2';
  const params = {
    CallSid: 'CA1234567890ABCDE',
    Caller: '+14158675309',
    Digits: '1234',
    From: '+14158675309',
    To: '+18005551212',
  };
  // Twilio's published expected header for the example above.
  const signature = 'RSOYDt4T1cUTdK1PDd93/VVr8B8=';

  it('accepts the signature Twilio computes and nothing else', () => {
    expect(isValidTwilioSignature(authToken, url, params, signature)).toBe(true);
    expect(isValidTwilioSignature(authToken, url, { ...params, Digits: '9999' }, signature)).toBe(false);
    expect(isValidTwilioSignature(authToken, `${url}&x=1`, params, signature)).toBe(false);
    expect(isValidTwilioSignature('other', url, params, signature)).toBe(false);
    expect(isValidTwilioSignature(authToken, url, params, undefined)).toBe(false);
  });

  it('maps final call statuses: busy is SPEC voice code 107', () => {
    expect(callFailureOf('busy')).toEqual({ kind: 'voice.busy', code: '107' });
    expect(callFailureOf('no-answer')?.kind).toBe('phone.unavailable');
    expect(callFailureOf('failed')?.kind).toBe('phone.undeliverable');
    expect(callFailureOf('completed')).toBeNull();
  });
});
