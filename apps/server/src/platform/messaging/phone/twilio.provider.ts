import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  type PhoneFailureKind,
  type PhoneMessage,
  type PhoneProvider,
  phoneDeliveryError,
  phoneFailureKinds,
} from './phone-provider.ts';

export interface TwilioSettings {
  accountSid: string;
  authToken: string;
  /** The Twilio phone number (E.164) that sends the SMS and places the calls. */
  from: string;
  /** https://api.twilio.com in production; tests point it at a local server. */
  apiUrl: string;
  /** Per-request time limit. */
  timeoutMs?: number;
}

/**
 * Twilio error codes we expect (https://www.twilio.com/docs/api/errors) and what each means
 * for the user. Anything else is an unexpected telecom error.
 */
const knownCodes: Record<number, { kind: PhoneFailureKind; retryable: boolean }> = {
  // The number cannot be right: ask for another one.
  21211: { kind: phoneFailureKinds.invalidNumber, retryable: false }, // invalid 'To' number
  21614: { kind: phoneFailureKinds.invalidNumber, retryable: false }, // 'To' is not a mobile number
  21217: { kind: phoneFailureKinds.invalidNumber, retryable: false }, // number does not appear valid (calls)
  13223: { kind: phoneFailureKinds.invalidNumber, retryable: false }, // invalid phone number format (calls)
  13224: { kind: phoneFailureKinds.invalidNumber, retryable: false }, // invalid phone number (calls)
  30005: { kind: phoneFailureKinds.invalidNumber, retryable: false }, // unknown destination handset
  30006: { kind: phoneFailureKinds.invalidNumber, retryable: false }, // landline or unreachable carrier
  // The recipient (STOP) or the carrier blocks us.
  21610: { kind: phoneFailureKinds.blocked, retryable: false }, // unsubscribed recipient
  21216: { kind: phoneFailureKinds.blocked, retryable: false }, // call blocked by Twilio
  30004: { kind: phoneFailureKinds.blocked, retryable: false }, // message blocked
  // Permanently undeliverable for reasons the user cannot fix.
  21408: { kind: phoneFailureKinds.undeliverable, retryable: false }, // region not enabled (SMS)
  21215: { kind: phoneFailureKinds.undeliverable, retryable: false }, // geo permission (calls)
  21612: { kind: phoneFailureKinds.undeliverable, retryable: false }, // cannot route to this number
  30007: { kind: phoneFailureKinds.undeliverable, retryable: false }, // filtered by the carrier
  // Worth trying again later.
  30003: { kind: phoneFailureKinds.unavailable, retryable: true }, // handset unreachable
  20429: { kind: phoneFailureKinds.rateLimited, retryable: true }, // too many requests
};

interface TwilioErrorBody {
  code?: number;
  message?: string;
  more_info?: string;
  status?: number;
}

function escapeXml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] ?? c,
  );
}

/** TwiML for a call that speaks the text twice, so a code missed the first time is heard again. */
export function voiceTwiml(text: string, language: string): string {
  const say = `<Say language="${escapeXml(language)}">${escapeXml(text)}</Say>`;
  return `<?xml version="1.0" encoding="UTF-8"?><Response>${say}<Pause length="1"/>${say}</Response>`;
}

/**
 * Twilio's Messages and Calls REST APIs (2010-04-01): form-encoded POSTs with HTTP basic
 * auth, JSON answers. Errors come back as `{ code, message, more_info, status }` and map to
 * provider-neutral failure kinds; 5xx and network failures are retryable.
 */
export function createTwilioProvider(settings: TwilioSettings): PhoneProvider {
  const base = `${settings.apiUrl.replace(/\/$/, '')}/2010-04-01/Accounts/${encodeURIComponent(settings.accountSid)}`;
  const authorization = `Basic ${Buffer.from(`${settings.accountSid}:${settings.authToken}`).toString('base64')}`;
  async function post(resource: 'Messages.json' | 'Calls.json', form: URLSearchParams): Promise<void> {
    let response: Response;
    try {
      response = await fetch(`${base}/${resource}`, {
        method: 'POST',
        headers: {
          authorization,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: form.toString(),
        signal: AbortSignal.timeout(settings.timeoutMs ?? 10_000),
      });
    } catch (error) {
      throw phoneDeliveryError(
        phoneFailureKinds.unavailable,
        null,
        true,
        `twilio unreachable: ${(error as Error).message}`,
      );
    }
    if (response.ok) {
      await response.body?.cancel();
      return;
    }
    const body = (await response.json().catch(() => ({}))) as TwilioErrorBody;
    const code = typeof body.code === 'number' ? body.code : null;
    const detail = `twilio ${response.status} ${code ?? ''} ${body.message ?? ''}`.trim();
    const known = code === null ? undefined : knownCodes[code];
    if (known) throw phoneDeliveryError(known.kind, code, known.retryable, detail);
    if (response.status >= 500)
      throw phoneDeliveryError(phoneFailureKinds.unavailable, code ?? response.status, true, detail);
    if (response.status === 429)
      throw phoneDeliveryError(phoneFailureKinds.rateLimited, code ?? 429, true, detail);
    throw phoneDeliveryError(phoneFailureKinds.providerError, code ?? response.status, false, detail);
  }

  return {
    name: 'twilio',
    async sendSms(message: PhoneMessage) {
      const form = new URLSearchParams({ To: message.to, From: settings.from, Body: message.text });
      await post('Messages.json', form);
    },
    async placeCall(message: PhoneMessage) {
      const form = new URLSearchParams({
        To: message.to,
        From: settings.from,
        Twiml: voiceTwiml(message.text, message.language),
      });
      if (message.statusCallbackUrl) {
        form.set('StatusCallback', message.statusCallbackUrl);
        form.set('StatusCallbackMethod', 'POST');
      }
      await post('Calls.json', form);
    },
  };
}

/**
 * Checks X-Twilio-Signature: base64 HMAC-SHA1, keyed with the auth token, of the full URL
 * followed by every POST parameter as name + value, sorted by name.
 */
export function isValidTwilioSignature(
  authToken: string,
  url: string,
  params: Record<string, string>,
  signature: string | undefined,
): boolean {
  if (!signature) return false;
  const data = Object.keys(params)
    .sort()
    .reduce((acc, key) => acc + key + params[key], url);
  const expected = createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
  const a = Buffer.from(expected);
  const b = Buffer.from(signature);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Twilio's final call statuses that mean the code was not heard. */
export function callFailureOf(callStatus: string): { kind: PhoneFailureKind; code: string } | null {
  switch (callStatus) {
    case 'busy':
      // SPEC §8: voice code 107, 'The line is busy.'
      return { kind: phoneFailureKinds.busy, code: '107' };
    case 'no-answer':
      return { kind: phoneFailureKinds.unavailable, code: 'no-answer' };
    case 'failed':
      return { kind: phoneFailureKinds.undeliverable, code: 'failed' };
    default:
      return null;
  }
}
