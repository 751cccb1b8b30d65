import type { DevicePlatform } from '@keycard/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../../../test/helper.ts';
import type { OutboxMessage, PushContent } from '../message.types.ts';
import { maxRetryAfterMs, nextAttemptDelayMs, retryDelayMs } from '../outbox.worker.ts';
import { type ApnsStub, apnsErrors, startApnsStub } from './apns-stub.test-support.ts';
import { type FcmStub, fcmErrors, startFcmStub } from './fcm-stub.test-support.ts';
import { parseRetryAfter } from './push-provider.ts';
import { createPushTransportFromConfig } from './push-transport.ts';

const apnsToken = 'ab'.repeat(32);

describe('push transport: platform routing and expiry', () => {
  const clock = new TestClock();
  let fcm: FcmStub;
  let apns: ApnsStub;
  beforeAll(async () => {
    [fcm, apns] = await Promise.all([startFcmStub({ clock }), startApnsStub({ clock })]);
  });
  afterAll(async () => {
    await Promise.all([fcm.close(), apns.close()]);
  });

  const configured = (embedded: boolean, forgetToken?: (token: string) => Promise<void>) =>
    createPushTransportFromConfig(
      {
        embedded,
        fcm: {
          projectId: fcm.projectId,
          clientEmail: fcm.serviceAccount.client_email,
          privateKey: fcm.serviceAccount.private_key,
          privateKeyId: fcm.serviceAccount.private_key_id,
          tokenUri: fcm.serviceAccount.token_uri,
          baseUrl: fcm.url,
        },
        apns: {
          teamId: apns.teamId,
          keyId: apns.keyId,
          privateKey: apns.privateKeyPem,
          bundleId: apns.bundleId,
          baseUrl: apns.url,
        },
      },
      clock,
      forgetToken,
    );

  const message = (platform: DevicePlatform, recipient: string, expiresInMs = 90_000): OutboxMessage => {
    const content: PushContent = {
      platform,
      deviceId: 'd7e5a3c1-0000-4000-8000-000000000001',
      title: 'Sign-in request',
      body: 'Open the app to approve or deny.',
      data: {
        type: 'number_challenge',
        challengeId: 'c1a2b3c4-0000-4000-8000-000000000001',
        endpoint: 'http://grand-hotel.localhost:3000/api/mobile-beef/graphql',
      },
      expiresAt: clock.now() + expiresInMs,
    };
    return {
      id: 'e0e0e0e0-0000-4000-8000-000000000001',
      tenantCode: 'grand-hotel',
      channel: 'push',
      recipient,
      template: 'mobile-number-challenge',
      content,
      attempts: 1,
    };
  };

  it('sends ANDROID through FCM and IOS through APNs, and nothing for WEB devices', async () => {
    const transport = configured(false);
    const sent = { fcm: fcm.sends.length, apns: apns.requests.length };
    await transport.send(message('ANDROID', 'fcm-registration-token-1'));
    await transport.send(message('IOS', apnsToken));
    await transport.send(message('WEB', 'd7e5a3c1-0000-4000-8000-000000000001'));
    // An app that registered without a push token is named by its device id: nothing to push to.
    await transport.send(message('ANDROID', 'd7e5a3c1-0000-4000-8000-000000000001'));
    await transport.send(message('IOS', 'd7e5a3c1-0000-4000-8000-000000000001'));
    await transport.close();
    expect(fcm.sends.slice(sent.fcm).map((send) => send.message.token)).toEqual(['fcm-registration-token-1']);
    expect(fcm.sends.at(-1)!.message.data).toEqual({
      type: 'number_challenge',
      challengeId: 'c1a2b3c4-0000-4000-8000-000000000001',
      endpoint: 'http://grand-hotel.localhost:3000/api/mobile-beef/graphql',
    });
    expect(apns.requests.slice(sent.apns).map((request) => request.deviceToken)).toEqual([apnsToken]);
    expect(apns.requests.at(-1)!.headers['apns-collapse-id']).toBe('c1a2b3c4-0000-4000-8000-000000000001');
    expect([...fcm.problems, ...apns.problems]).toEqual([]);
  });

  it('drops a push whose challenge has expired instead of sending it late, and never retries it', async () => {
    const transport = configured(false);
    const sent = { fcm: fcm.sends.length, apns: apns.requests.length };
    for (const [platform, recipient] of [
      ['ANDROID', 'fcm-registration-token-2'],
      ['IOS', apnsToken],
      ['WEB', 'd7e5a3c1-0000-4000-8000-000000000001'],
    ] as const) {
      const stale = message(platform, recipient, 0);
      await expect(transport.send(stale)).rejects.toMatchObject({ code: 'push.expired', retryable: false });
    }
    await transport.close();
    expect(fcm.sends.length).toBe(sent.fcm);
    expect(apns.requests.length).toBe(sent.apns);
  });

  it('without providers keeps pushes in the outbox in embedded mode and fails them in production', async () => {
    const embedded = createPushTransportFromConfig(
      { embedded: true, fcm: undefined, apns: undefined },
      clock,
    );
    const production = createPushTransportFromConfig(
      { embedded: false, fcm: undefined, apns: undefined },
      clock,
    );
    const sent = { fcm: fcm.sends.length, apns: apns.requests.length };
    await embedded.send(message('ANDROID', 'fcm-registration-token-3'));
    await embedded.send(message('IOS', apnsToken));
    await production.send(message('WEB', 'd7e5a3c1-0000-4000-8000-000000000001'));
    await expect(production.send(message('ANDROID', 'fcm-registration-token-3'))).rejects.toMatchObject({
      code: 'push.unconfigured:ANDROID',
      retryable: false,
    });
    await expect(production.send(message('IOS', apnsToken))).rejects.toMatchObject({
      code: 'push.unconfigured:IOS',
      retryable: false,
    });
    expect(fcm.sends.length).toBe(sent.fcm);
    expect(apns.requests.length).toBe(sent.apns);
  });

  it('forgets a token the push service retired (FCM UNREGISTERED, APNs 410), and only such a token', async () => {
    const forgotten: string[] = [];
    const transport = configured(false, async (token) => {
      forgotten.push(token);
    });
    const retiredApns = 'ef'.repeat(32);
    fcm.answers.set('fcm-registration-token-retired', fcmErrors.unregistered);
    fcm.answers.set('fcm-registration-token-down', fcmErrors.unavailable);
    apns.answers.set(retiredApns, apnsErrors.unregistered);
    await expect(transport.send(message('ANDROID', 'fcm-registration-token-retired'))).rejects.toMatchObject({
      code: 'push.unregistered:UNREGISTERED',
      retryable: false,
    });
    await expect(transport.send(message('IOS', retiredApns))).rejects.toMatchObject({
      code: 'push.unregistered:Unregistered',
    });
    await expect(transport.send(message('ANDROID', 'fcm-registration-token-down'))).rejects.toMatchObject({
      retryable: true,
    });
    await transport.close();
    expect(forgotten).toEqual(['fcm-registration-token-retired', retiredApns]);
  });
});

describe('Retry-After', () => {
  const now = Date.UTC(2026, 10, 25, 12, 0, 0);

  it('reads delay-seconds and HTTP-dates, and ignores what is neither', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Wed, 25 Nov 2026 12:01:30 GMT', now)).toBe(90_000);
    expect(parseRetryAfter('Wed, 25 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
  });

  it('never retries sooner than our backoff, nor parks a message longer than six hours', () => {
    expect(nextAttemptDelayMs(1, undefined)).toBe(retryDelayMs(1));
    expect(nextAttemptDelayMs(1, 1_000)).toBe(retryDelayMs(1));
    expect(nextAttemptDelayMs(1, 120_000)).toBe(120_000);
    expect(nextAttemptDelayMs(1, 30 * 24 * 60 * 60_000)).toBe(maxRetryAfterMs);
  });
});
