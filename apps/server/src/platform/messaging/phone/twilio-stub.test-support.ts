import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for Twilio's REST API (2010-04-01), for tests only. It checks each request
 * the way Twilio documents it — POST to /2010-04-01/Accounts/{AccountSid}/Messages.json or
 * Calls.json, HTTP basic auth with the account SID and auth token, a form-encoded body with To
 * and From in E.164 and Body (SMS) or Twiml (calls) — and answers Twilio's JSON: the created
 * resource (201) or an error `{ code, message, more_info, status }`.
 */
export interface StubRequest {
  resource: 'Messages' | 'Calls';
  params: Record<string, string>;
}

export interface StubAnswer {
  status: number;
  code?: number;
  message?: string;
}

export interface TwilioStub {
  url: string;
  accountSid: string;
  authToken: string;
  from: string;
  requests: StubRequest[];
  /** Requests that broke Twilio's documented format (a test expects none). */
  problems: string[];
  /** Per recipient: what Twilio answers. */
  answers: Map<string, StubAnswer>;
  /** Drop the connection for these recipients (a network failure). */
  hangUpFor: Set<string>;
  close(): Promise<void>;
}

const e164 = /^\+[1-9]\d{6,14}$/;

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => resolve(body));
    request.on('error', reject);
  });
}

export async function startTwilioStub(): Promise<TwilioStub> {
  const accountSid = `AC${'0123456789abcdef'.repeat(2)}`;
  const authToken = 'stub-auth-token-0123456789';
  const from = '+15005550006';
  const stub: Omit<TwilioStub, 'url' | 'close'> = {
    accountSid,
    authToken,
    from,
    requests: [],
    problems: [],
    answers: new Map(),
    hangUpFor: new Set(),
  };
  const server: Server = createServer(async (request, response) => {
    const body = await readBody(request);
    const match = request.url?.match(/^\/2010-04-01\/Accounts\/([^/]+)\/(Messages|Calls)\.json$/);
    const problem = (text: string) => {
      stub.problems.push(text);
      response.writeHead(400, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ code: 20001, message: `stub: ${text}`, status: 400 }));
    };
    if (request.method !== 'POST' || !match) return problem(`unexpected ${request.method} ${request.url}`);
    if (match[1] !== accountSid) return problem('wrong account SID in the path');
    const expectedAuth = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`;
    if (request.headers.authorization !== expectedAuth) {
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          code: 20003,
          message: 'Authentication Error - invalid username',
          more_info: 'https://www.twilio.com/docs/errors/20003',
          status: 401,
        }),
      );
      return;
    }
    if (!String(request.headers['content-type']).startsWith('application/x-www-form-urlencoded')) {
      return problem('body is not form-encoded');
    }
    const params = Object.fromEntries(new URLSearchParams(body));
    const resource = match[2] as 'Messages' | 'Calls';
    if (!e164.test(params.To ?? '')) return problem(`To is not E.164: ${params.To}`);
    if (!e164.test(params.From ?? '')) return problem(`From is not E.164: ${params.From}`);
    if (resource === 'Messages' && !params.Body) return problem('Messages without Body');
    if (
      resource === 'Calls' &&
      !/^<\?xml[^>]*\?><Response>.*<Say language="[a-z]{2}-[A-Z]{2}">/.test(params.Twiml ?? '')
    ) {
      return problem('Calls without valid Twiml <Say language>');
    }
    stub.requests.push({ resource, params });
    if (stub.hangUpFor.has(params.To!)) {
      request.socket.destroy();
      return;
    }
    const answer = stub.answers.get(params.To!);
    if (answer && answer.status >= 400) {
      response.writeHead(answer.status, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          ...(answer.code
            ? { code: answer.code, more_info: `https://www.twilio.com/docs/errors/${answer.code}` }
            : {}),
          message: answer.message ?? 'error',
          status: answer.status,
        }),
      );
      return;
    }
    const sid = `${resource === 'Messages' ? 'SM' : 'CA'}${'f'.repeat(32)}`;
    response.writeHead(201, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({ sid, account_sid: accountSid, to: params.To, from: params.From, status: 'queued' }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    ...stub,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Twilio's documented errors used by the tests, keyed by what they mean. */
export const twilioErrors = {
  invalidNumber: { status: 400, code: 21211, message: "The 'To' number is not a valid phone number." },
  notMobile: { status: 400, code: 21614, message: "'To' number is not a valid mobile number" },
  unsubscribed: { status: 400, code: 21610, message: 'Attempt to send to unsubscribed recipient' },
  regionDisabled: {
    status: 400,
    code: 21408,
    message: 'Permission to send an SMS has not been enabled for the region indicated by the To number',
  },
  unreachable: { status: 400, code: 30003, message: 'Unreachable destination handset' },
  unknownHandset: { status: 400, code: 30005, message: 'Unknown destination handset' },
  tooManyRequests: { status: 429, code: 20429, message: 'Too Many Requests' },
  internal: { status: 500, code: 20500, message: 'Internal Server Error' },
  unexpected: { status: 400, code: 21999, message: 'Something nobody expected' },
} as const;
