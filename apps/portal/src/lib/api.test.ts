import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  accountErrors,
  adminErrors,
  errorCodes,
  lifecycleErrors,
  mfaErrors,
  mobileErrors,
  partnerErrors,
  passkeyErrors,
} from '@keycard/contract/errors';
import { idempotencyKeyHeader } from '@keycard/contract/idempotency';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiRequestError,
  apiRequest,
  codeOf,
  errorCodeOf,
  fallbackErrorCode,
  isNetworkError,
  lookupError,
  trustErrorCodes,
} from './api.ts';

/** A real HTTP server whose answers the tests choose per path. */
let server: Server;
let base: string;
const answers = new Map<string, Array<{ status: number; body: string }>>();
const seen: Array<{ path: string; headers: Record<string, string | string[] | undefined> }> = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const path = request.url ?? '/';
    seen.push({ path, headers: request.headers });
    const next = answers.get(path)?.shift() ?? { status: 404, body: '' };
    response.writeHead(next.status, { 'content-type': 'application/json' });
    response.end(next.body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function answer(path: string, ...list: Array<{ status: number; body: unknown }>) {
  answers.set(
    path,
    list.map(({ status, body }) => ({
      status,
      body: typeof body === 'string' ? body : JSON.stringify(body),
    })),
  );
}

async function refusal(path: string): Promise<ApiRequestError> {
  const caught = await apiRequest('POST', `${base}${path}`, {}).catch((error: unknown) => error);
  expect(caught).toBeInstanceOf(ApiRequestError);
  return caught as ApiRequestError;
}

describe('apiRequest', () => {
  it('answers the JSON of a successful answer', async () => {
    answer('/ok', { status: 200, body: { location: '/next' } });
    await expect(apiRequest('GET', `${base}/ok`)).resolves.toEqual({ location: '/next' });
  });

  it('types a refusal by the contract code it carries, with its fields', async () => {
    answer('/refused', {
      status: 429,
      body: {
        code: errorCodes.tooManyAttempts,
        message: 'Too many attempts.',
        fields: { limit: 'address', retryAfterSeconds: '60' },
      },
    });
    const error = await refusal('/refused');
    expect(error.kind).toBe('answer');
    expect(error.code).toBe(errorCodes.tooManyAttempts);
    expect(error.fields).toEqual({ limit: 'address', retryAfterSeconds: '60' });
    expect(error.message).toBe('Too many attempts.');
  });

  it('turns a code the contract does not know into the unexpected-error code', async () => {
    answer('/unknown', { status: 400, body: { code: 'login.made_up', message: 'x' } });
    const error = await refusal('/unknown');
    expect(error.code).toBe(fallbackErrorCode);
    expect(fallbackErrorCode).toBe(errorCodes.internal);
  });

  it('treats an answer without a JSON error body as unexpected, not as a network failure', async () => {
    answer('/html', { status: 404, body: '<html>not here</html>' });
    const error = await refusal('/html');
    expect(error.code).toBe(errorCodes.internal);
    expect(isNetworkError(error)).toBe(false);
    expect(error.fields).toBeUndefined();
  });

  it('drops fields that are not text (they are never shown or counted)', async () => {
    answer('/fields', { status: 400, body: { code: errorCodes.validationFailed, fields: { email: 3 } } });
    expect((await refusal('/fields')).fields).toBeUndefined();
  });

  it('says a request that got no answer is a network failure', async () => {
    const closed = createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const caught = await apiRequest('GET', `http://127.0.0.1:${port}/gone`).catch((error: unknown) => error);
    expect(isNetworkError(caught)).toBe(true);
    expect((caught as ApiRequestError).kind).toBe('network');
    expect((caught as ApiRequestError).code).toBe(errorCodes.unavailable);
  });

  it('retries a gateway answer with the same idempotency key, then answers', async () => {
    answer('/gateway', { status: 502, body: '' }, { status: 200, body: { sent: true } });
    seen.length = 0;
    await expect(apiRequest('POST', `${base}/gateway`, {}, { idempotent: true })).resolves.toEqual({
      sent: true,
    });
    expect(seen).toHaveLength(2);
    const keys = seen.map((request) => request.headers[idempotencyKeyHeader.toLowerCase()]);
    expect(keys[0]).toBeTruthy();
    expect(keys[1]).toBe(keys[0]);
  });
});

describe('error codes', () => {
  // This file loads no flow's error table: only the login route's families are trusted.
  it("trusts only the login route's families until a flow's table trusts its own", () => {
    expect(errorCodeOf(errorCodes.tooManyAttempts)).toBe(errorCodes.tooManyAttempts);
    expect(errorCodeOf(passkeyErrors.verificationFailed)).toBe(passkeyErrors.verificationFailed);
    expect(errorCodeOf(mfaErrors.codeInvalid)).toBe(fallbackErrorCode);
    expect(new ApiRequestError('answer', { code: accountErrors.notFound }).code).toBe(fallbackErrorCode);
  });

  it("accepts every family of the portal's APIs once trusted, and nothing else", () => {
    trustErrorCodes(mfaErrors, lifecycleErrors, partnerErrors, mobileErrors, accountErrors);
    expect(errorCodeOf(accountErrors.notFound)).toBe(accountErrors.notFound);
    expect(errorCodeOf(mfaErrors.codeInvalid)).toBe(mfaErrors.codeInvalid);
    expect(errorCodeOf(lifecycleErrors.resetTokenExpired)).toBe(lifecycleErrors.resetTokenExpired);
    expect(errorCodeOf(partnerErrors.tokenReplayed)).toBe(partnerErrors.tokenReplayed);
    expect(errorCodeOf(mobileErrors.challengeClosed)).toBe(mobileErrors.challengeClosed);
    // The admin API's codes never reach the portal: one would be unexpected here.
    expect(errorCodeOf(adminErrors.forbidden)).toBe(fallbackErrorCode);
    expect(errorCodeOf('request_error')).toBe(fallbackErrorCode);
    expect(errorCodeOf(undefined)).toBe(fallbackErrorCode);
    expect(errorCodeOf(42)).toBe(fallbackErrorCode);
  });

  it('reads anything that is not a refusal of the API as unexpected', () => {
    expect(codeOf(new Error('boom'))).toBe(fallbackErrorCode);
    expect(codeOf(new ApiRequestError('answer', { code: errorCodes.busy }))).toBe(errorCodes.busy);
  });
});

describe('lookupError', () => {
  const table = {
    network: 'network',
    codes: { [errorCodes.busy]: 'busy' },
    otherwise: 'otherwise',
  };

  it('finds the row of the code, the network row, and otherwise the fallback row', () => {
    expect(lookupError(table, new ApiRequestError('answer', { code: errorCodes.busy }))).toBe('busy');
    expect(lookupError(table, new ApiRequestError('network'))).toBe('network');
    expect(lookupError(table, new ApiRequestError('answer', { code: errorCodes.notFound }))).toBe(
      'otherwise',
    );
    expect(lookupError(table, new TypeError('not an API error'))).toBe('otherwise');
  });
});
