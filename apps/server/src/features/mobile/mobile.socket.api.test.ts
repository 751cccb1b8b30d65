import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, type TestApp } from '../../test/helper.ts';
import { Browser } from '../../test/http-client.ts';
import { discoverIssuer, listeningTestApp, startAuthorization } from '../../test/oidc.ts';
import { callbackOf, passwordStep } from '../../test/sign-in-flow.ts';
import { newUser, passwordSignIn } from '../mfa/mfa.test-support.ts';
import { codeOf, documents, endpointOf, enrolDevice, gql, TestDevice } from './mobile.test-support.ts';
import { TestSocket } from './socket.test-support.ts';

/**
 * The endpoint over a real listening server: websockets (Origin check before the upgrade,
 * connection_init authentication, subscriptions) and invariant 1 through the OIDC flow.
 */
describe.each(engines)('mobile-app MFA over websockets and OIDC on %s', (engine) => {
  let t: TestApp;
  let origin: (tenant: string) => string;
  let port: number;
  let host: string;
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    ({ t, origin } = await listeningTestApp(engine));
    port = t.config.port;
    host = `summit.localhost:${port}`;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await t.close();
  });

  const who = () => newUser(t, { host, email: '', code: 'summit' });

  async function open(options: { origin?: string; cookie?: string } = {}): Promise<TestSocket> {
    const opened = await TestSocket.open(port, host, options);
    if (!('socket' in opened)) throw new Error(`upgrade refused: ${opened.refused}`);
    sockets.push(opened.socket);
    return opened.socket;
  }

  it('refuses the upgrade from a foreign Origin (403), and accepts its own and the device app origins', async () => {
    const foreign = await TestSocket.open(port, host, { origin: 'https://evil.example' });
    expect(foreign).toEqual({ refused: 403 });
    const lookalike = await TestSocket.open(port, host, { origin: `http://summit.localhost:${port + 1}` });
    expect(lookalike).toEqual({ refused: 403 });
    expect('socket' in (await TestSocket.open(port, host, { origin: origin('summit') }))).toBe(true);
    expect('socket' in (await TestSocket.open(port, host, { origin: 'http://localhost:3003' }))).toBe(true);
    // Native apps send no Origin at all.
    expect('socket' in (await TestSocket.open(port, host))).toBe(true);
  });

  it('closes an unauthenticated socket with 4401: no credentials, an unknown device token, a cookie from the device app origin', async () => {
    const user = await who();
    const { cookie } = await passwordSignIn(t.app, user);
    const bare = await open({ origin: origin('summit') });
    expect(await bare.init()).toBe(4401);
    const unknown = await open();
    expect(await unknown.init({ deviceToken: 'x'.repeat(43) })).toBe(4401);
    // The session cookie counts only on a socket from the tenant's own pages.
    const crossSite = await open({ origin: 'http://localhost:3003', cookie });
    expect(await crossSite.init()).toBe(4401);
    // Subscribing before connection_init is refused too (graphql-transport-ws: 4401).
    const eager = await open({ origin: origin('summit'), cookie });
    eager.subscribe('1', documents.deviceChallenges);
    expect(await eager.closed).toBe(4401);
  });

  it('reports enrolment progress to the portal: WAITING, then COMPLETED with the device name', async () => {
    const user = await who();
    const { cookie } = await passwordSignIn(t.app, user);
    const setup = await gql(t, host, documents.setup, {}, { cookie });
    const { setupId, enrolmentUri } = setup.data!.setupMasterDevice as {
      setupId: string;
      enrolmentUri: string;
    };
    const portal = await open({ origin: origin('summit'), cookie });
    expect(await portal.init()).toBe('ack');
    portal.subscribe('s', documents.setupEvents, { setupId });
    expect(await portal.nextData('s', 0)).toEqual({
      data: { masterDeviceSetup: { setupId, status: 'WAITING', deviceName: null } },
    });
    const device = await TestDevice.create();
    const registered = await gql(t, host, documents.register, {
      proof: await device.enrolProof(enrolmentUri, t.clock.now(), { claims: { deviceName: 'Pixel' } }),
    });
    expect(registered.errors).toBeUndefined();
    expect(await portal.nextData('s', 1)).toEqual({
      data: { masterDeviceSetup: { setupId, status: 'COMPLETED', deviceName: 'Pixel' } },
    });
    await portal.completed('s');
    // Another session's setup is not found.
    const other = await passwordSignIn(t.app, user);
    const stranger = await open({ origin: origin('summit'), cookie: other.cookie });
    expect(await stranger.init()).toBe('ack');
    stranger.subscribe('x', documents.setupEvents, { setupId });
    const refused = await stranger.nextData('x', 0);
    expect(JSON.stringify(refused)).toContain('mobile.not_found');
  });

  it('delivers a challenge to the device socket and the outcome to the portal socket, ending after APPROVED', async () => {
    const user = await who();
    const first = await passwordSignIn(t.app, user);
    const { device } = await enrolDevice(t, host, first.cookie);
    const { cookie } = await passwordSignIn(t.app, user);

    const phone = await open();
    expect(await phone.init({ deviceToken: device.accessToken })).toBe('ack');
    phone.subscribe('d', documents.deviceChallenges);

    const asked = await gql(t, host, documents.challenge, {}, { cookie });
    const challenge = asked.data!.numberChallenge as { id: string; number: number };
    const portal = await open({ origin: origin('summit'), cookie });
    expect(await portal.init()).toBe('ack');
    portal.subscribe('o', documents.outcome, { challengeId: challenge.id });
    expect(await portal.nextData('o', 0)).toEqual({
      data: {
        numberChallengeOutcome: { challengeId: challenge.id, status: 'PENDING', retryAfterSeconds: null },
      },
    });

    const shown = (await phone.nextData('d', 0)).data as {
      deviceChallenges: { id: string; numbers: number[] };
    };
    expect(shown.deviceChallenges.id).toBe(challenge.id);
    expect(shown.deviceChallenges.numbers).toContain(challenge.number);

    const started = Date.now();
    const answered = await gql(t, host, documents.answer, {
      answer: await device.answer(endpointOf(host), challenge.id, challenge.number, 'approve', t.clock.now()),
    });
    expect(answered.data).toMatchObject({ answerNumberChallenge: { status: 'APPROVED' } });
    expect(await portal.nextData('o', 1)).toEqual({
      data: {
        numberChallengeOutcome: { challengeId: challenge.id, status: 'APPROVED', retryAfterSeconds: null },
      },
    });
    // Promptly: woken by the event (a busy machine may add some hundreds of milliseconds).
    expect(Date.now() - started).toBeLessThan(1500);
    await portal.completed('o');
  });

  it('ends the device subscription when its access token expires', async () => {
    const user = await who();
    const first = await passwordSignIn(t.app, user);
    const { device } = await enrolDevice(t, host, first.cookie);
    const phone = await open();
    expect(await phone.init({ deviceToken: device.accessToken })).toBe('ack');
    phone.subscribe('d', documents.deviceChallenges);
    t.clock.advance(61 * 60_000);
    try {
      expect(JSON.stringify(await phone.nextData('d', 0, 3000))).toContain('mobile.device_unauthenticated');
      await phone.completed('d');
    } finally {
      t.clock.advance(-61 * 60_000);
    }
  });

  it('tells the portal TIMEOUT when nobody answers within 90 s (the injected clock decides)', async () => {
    const user = await who();
    const first = await passwordSignIn(t.app, user);
    const { device } = await enrolDevice(t, host, first.cookie);
    const { cookie } = await passwordSignIn(t.app, user);
    const challenge = (await gql(t, host, documents.challenge, {}, { cookie })).data!.numberChallenge as {
      id: string;
      number: number;
    };
    const portal = await open({ origin: origin('summit'), cookie });
    expect(await portal.init()).toBe('ack');
    portal.subscribe('o', documents.outcome, { challengeId: challenge.id });
    await portal.nextData('o', 0);
    t.clock.advance(91_000);
    try {
      const outcome = (await portal.nextData('o', 1, 3000)).data as {
        numberChallengeOutcome: { status: string; retryAfterSeconds: number };
      };
      expect(outcome.numberChallengeOutcome.status).toBe('TIMEOUT');
      expect(outcome.numberChallengeOutcome.retryAfterSeconds).toBeGreaterThanOrEqual(8);
      await portal.completed('o');
      const late = await gql(t, host, documents.answer, {
        answer: await device.answer(
          endpointOf(host),
          challenge.id,
          challenge.number,
          'approve',
          t.clock.now(),
        ),
      });
      expect(codeOf(late)).toBe('mobile.challenge_closed');
    } finally {
      t.clock.advance(-91_000);
    }
  });

  it('tells the portal REJECTED with the seconds before the next try', async () => {
    const user = await who();
    const first = await passwordSignIn(t.app, user);
    const { device } = await enrolDevice(t, host, first.cookie);
    const { cookie } = await passwordSignIn(t.app, user);
    const challenge = (await gql(t, host, documents.challenge, {}, { cookie })).data!.numberChallenge as {
      id: string;
      number: number;
    };
    const portal = await open({ origin: origin('summit'), cookie });
    expect(await portal.init()).toBe('ack');
    portal.subscribe('o', documents.outcome, { challengeId: challenge.id });
    await portal.nextData('o', 0);
    await gql(t, host, documents.answer, {
      answer: await device.answer(endpointOf(host), challenge.id, challenge.number, 'deny', t.clock.now()),
    });
    const outcome = (await portal.nextData('o', 1)).data as {
      numberChallengeOutcome: { challengeId: string; status: string; retryAfterSeconds: number };
    };
    expect(outcome.numberChallengeOutcome).toMatchObject({ challengeId: challenge.id, status: 'REJECTED' });
    // The first wait is 10 s from the answer; a busy machine may read it a second later.
    expect(outcome.numberChallengeOutcome.retryAfterSeconds).toBeGreaterThanOrEqual(8);
    expect(outcome.numberChallengeOutcome.retryAfterSeconds).toBeLessThanOrEqual(10);
  });

  it('refuses over-deep and over-costly subscriptions on the socket with coded errors', async () => {
    const user = await who();
    const first = await passwordSignIn(t.app, user);
    const { device } = await enrolDevice(t, host, first.cookie);
    const phone = await open();
    expect(await phone.init({ deviceToken: device.accessToken })).toBe('ack');
    phone.subscribe('deep', 'subscription { deviceChallenges { a { b { c { d { e { f } } } } } } }');
    expect(JSON.stringify(await phone.nextData('deep', 0))).toContain('graphql.query_too_deep');
    const aliases = Array.from({ length: 200 }, (_, i) => `n${i}: numbers`).join(' ');
    phone.subscribe('costly', `subscription { deviceChallenges { ${aliases} } }`);
    expect(JSON.stringify(await phone.nextData('costly', 0))).toContain('graphql.query_too_costly');
    await phone.completed('costly');
    // The socket stays open for the next operation.
    phone.subscribe('fine', documents.deviceChallenges);
    expect(phone.ws.readyState).toBe(phone.ws.OPEN);
  });

  it('invariant 1: the app gets no code while the challenge is pending or after a deny; after the approval the OIDC flow finishes', async () => {
    const user = await who();
    const first = await passwordSignIn(t.app, user);
    const { device } = await enrolDevice(t, host, first.cookie);

    const browser = new Browser();
    const tenantOrigin = origin('summit');
    const config = await discoverIssuer(tenantOrigin);
    const start = await startAuthorization(config, browser);
    const iid = new URL(start.location, tenantOrigin).searchParams.get('iid')!;
    const identity = await passwordStep(browser, tenantOrigin, 'summit', user.email, undefined, { iid });
    expect(identity.state).toBe('MFA_VERIFICATION_REQUIRED');
    const authorize = () => browser.fetch(`${tenantOrigin}/api/authorize`, { method: 'POST', body: { iid } });
    const challengeCall = () =>
      browser.fetch(`${tenantOrigin}/api/mobile-beef/graphql`, {
        method: 'POST',
        body: { query: documents.challenge },
      });

    const asked = (await (await challengeCall()).json()) as {
      data: { numberChallenge: { id: string; number: number } };
    };
    const challenge = asked.data.numberChallenge;
    const pending = await authorize();
    expect(pending.status).toBe(403);
    expect(((await pending.json()) as { code: string }).code).toBe('session.incomplete');

    await gql(t, host, documents.answer, {
      answer: await device.answer(endpointOf(host), challenge.id, challenge.number, 'deny', t.clock.now()),
    });
    expect((await authorize()).status).toBe(403);

    t.clock.advance(10_000);
    const again = (await (await challengeCall()).json()) as {
      data: { numberChallenge: { id: string; number: number } };
    };
    const approved = await gql(t, host, documents.answer, {
      answer: await device.answer(
        endpointOf(host),
        again.data.numberChallenge.id,
        again.data.numberChallenge.number,
        'approve',
        t.clock.now(),
      ),
    });
    expect(codeOf(approved)).toBeUndefined();
    const callback = await callbackOf(browser, tenantOrigin, start.location);
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: start.verifier,
      expectedState: start.state,
      expectedNonce: start.nonce,
    });
    expect(tokens.claims()?.amr).toEqual(['pwd', 'mfa', 'swk']);
  });
});
