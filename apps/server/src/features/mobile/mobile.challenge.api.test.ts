import { challengeTtlSeconds, reportMuteSeconds } from '@keycard/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, engines, type TestApp } from '../../test/helper.ts';
import { newUser, passwordSignIn, summit, type TestTenant } from '../mfa/mfa.test-support.ts';
import { backoffSeconds } from './challenge-lifecycle.ts';
import { forgetPushToken } from './device-key.service.ts';
import { codeOf, documents, endpointOf, enrolDevice, gql, TestDevice } from './mobile.test-support.ts';

const endpoint = endpointOf(summit.host);

describe('the back-off against push fatigue', () => {
  it('doubles from 10 s up to an hour', () => {
    expect([1, 2, 3, 4, 5, 9, 10, 40].map(backoffSeconds)).toEqual([10, 20, 40, 80, 160, 2560, 3600, 3600]);
  });
});

describe.each(engines)('mobile-app MFA sign-in approval (numberChallenge) on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(engine);
  });
  afterAll(() => t.close());

  /** A user with the app enrolled, and a new sign-in waiting for MFA. */
  async function enrolledUser(): Promise<{ who: TestTenant; device: TestDevice; cookie: string }> {
    const who = await newUser(t);
    const first = await passwordSignIn(t.app, who);
    const { device } = await enrolDevice(t, summit.host, first.cookie);
    const { cookie, identity } = await passwordSignIn(t.app, who);
    expect(identity.state).toBe('MFA_VERIFICATION_REQUIRED');
    return { who, device, cookie };
  }

  async function ask(cookie: string) {
    const answer = await gql(t, summit.host, documents.challenge, {}, { cookie });
    return answer;
  }

  async function challengeOf(cookie: string) {
    const answer = await ask(cookie);
    expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
    return answer.data!.numberChallenge as { id: string; number: number; expiresInSeconds: number };
  }

  async function answer(
    device: TestDevice,
    challengeId: string,
    number: number,
    decision: 'approve' | 'deny' | 'report',
  ) {
    return gql(t, summit.host, documents.answer, {
      answer: await device.answer(endpoint, challengeId, number, decision, t.clock.now()),
    });
  }

  async function stateOf(cookie: string): Promise<string> {
    const status = await call(t.app, 'GET', '/api/mfa/status', { host: summit.host, cookie });
    return status.json().state;
  }

  async function statusOf(challengeId: string) {
    const row = await t.services.db
      .selectFrom('mobile_challenges')
      .select('status')
      .where('id', '=', challengeId)
      .executeTakeFirstOrThrow();
    return row.status;
  }

  it("words the push in the user's language", async () => {
    const { who, device, cookie } = await enrolledUser();
    await t.services.db.updateTable('users').set({ locale: 'de' }).where('email', '=', who.email).execute();
    const challenge = await challengeOf(cookie);
    const push = await t.services.db
      .selectFrom('outbox')
      .select('payload')
      .where('channel', '=', 'push')
      .where('recipient', '=', device.id!)
      .executeTakeFirstOrThrow();
    const content = JSON.parse(push.payload);
    expect(content.data.challengeId).toBe(challenge.id);
    expect(content.title).toBe('Anmeldung bei Summit');
    expect(content.body).toBe('Öffnen Sie die App, um diese Anmeldung zu bestätigen oder abzulehnen.');
  });

  it('stops pushing to a token the push service retired: the next challenge is left for the app to read', async () => {
    const { device, cookie } = await enrolledUser();
    const other = await enrolledUser();
    const devices = t.services.db.updateTable('mobile_devices');
    await devices
      .set({ platform: 'ANDROID', push_token: 'retired-token' })
      .where('id', '=', device.id!)
      .execute();
    await devices
      .set({ platform: 'ANDROID', push_token: 'live-token' })
      .where('id', '=', other.device.id!)
      .execute();
    await forgetPushToken(t.services.db, 'retired-token');
    const tokens = await t.services.db
      .selectFrom('mobile_devices')
      .select(['id', 'push_token'])
      .where('id', 'in', [device.id!, other.device.id!])
      .execute();
    expect(Object.fromEntries(tokens.map((row) => [row.id, row.push_token]))).toEqual({
      [device.id!]: null,
      [other.device.id!]: 'live-token',
    });
    // The device keeps its pairing: a challenge is still made, addressed to the device itself.
    const challenge = await challengeOf(cookie);
    const push = await t.services.db
      .selectFrom('outbox')
      .select(['recipient', 'payload'])
      .where('channel', '=', 'push')
      .where('payload', 'like', `%${challenge.id}%`)
      .executeTakeFirstOrThrow();
    expect(push.recipient).toBe(device.id);
  });

  it('approves with the right number: the session passes MFA, and the device saw where and what signs in', async () => {
    const { who, device, cookie } = await enrolledUser();
    const challenge = await challengeOf(cookie);
    expect(challenge.number).toBeGreaterThanOrEqual(10);
    expect(challenge.number).toBeLessThanOrEqual(99);
    expect(challenge.expiresInSeconds).toBe(challengeTtlSeconds);

    const pending = await gql(t, summit.host, documents.pending, {}, { bearer: device.accessToken! });
    const [shown] = pending.data!.pendingChallenges as {
      id: string;
      numbers: number[];
      account: string;
      tenantName: string;
    }[];
    expect(shown).toMatchObject({ id: challenge.id, account: who.email, tenantName: 'Summit' });
    expect(shown!.numbers).toHaveLength(3);
    expect(new Set(shown!.numbers).size).toBe(3);
    expect(shown!.numbers).toContain(challenge.number);

    // The push went to the outbox with the challenge (no number in it).
    const push = await t.services.db
      .selectFrom('outbox')
      .selectAll()
      .where('channel', '=', 'push')
      .where('recipient', '=', device.id!)
      .executeTakeFirstOrThrow();
    const content = JSON.parse(push.payload);
    expect(content).toMatchObject({
      deviceId: device.id,
      platform: 'WEB',
      data: { type: 'number_challenge', challengeId: challenge.id, endpoint },
    });
    expect(Object.keys(content).sort()).toEqual([
      'body',
      'data',
      'deviceId',
      'expiresAt',
      'platform',
      'title',
    ]);
    expect(`${content.title} ${content.body}`).not.toMatch(/\d/);
    expect(content.title).toBe('Sign-in to Summit');

    expect(await stateOf(cookie)).toBe('MFA_VERIFICATION_REQUIRED');
    const approved = await answer(device, challenge.id, challenge.number, 'approve');
    expect(approved.data).toEqual({
      answerNumberChallenge: { challengeId: challenge.id, status: 'APPROVED' },
    });
    expect(await stateOf(cookie)).toBe('AUTHENTICATED');
    // Closed: a second answer is refused.
    const again = await answer(device, challenge.id, challenge.number, 'approve');
    expect(codeOf(again)).toBe('mobile.challenge_closed');
  });

  it('ends FAILED on a wrong number, REJECTED on deny, and neither lets the session through', async () => {
    const { device, cookie } = await enrolledUser();
    const challenge = await challengeOf(cookie);
    const wrong = challenge.number === 99 ? 98 : challenge.number + 1;
    const failed = await answer(device, challenge.id, wrong, 'approve');
    expect(failed.data).toEqual({ answerNumberChallenge: { challengeId: challenge.id, status: 'FAILED' } });
    expect(await stateOf(cookie)).toBe('MFA_VERIFICATION_REQUIRED');

    t.clock.advance(backoffSeconds(1) * 1000);
    const second = await challengeOf(cookie);
    const denied = await answer(device, second.id, second.number, 'deny');
    expect(denied.data).toEqual({ answerNumberChallenge: { challengeId: second.id, status: 'REJECTED' } });
    expect(await stateOf(cookie)).toBe('MFA_VERIFICATION_REQUIRED');
  });

  it('doubles the wait after each refused or unanswered challenge (RATE_LIMITED with the seconds left) and resets it after an approval', async () => {
    const { who, device, cookie } = await enrolledUser();
    const first = await challengeOf(cookie);
    await answer(device, first.id, first.number, 'deny');
    const limited = await ask(cookie);
    expect(limited.status).toBe(200);
    expect(codeOf(limited)).toBe('mobile.rate_limited');
    expect(limited.errors![0]!.extensions).toMatchObject({ status: 429, retryAfterSeconds: 10 });

    t.clock.advance(10_000);
    const second = await challengeOf(cookie);
    // No answer within 90 s: TIMEOUT, decided when the portal reads it after expiry.
    t.clock.advance((challengeTtlSeconds + 1) * 1000);
    const late = await answer(device, second.id, second.number, 'approve');
    expect(codeOf(late)).toBe('mobile.challenge_closed');
    expect(await statusOf(second.id)).toBe('TIMEOUT');
    expect(await stateOf(cookie)).toBe('MFA_VERIFICATION_REQUIRED');
    const again = await ask(cookie);
    expect(again.errors![0]!.extensions.retryAfterSeconds).toBe(20);

    t.clock.advance(20_000);
    const third = await challengeOf(cookie);
    await answer(device, third.id, third.number, 'approve');
    expect(await stateOf(cookie)).toBe('AUTHENTICATED');
    // Reset: the next sign-in may ask at once.
    const next = await passwordSignIn(t.app, who);
    await challengeOf(next.cookie);
  });

  it('"this wasn\'t me" rejects, is recorded, and mutes further pushes for the user', async () => {
    const { device, cookie } = await enrolledUser();
    const challenge = await challengeOf(cookie);
    const reported = await answer(device, challenge.id, challenge.number, 'report');
    expect(reported.data).toEqual({
      answerNumberChallenge: { challengeId: challenge.id, status: 'REJECTED' },
    });
    const muted = await ask(cookie);
    expect(codeOf(muted)).toBe('mobile.rate_limited');
    expect(muted.errors![0]!.extensions.retryAfterSeconds).toBe(reportMuteSeconds);
    t.clock.advance(backoffSeconds(1) * 1000);
    expect(codeOf(await ask(cookie))).toBe('mobile.rate_limited');
  });

  it('keeps one pending challenge per user: the same session gets it back, another session is refused', async () => {
    const { who, cookie } = await enrolledUser();
    const first = await challengeOf(cookie);
    const same = await challengeOf(cookie);
    expect(same.id).toBe(first.id);
    expect(same.number).toBe(first.number);
    const other = await passwordSignIn(t.app, who);
    const refused = await ask(other.cookie);
    expect(codeOf(refused)).toBe('mobile.challenge_pending');
    expect(refused.errors![0]!.extensions.status).toBe(409);
  });

  it('refuses a challenge for a user without the app', async () => {
    const who = await newUser(t);
    const { cookie } = await passwordSignIn(t.app, who);
    expect(codeOf(await ask(cookie))).toBe('mobile.no_device');
  });

  it("refuses replayed, expired, over-long and forged answers, and another user's or tenant's challenge", async () => {
    const { device, cookie } = await enrolledUser();
    const challenge = await challengeOf(cookie);
    const now = () => t.clock.now();
    const send = async (proof: string) => gql(t, summit.host, documents.answer, { answer: proof });

    // A forged key: the right kid, signed by a key the server never saw.
    const forger = await TestDevice.create();
    const forged = await device.answer(endpoint, challenge.id, challenge.number, 'approve', now(), {
      key: forger.keys.privateKey,
    });
    expect(codeOf(await send(forged))).toBe('mobile.proof_invalid');
    // Expired: issued two minutes ago with a 20 s life, beyond the 30 s of skew.
    const expired = await device.answer(endpoint, challenge.id, challenge.number, 'approve', now() - 120_000);
    expect(codeOf(await send(expired))).toBe('mobile.proof_invalid');
    // A lifetime over 30 s.
    const long = await device.answer(endpoint, challenge.id, challenge.number, 'approve', now(), {
      lifetimeSeconds: 300,
    });
    expect(codeOf(await send(long))).toBe('mobile.proof_invalid');
    // Another endpoint's audience, another typ, alg none.
    const otherAud = await device.answer(
      endpointOf('grand-hotel.localhost:3000'),
      challenge.id,
      challenge.number,
      'approve',
      now(),
    );
    expect(codeOf(await send(otherAud))).toBe('mobile.proof_invalid');
    const loginTyp = await device.answer(endpoint, challenge.id, challenge.number, 'approve', now(), {
      header: { typ: 'keycard-device-login+jwt' },
    });
    expect(codeOf(await send(loginTyp))).toBe('mobile.proof_invalid');
    const [head, body] = forged.split('.');
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'keycard-answer+jwt', kid: device.id })).toString('base64url')}.${body}.`;
    expect(head).toBeDefined();
    expect(codeOf(await send(none))).toBe('mobile.proof_invalid');
    expect(await statusOf(challenge.id)).toBe('PENDING');

    // Another user's device cannot answer it; on another tenant it does not exist.
    const { device: stranger } = await enrolledUser();
    const foreign = await stranger.answer(endpoint, challenge.id, challenge.number, 'approve', now());
    expect(codeOf(await send(foreign))).toBe('mobile.not_found');
    const elsewhere = await gql(t, 'grand-hotel.localhost:3000', documents.answer, {
      answer: await device.answer(
        endpointOf('grand-hotel.localhost:3000'),
        challenge.id,
        challenge.number,
        'approve',
        now(),
      ),
    });
    expect(codeOf(elsewhere)).toBe('mobile.proof_invalid');
    expect(await statusOf(challenge.id)).toBe('PENDING');

    // The genuine answer, then its replay.
    const genuine = await device.answer(endpoint, challenge.id, challenge.number, 'approve', now());
    expect((await send(genuine)).data).toMatchObject({ answerNumberChallenge: { status: 'APPROVED' } });
    expect(codeOf(await send(genuine))).toBe('mobile.proof_invalid');
  });

  it('signs the device in with its key (masterDeviceLogin); replayed, expired and forged proofs are refused', async () => {
    const { device } = await enrolledUser();
    const now = () => t.clock.now();
    const proof = await device.loginProof(endpoint, now());
    const login = await gql(t, summit.host, documents.login, { proof });
    expect(login.errors).toBeUndefined();
    const session = login.data!.masterDeviceLogin as { accessToken: string; device: { id: string } };
    expect(session.device.id).toBe(device.id);
    const pending = await gql(t, summit.host, documents.pending, {}, { bearer: session.accessToken });
    expect(pending.data).toEqual({ pendingChallenges: [] });

    expect(codeOf(await gql(t, summit.host, documents.login, { proof }))).toBe('mobile.proof_invalid');
    const expired = await device.loginProof(endpoint, now() - 10 * 60_000);
    expect(codeOf(await gql(t, summit.host, documents.login, { proof: expired }))).toBe(
      'mobile.proof_invalid',
    );
    const forger = await TestDevice.create();
    const forged = await device.loginProof(endpoint, now(), { key: forger.keys.privateKey });
    expect(codeOf(await gql(t, summit.host, documents.login, { proof: forged }))).toBe(
      'mobile.proof_invalid',
    );
    const otherSub = await device.loginProof(endpoint, now(), { claims: { sub: 'someone-else' } });
    expect(codeOf(await gql(t, summit.host, documents.login, { proof: otherSub }))).toBe(
      'mobile.proof_invalid',
    );
    // The access token expires after an hour.
    t.clock.advance(61 * 60_000);
    try {
      const stale = await gql(t, summit.host, documents.pending, {}, { bearer: session.accessToken });
      expect(codeOf(stale)).toBe('mobile.device_unauthenticated');
    } finally {
      t.clock.advance(-61 * 60_000);
    }
    expect(codeOf(await gql(t, summit.host, documents.pending, {}))).toBe('mobile.device_unauthenticated');
  });

  it('recovery codes still pass MFA, and an MFA reset deactivates the device', async () => {
    const who = await newUser(t);
    const first = await passwordSignIn(t.app, who);
    const { device, recoveryCodes } = await enrolDevice(t, summit.host, first.cookie);
    const { cookie } = await passwordSignIn(t.app, who);
    const reset = await call(t.app, 'POST', '/api/mfa/reset', {
      host: summit.host,
      cookie,
      body: { proof: { recoveryCode: recoveryCodes[0] } },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    const login = await gql(t, summit.host, documents.login, {
      proof: await device.loginProof(endpoint, t.clock.now()),
    });
    expect(codeOf(login)).toBe('mobile.no_device');
    expect(codeOf(await gql(t, summit.host, documents.pending, {}, { bearer: device.accessToken! }))).toBe(
      'mobile.device_unauthenticated',
    );
    const status = await call(t.app, 'GET', '/api/mfa/status', { host: summit.host, cookie });
    expect(status.json().factor).toBeNull();
  });

  it("resets MFA with a challenge this session had approved on the device, once; not with another session's", async () => {
    const { who, device, cookie } = await enrolledUser();
    const other = await passwordSignIn(t.app, who);
    const challenge = await challengeOf(cookie);
    const reset = (withCookie: string, challengeId: string) =>
      call(t.app, 'POST', '/api/mfa/reset', {
        host: summit.host,
        cookie: withCookie,
        body: { proof: { challengeId } },
      });
    // Not approved yet.
    expect((await reset(cookie, challenge.id)).json().code).toBe('mfa.code_invalid');
    await answer(device, challenge.id, challenge.number, 'approve');
    // Another session cannot use this session's approval.
    expect((await reset(other.cookie, challenge.id)).json().code).toBe('mfa.code_invalid');
    const done = await reset(cookie, challenge.id);
    expect(done.statusCode, done.body).toBe(200);
    const login = await gql(t, summit.host, documents.login, {
      proof: await device.loginProof(endpoint, t.clock.now()),
    });
    expect(codeOf(login)).toBe('mobile.no_device');
    // Enrolled again, the same approval does not reset a second time.
    await enrolDevice(t, summit.host, cookie);
    expect((await reset(cookie, challenge.id)).json().code).toBe('mfa.code_invalid');
  });

  it('answers coded 400s for documents that do not parse, validate, or stay within the depth and cost limits', async () => {
    const cases = [
      ['{ masterDevice { id ', 'graphql.invalid_query'],
      ['{ noSuchField }', 'graphql.invalid_query'],
      ['subscription { deviceChallenges { id } }', 'graphql.invalid_query'],
      [
        '{ masterDevice { id } } fragment A on MasterDevice { ...B } fragment B on MasterDevice { ...A }',
        'graphql.invalid_query',
      ],
      ['{ masterDevice { a { b { c { d { e { f } } } } } } }', 'graphql.query_too_deep'],
      ['{ __schema { types { fields { type { ofType { ofType { name } } } } } } }', 'graphql.query_too_deep'],
      [
        `{ ${Array.from({ length: 40 }, (_, i) => `a${i}: masterDevice { id name platform createdAt }`).join(' ')} }`,
        'graphql.query_too_costly',
      ],
    ] as const;
    for (const [query, code] of cases) {
      const response = await call(t.app, 'POST', '/api/mobile-beef/graphql', {
        host: summit.host,
        body: { query },
      });
      expect(response.statusCode, query.slice(0, 40)).toBe(400);
      expect(response.json().errors[0].extensions.code, query.slice(0, 40)).toBe(code);
    }
    const notJson = await call(t.app, 'POST', '/api/mobile-beef/graphql', {
      host: summit.host,
      body: { query: 42 },
    });
    expect(notJson.statusCode).toBe(400);
    const badVariable = await call(t.app, 'POST', '/api/mobile-beef/graphql', {
      host: summit.host,
      body: { query: documents.answer, variables: { answer: 12 } },
    });
    expect(badVariable.statusCode).toBe(400);
    expect(badVariable.json().errors[0].extensions.code).toBe('graphql.invalid_query');
  });
});
