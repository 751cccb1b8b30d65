import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DevicePlatform } from '@keycard/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, engines, type TestApp } from '../../../test/helper.ts';
import type { PushContent } from '../message.types.ts';
import { enqueueMessage } from '../outbox.ts';
import { type ApnsStub, startApnsStub } from './apns-stub.test-support.ts';
import { type FcmStub, fcmErrors, startFcmStub } from './fcm-stub.test-support.ts';

const deviceId = '0b6e1c9a-4f2d-4e8b-9c3a-5d7f1e2a3b4c';
const challengeId = '9d8c7b6a-5e4f-4a3b-8c2d-1e0f9a8b7c6d';

function push(t: TestApp, platform: DevicePlatform, expiresInMs = 90_000): PushContent {
  return {
    platform,
    deviceId,
    title: 'Sign-in request',
    body: 'Open the app to approve or deny.',
    data: {
      type: 'number_challenge',
      challengeId,
      endpoint: 'http://grand-hotel.localhost:3000/api/mobile-beef/graphql',
    },
    expiresAt: t.clock.now() + expiresInMs,
  };
}

async function enqueuePush(t: TestApp, recipient: string, content: PushContent): Promise<string> {
  return enqueueMessage(
    t.services.db,
    { tenantCode: 'grand-hotel', channel: 'push', recipient, template: 'mobile-challenge', content },
    t.clock.now(),
  );
}

