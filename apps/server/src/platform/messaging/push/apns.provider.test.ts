import { generateKeyPairSync } from 'node:crypto';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../../../test/helper.ts';
import { DeliveryError } from '../message.types.ts';
import { parseDeliveryFailure } from '../phone/phone-provider.ts';
import { type ApnsSettings, createApnsProvider } from './apns.provider.ts';
import { type ApnsStub, apnsErrors, startApnsStub } from './apns-stub.test-support.ts';
import type { PushNotification, PushProvider } from './push-provider.ts';

/** A device token as iOS hands it out: 32 bytes, hex. */
const deviceToken = (label: number) => label.toString(16).padStart(8, '0').repeat(8);

describe('APNs provider (against a local HTTP/2 stand-in)', () => {
  const clock = new TestClock();
  let stub: ApnsStub;
  const providers: PushProvider[] = [];
  beforeAll(async () => {
    stub = await startApnsStub({ clock });
  });
  afterAll(async () => {
    await Promise.all(providers.map((provider) => provider.close()));
    await stub.close();
  });

  const provider = (overrides: Partial<ApnsSettings> = {}) => {
    const created = createApnsProvider(
      {
        teamId: stub.teamId,
        keyId: stub.keyId,
        privateKey: stub.privateKeyPem,
        bundleId: stub.bundleId,
        baseUrl: stub.url,
        ...overrides,
      },
      clock,
    );
    providers.push(created);
    return created;
  };
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

  it('posts the documented request: provider token, topic, push type, priority, expiry and alert payload', async () => {
    const push = notification(deviceToken(1));
    const before = Math.floor(clock.now() / 1000);
    await provider().send(push);
    expect(stub.problems).toEqual([]);
    const request = stub.requests.at(-1)!;
    expect(request.deviceToken).toBe(deviceToken(1));
    expect(request.headers).toMatchObject({
      'apns-topic': stub.bundleId,
      'apns-push-type': 'alert',
      'apns-priority': '10',
      'apns-expiration': String(Math.floor(push.expiresAt / 1000)),
      'apns-id': push.reference,
      'apns-collapse-id': push.collapseKey,
    });
    expect(request.headers.authorization).toBe(`bearer ${request.providerToken}`);
    expect(decodeProtectedHeader(request.providerToken)).toEqual({ alg: 'ES256', kid: stub.keyId });
    expect(request.providerTokenIat).toBeGreaterThanOrEqual(before);
    expect(request.providerTokenIat).toBeLessThanOrEqual(Math.floor(clock.now() / 1000));
    expect(request.payload).toEqual({
      aps: {
        alert: { title: 'Sign-in request', body: 'Open the app to approve or deny.' },
        sound: 'default',
      },
      type: 'number_challenge',
      challengeId: '5c1f0c1e-2b7a-4d8e-9a55-0d6f1c2b3a4d',
      endpoint: 'https://grand-hotel.example/api/mobile-beef/graphql',
    });
  });

  it('keeps aps its own: a data key named aps cannot replace the alert', async () => {
    await provider().send(notification(deviceToken(2), { data: { aps: 'x', type: 'number_challenge' } }));
    expect(stub.requests.at(-1)!.payload.aps).toEqual({
      alert: { title: 'Sign-in request', body: 'Open the app to approve or deny.' },
      sound: 'default',
    });
  });

  it('shares one provider token and one connection across 20 parallel pushes, and renews the token after 50 minutes', async () => {
    const apns = provider();
    const connections = stub.connections;
    await Promise.all(
      Array.from({ length: 20 }, (_, index) => apns.send(notification(deviceToken(100 + index)))),
    );
    const tokens = new Set(stub.requests.slice(-20).map((request) => request.providerToken));
    expect(tokens.size).toBe(1);
    expect(stub.connections).toBe(connections + 1);
    const [first] = tokens;

    clock.advance(49 * 60_000);
    await apns.send(notification(deviceToken(200)));
    expect(stub.requests.at(-1)!.providerToken).toBe(first);

    clock.advance(60_000);
    await apns.send(notification(deviceToken(201)));
    const renewed = stub.requests.at(-1)!;
    expect(renewed.providerToken).not.toBe(first);
    expect(renewed.providerTokenIat - stub.requests.at(-3)!.providerTokenIat).toBeGreaterThanOrEqual(50 * 60);
    expect(stub.connections).toBe(connections + 1);
    expect(stub.problems).toEqual([]);
  });

  it('on ExpiredProviderToken signs a new provider token and delivers', async () => {
    const apns = provider();
    await apns.send(notification(deviceToken(300)));
    const old = stub.requests.at(-1)!.providerToken;
    stub.expireProviderTokens();
    const before = stub.requests.length;
    await apns.send(notification(deviceToken(301)));
    expect(stub.requests.length).toBe(before + 1);
    expect(stub.requests.at(-1)!.deviceToken).toBe(deviceToken(301));
    expect(stub.requests.at(-1)!.providerToken).not.toBe(old);
  });

  it.each([
    ['badDeviceToken', 'push.bad_token', false],
    ['unregistered', 'push.unregistered', false],
    ['tooManyRequests', 'push.rate_limited', true],
    ['internal', 'push.unavailable', true],
    ['unavailable', 'push.unavailable', true],
    ['invalidProviderToken', 'push.auth_failed', false],
    ['payloadTooLarge', 'push.invalid_request', false],
    ['unexpected', 'push.provider_error', false],
  ] as const)('maps APNs %s to %s (retryable: %s) with the reason', async (name, kind, retryable) => {
    const token = deviceToken(400 + Object.keys(apnsErrors).indexOf(name));
    stub.answers.set(token, apnsErrors[name]);
    expect(await failure(provider().send(notification(token)))).toEqual({
      kind,
      providerCode: apnsErrors[name].reason,
      retryable,
    });
  });

  it('treats an unreachable APNs, a reset stream and a foreign signing key as what they are', async () => {
    expect(
      await failure(provider({ baseUrl: 'http://127.0.0.1:1' }).send(notification(deviceToken(500)))),
    ).toMatchObject({ kind: 'push.unavailable', retryable: true });
    stub.resetFor.add(deviceToken(501));
    expect(await failure(provider().send(notification(deviceToken(501))))).toMatchObject({
      kind: 'push.unavailable',
      retryable: true,
    });
    const problems = stub.problems.length;
    const otherKey = generateKeyPairSync('ec', { namedCurve: 'P-256' })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    expect(await failure(provider({ privateKey: otherKey }).send(notification(deviceToken(502))))).toEqual({
      kind: 'push.auth_failed',
      providerCode: 'InvalidProviderToken',
      retryable: false,
    });
    expect(stub.problems.slice(problems)).toEqual(['403 InvalidProviderToken']);
    stub.problems.splice(problems);
  });

  it('gives up on a server that accepts the connection and never answers, as retryable', async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => {
      sockets.add(socket);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      const started = Date.now();
      const apns = provider({ baseUrl: `http://127.0.0.1:${port}`, timeoutMs: 300 });
      expect(await failure(apns.send(notification(deviceToken(700))))).toMatchObject({
        kind: 'push.unavailable',
        retryable: true,
      });
      expect(Date.now() - started).toBeLessThan(5_000);
      // The dead connection is not kept: the next push opens a new one.
      const before = sockets.size;
      await failure(apns.send(notification(deviceToken(701))));
      expect(sockets.size).toBe(before + 1);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('reconnects after APNs closes the connection', async () => {
    const apns = provider();
    await apns.send(notification(deviceToken(600)));
    const connections = stub.connections;
    await stub.dropConnections();
    await apns.send(notification(deviceToken(601)));
    expect(stub.requests.at(-1)!.deviceToken).toBe(deviceToken(601));
    expect(stub.connections).toBe(connections + 1);
  });
});
