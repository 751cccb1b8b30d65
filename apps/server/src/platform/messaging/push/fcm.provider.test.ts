import { generateKeyPairSync } from 'node:crypto';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../../../test/helper.ts';
import { DeliveryError } from '../message.types.ts';
import { parseDeliveryFailure } from '../phone/phone-provider.ts';
import { createFcmProvider, type FcmSettings } from './fcm.provider.ts';
import { type FcmStub, fcmErrors, startFcmStub } from './fcm-stub.test-support.ts';
import type { PushNotification } from './push-provider.ts';

describe('FCM HTTP v1 provider (against a local stand-in for Google OAuth and messages:send)', () => {
  const clock = new TestClock();
  let stub: FcmStub;
  beforeAll(async () => {
    stub = await startFcmStub({ clock });
  });
  afterAll(() => stub.close());

  const settings = (overrides: Partial<FcmSettings> = {}): FcmSettings => ({
    projectId: stub.projectId,
    clientEmail: stub.serviceAccount.client_email,
    privateKey: stub.serviceAccount.private_key,
    privateKeyId: stub.serviceAccount.private_key_id,
    tokenUri: stub.serviceAccount.token_uri,
    baseUrl: stub.url,
    ...overrides,
  });
  const notification = (token: string, overrides: Partial<PushNotification> = {}): PushNotification => ({
    token,
    title: 'Sign-in request',
    body: 'Open the app to approve or deny.',
    data: {
      type: 'number_challenge',
      challengeId: '5c1f0c1e-2b7a-4d8e-9a55-0d6f1c2b3a4d',
      endpoint: 'https://grand-hotel.example/api/mobile-beef/graphql',
    },
    expiresAt: clock.now() + 90_000,
    collapseKey: '5c1f0c1e-2b7a-4d8e-9a55-0d6f1c2b3a4d',
    reference: 'b7d1e0a2-3c4f-4a5b-8c6d-7e8f9a0b1c2d',
    ...overrides,
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

  it('gets an access token with a signed service-account assertion and sends the documented message', async () => {
    const tokensBefore = stub.tokenRequests.length;
    await createFcmProvider(settings(), clock).send(notification('fcm-token-android-1'));
    expect(stub.problems).toEqual([]);
    expect(stub.tokenRequests.length).toBe(tokensBefore + 1);
    const assertion = stub.tokenRequests.at(-1)!;
    expect(assertion.header).toMatchObject({ alg: 'RS256', kid: stub.serviceAccount.private_key_id });
    expect(assertion.claims).toMatchObject({
      iss: stub.serviceAccount.client_email,
      aud: stub.serviceAccount.token_uri,
      scope: 'https://www.googleapis.com/auth/firebase.messaging',
    });
    const sent = stub.sends.at(-1)!;
    expect(sent.authorization).toMatch(/^Bearer ya29\.stub-/);
    expect(sent.message).toEqual({
      token: 'fcm-token-android-1',
      data: {
        type: 'number_challenge',
        challengeId: '5c1f0c1e-2b7a-4d8e-9a55-0d6f1c2b3a4d',
        endpoint: 'https://grand-hotel.example/api/mobile-beef/graphql',
      },
      notification: { title: 'Sign-in request', body: 'Open the app to approve or deny.' },
      android: { priority: 'HIGH', ttl: '90s', collapse_key: '5c1f0c1e-2b7a-4d8e-9a55-0d6f1c2b3a4d' },
    });
  });

  it('asks FCM to drop the push when the challenge ends: the ttl is the time left', async () => {
    await createFcmProvider(settings(), clock).send(
      notification('fcm-token-ttl', { expiresAt: clock.now() + 12_300 }),
    );
    expect(stub.sends.at(-1)!.message.android.ttl).toBe('13s');
  });

  it('reuses the access token until five minutes before it expires, and 20 parallel sends ask for one', async () => {
    const provider = createFcmProvider(settings(), clock);
    const before = stub.tokenRequests.length;
    await Promise.all(
      Array.from({ length: 20 }, (_, index) => provider.send(notification(`fcm-token-parallel-${index}`))),
    );
    expect(stub.tokenRequests.length).toBe(before + 1);
    const token = stub.sends.at(-1)!.authorization;
    expect(new Set(stub.sends.slice(-20).map((send) => send.authorization))).toEqual(new Set([token]));

    clock.advance((stub.tokenLifetimeSeconds - 301) * 1000);
    await provider.send(notification('fcm-token-cached'));
    expect(stub.tokenRequests.length).toBe(before + 1);
    expect(stub.sends.at(-1)!.authorization).toBe(token);

    clock.advance(2_000);
    await provider.send(notification('fcm-token-renewed'));
    expect(stub.tokenRequests.length).toBe(before + 2);
    expect(stub.sends.at(-1)!.authorization).not.toBe(token);
    expect(stub.problems).toEqual([]);
  });

  it('replaces a revoked access token once and delivers', async () => {
    const provider = createFcmProvider(settings(), clock);
    await provider.send(notification('fcm-token-before-revoke'));
    const before = { tokens: stub.tokenRequests.length, sends: stub.sends.length };
    stub.revokeAccessTokens();
    await provider.send(notification('fcm-token-after-revoke'));
    expect(stub.tokenRequests.length).toBe(before.tokens + 1);
    // The refused attempt never reached the checks, so only the retry is recorded.
    expect(stub.sends.length).toBe(before.sends + 1);
    expect(stub.sends.at(-1)!.message.token).toBe('fcm-token-after-revoke');
  });

  it.each([
    ['unregistered', 'push.unregistered', 'UNREGISTERED', false],
    ['invalidArgument', 'push.invalid_request', 'INVALID_ARGUMENT', false],
    ['senderIdMismatch', 'push.bad_token', 'SENDER_ID_MISMATCH', false],
    ['thirdPartyAuth', 'push.auth_failed', 'THIRD_PARTY_AUTH_ERROR', false],
    ['quotaExceeded', 'push.rate_limited', 'QUOTA_EXCEEDED', true],
    ['unavailable', 'push.unavailable', 'UNAVAILABLE', true],
    ['internal', 'push.unavailable', 'INTERNAL', true],
    ['plainNotFound', 'push.provider_error', 'NOT_FOUND', false],
  ] as const)('maps FCM %s to %s:%s (retryable: %s)', async (name, kind, providerCode, retryable) => {
    const token = `fcm-token-error-${name}`;
    stub.answers.set(token, fcmErrors[name]);
    expect(await failure(createFcmProvider(settings(), clock).send(notification(token)))).toEqual({
      kind,
      providerCode,
      retryable,
    });
  });

  it('gives up on a token endpoint or FCM that accepts the connection and never answers, as retryable', async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => {
      sockets.add(socket);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    try {
      const noToken = createFcmProvider(settings({ tokenUri: `${silentUrl}/token`, timeoutMs: 300 }), clock);
      expect(await failure(noToken.send(notification('fcm-token-silent-1')))).toEqual({
        kind: 'push.unavailable',
        providerCode: 'token',
        retryable: true,
      });
      const noAnswer = createFcmProvider(settings({ baseUrl: silentUrl, timeoutMs: 300 }), clock);
      expect(await failure(noAnswer.send(notification('fcm-token-silent-2')))).toMatchObject({
        kind: 'push.unavailable',
        retryable: true,
      });
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('treats an unreachable FCM, a dropped connection and a refused service account as what they are', async () => {
    const down = createFcmProvider(settings({ baseUrl: 'http://127.0.0.1:1' }), clock);
    expect(await failure(down.send(notification('fcm-token-down')))).toMatchObject({
      kind: 'push.unavailable',
      retryable: true,
    });
    stub.hangUpFor.add('fcm-token-hang-up');
    expect(
      await failure(createFcmProvider(settings(), clock).send(notification('fcm-token-hang-up'))),
    ).toMatchObject({
      kind: 'push.unavailable',
      retryable: true,
    });
    const problems = stub.problems.length;
    const otherKey = generateKeyPairSync('rsa', { modulusLength: 2048 })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    const forged = createFcmProvider(settings({ privateKey: otherKey }), clock);
    expect(await failure(forged.send(notification('fcm-token-forged')))).toEqual({
      kind: 'push.auth_failed',
      providerCode: 'invalid_grant',
      retryable: false,
    });
    expect(stub.problems.slice(problems)).toEqual([expect.stringMatching(/^token: assertion refused/)]);
    stub.problems.splice(problems);
  });
});