const rowOf = (t: TestApp, id: string) =>
  t.services.db
    .selectFrom('outbox')
    .select(['status', 'attempts', 'last_error'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

describe.each(engines)('push delivery through the outbox (%s)', (engine) => {
  let t: TestApp;
  let fcm: FcmStub;
  let apns: ApnsStub;
  let dir: string;
  beforeAll(async () => {
    [fcm, apns] = await Promise.all([startFcmStub(), startApnsStub()]);
    dir = mkdtempSync(path.join(tmpdir(), 'keycard-push-'));
    writeFileSync(path.join(dir, 'service-account.json'), JSON.stringify(fcm.serviceAccount));
    writeFileSync(path.join(dir, 'AuthKey.p8'), apns.privateKeyPem);
    t = await buildTestApp(engine, {
      seed: false,
      env: {
        FCM_PROJECT_ID: fcm.projectId,
        FCM_SERVICE_ACCOUNT_FILE: path.join(dir, 'service-account.json'),
        FCM_BASE_URL: fcm.url,
        APNS_TEAM_ID: apns.teamId,
        APNS_KEY_ID: apns.keyId,
        APNS_KEY_FILE: path.join(dir, 'AuthKey.p8'),
        APNS_BUNDLE_ID: apns.bundleId,
        APNS_BASE_URL: apns.url,
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([fcm?.close(), apns?.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('delivers enqueued pushes to FCM and APNs as configured by the environment', async () => {
    const android = await enqueuePush(t, 'fcm-registration-token-worker', push(t, 'ANDROID'));
    const ios = await enqueuePush(t, 'cd'.repeat(32), push(t, 'IOS'));
    const web = await enqueuePush(t, deviceId, push(t, 'WEB'));
    expect(await t.services.outbox.runOnce()).toBe(3);
    for (const id of [android, ios, web]) expect((await rowOf(t, id)).status).toBe('sent');
    expect(fcm.sends.map((send) => send.message.token)).toEqual(['fcm-registration-token-worker']);
    expect(fcm.sends[0]!.message.data).toEqual(push(t, 'ANDROID').data);
    expect(apns.requests.map((request) => request.deviceToken)).toEqual(['cd'.repeat(32)]);
    expect(apns.requests[0]!.headers['apns-id']).toBe(ios);
    expect(apns.requests[0]!.payload).toMatchObject({
      challengeId,
      aps: { alert: { title: 'Sign-in request' } },
    });
    expect([...fcm.problems, ...apns.problems]).toEqual([]);
  });

  it('retries a push while its challenge lasts and drops it once expired: a stale approval request never arrives late', async () => {
    const token = 'fcm-registration-token-outage';
    fcm.answers.set(token, fcmErrors.unavailable);
    const id = await enqueuePush(t, token, push(t, 'ANDROID', 20_000));
    await t.services.outbox.runOnce();
    expect(await rowOf(t, id)).toEqual({
      status: 'pending',
      attempts: 1,
      last_error: 'push.unavailable:UNAVAILABLE',
    });

    // First retry after 5 s, still within the challenge: tried again.
    t.clock.advance(5_000);
    await t.services.outbox.runOnce();
    expect((await rowOf(t, id)).attempts).toBe(2);
    const attempts = fcm.sends.filter((send) => send.message.token === token).length;
    expect(attempts).toBe(2);

    // FCM recovers, but the challenge is over by the next retry: nothing is sent, and never again.
    fcm.answers.delete(token);
    t.clock.advance(20_000);
    await t.services.outbox.runOnce();
    expect(await rowOf(t, id)).toEqual({ status: 'failed', attempts: 3, last_error: 'push.expired' });
    t.clock.advance(60 * 60_000);
    await t.services.outbox.runOnce();
    expect(fcm.sends.filter((send) => send.message.token === token).length).toBe(attempts);
    expect((await rowOf(t, id)).attempts).toBe(3);
  });

  it("waits as long as FCM's Retry-After asks before trying a throttled push again", async () => {
    const token = 'fcm-registration-token-throttled';
    fcm.answers.set(token, { ...fcmErrors.quotaExceeded, retryAfter: '120' });
    const id = await enqueuePush(t, token, push(t, 'ANDROID', 10 * 60_000));
    const sent = () => fcm.sends.filter((send) => send.message.token === token).length;
    await t.services.outbox.runOnce();
    expect(await rowOf(t, id)).toMatchObject({
      status: 'pending',
      last_error: 'push.rate_limited:QUOTA_EXCEEDED',
    });
    // Our own backoff would try again after 5 s; FCM asked for two minutes.
    t.clock.advance(5_000);
    await t.services.outbox.runOnce();
    t.clock.advance(100_000);
    await t.services.outbox.runOnce();
    expect(sent()).toBe(1);
    fcm.answers.delete(token);
    t.clock.advance(15_001);
    await t.services.outbox.runOnce();
    expect(sent()).toBe(2);
    expect((await rowOf(t, id)).status).toBe('sent');
  });

  it('records a retired token as failed without retrying it', async () => {
    const token = 'fcm-registration-token-uninstalled';
    fcm.answers.set(token, fcmErrors.unregistered);
    const id = await enqueuePush(t, token, push(t, 'ANDROID'));
    expect(await t.services.outbox.deliverNow(id)).toEqual({
      status: 'failed',
      retryable: false,
      error: 'push.unregistered:UNREGISTERED',
    });
    expect((await rowOf(t, id)).status).toBe('failed');
  });
});

describe('push messages on the local outbox page (embedded mode, no providers)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp('sqlite', { seed: false });
  });
  afterAll(() => t?.close());

  it('keeps every push in the outbox and shows it readably: notification, platform, device and challenge', async () => {
    const androidToken = 'fMq3-AndroidToken:APA91bHx';
    const web = await enqueuePush(t, deviceId, push(t, 'WEB'));
    const android = await enqueuePush(t, androidToken, push(t, 'ANDROID'));
    expect(await t.services.outbox.runOnce()).toBe(2);
    expect((await rowOf(t, android)).status).toBe('sent');

    const list = await t.app.inject({ method: 'GET', url: '/_dev/outbox' });
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain(
      `PUSH to WEB device ${deviceId}: Sign-in request — Open the app to approve or deny.`,
    );
    expect(list.body).toContain(`PUSH to ANDROID device ${deviceId}`);

    const page = await t.app.inject({ method: 'GET', url: `/_dev/outbox/${web}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<h1>Push to a WEB device</h1>');
    for (const [name, value] of [
      ['Title', 'Sign-in request'],
      ['Body', 'Open the app to approve or deny.'],
      ['Platform', 'WEB'],
      ['Device id', deviceId],
      ['Challenge id', challengeId],
      ['Push token', '(none)'],
      ['Delivery', 'sent'],
    ]) {
      expect(page.body).toContain(`<dt>${name}</dt><dd>${value}</dd>`);
    }
    expect(page.body).toContain('GraphQL subscription');
    const androidPage = await t.app.inject({ method: 'GET', url: `/_dev/outbox/${android}` });
    expect(androidPage.body).toContain(`<dt>Push token</dt><dd>${androidToken}</dd>`);

    // Push tokens keep their case: the JSON view finds them as written.
    const json = await t.app.inject({
      method: 'GET',
      url: `/_dev/outbox.json?to=${encodeURIComponent(androidToken)}`,
    });
    expect(json.json()).toMatchObject([
      { id: android, channel: 'push', content: { platform: 'ANDROID', deviceId } },
    ]);
  });

  it('escapes what a push carries', async () => {
    const content = { ...push(t, 'WEB'), title: '<script>alert(1)</script>' };
    const id = await enqueuePush(t, deviceId, content);
    const page = await t.app.inject({ method: 'GET', url: `/_dev/outbox/${id}` });
    expect(page.body).not.toContain('<script>alert(1)</script>');
    expect(page.body).toContain('&lt;script&gt;');
  });
});
