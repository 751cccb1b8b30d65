import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, engines, type TestApp } from '../../test/helper.ts';
import { newUser, passwordSignIn, summit } from '../mfa/mfa.test-support.ts';
import { documents, endpointOf, enrolDevice, gql } from './mobile.test-support.ts';

const path = '/api/mobile-beef/graphql';

describe.each(engines)('the mobile GraphQL endpoint over HTTP on %s', (engine) => {
  let t: TestApp;
  const lines: string[] = [];
  beforeAll(async () => {
    t = await buildTestApp(engine, {
      env: { LOG_LEVEL: 'warn', MOBILE_APP_ORIGINS: 'http://localhost:3003,https://app.example' },
      logStream: { write: (line) => void lines.push(line) },
    });
  });
  afterAll(() => t.close());

  it('answers CORS to the device app origins only, without credentials', async () => {
    for (const origin of ['http://localhost:3003', 'https://app.example']) {
      const preflight = await call(t.app, 'OPTIONS', path, {
        host: summit.host,
        origin,
        headers: {
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type, authorization',
        },
      });
      expect(preflight.statusCode).toBe(204);
      expect(preflight.headers['access-control-allow-origin']).toBe(origin);
      expect(preflight.headers['access-control-allow-headers']).toContain('authorization');
      expect(preflight.headers['access-control-allow-credentials']).toBeUndefined();
      const post = await call(t.app, 'POST', path, {
        host: summit.host,
        origin,
        body: { query: documents.pending },
      });
      expect(post.headers['access-control-allow-origin']).toBe(origin);
      expect(post.json().errors[0].extensions.code).toBe('mobile.device_unauthenticated');
    }
    const foreign = await call(t.app, 'OPTIONS', path, { host: summit.host, origin: 'https://evil.example' });
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    const post = await call(t.app, 'POST', path, {
      host: summit.host,
      origin: 'https://evil.example',
      body: { query: documents.pending },
    });
    expect(post.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('never answers a client mistake with a 5xx', async () => {
    const bodies: [string, string][] = [
      ['not json', 'application/json'],
      ['[]', 'application/json'],
      ['null', 'application/json'],
      ['{"query":{"a":1}}', 'application/json'],
      ['{"query":"{ masterDevice { id } }","variables":[1]}', 'application/json'],
      ['{"query":"{ masterDevice { id } }","operationName":5}', 'application/json'],
      ['query=1', 'application/x-www-form-urlencoded'],
      [JSON.stringify({ query: `{ masterDevice { id } }${' '.repeat(70_000)}` }), 'application/json'],
    ];
    for (const [body, type] of bodies) {
      const response = await call(t.app, 'POST', path, {
        host: summit.host,
        body,
        headers: { 'content-type': type },
      });
      expect(response.statusCode, body.slice(0, 30)).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, body.slice(0, 30)).toBeLessThan(500);
    }
    const get = await call(t.app, 'GET', path, { host: summit.host });
    expect(get.statusCode).toBe(400);
    expect(get.json().errors[0].extensions.code).toBe('graphql.invalid_query');
    const unknownHost = await call(t.app, 'POST', path, {
      host: 'nowhere.localhost:3000',
      body: { query: documents.pending },
    });
    expect(unknownHost.statusCode).toBeLessThan(500);
    const proofs = ['', 'a.b.c', 'x'.repeat(9000), 'eyJhbGciOiJFUzI1NiJ9.e30.AAAA'];
    for (const proof of proofs) {
      for (const query of [documents.register, documents.login]) {
        const answer = await gql(t, summit.host, query, { proof });
        expect(answer.status).toBe(200);
        expect(answer.errors![0]!.extensions.status).toBeLessThan(500);
      }
      const answer = await gql(t, summit.host, documents.answer, { answer: proof });
      expect(answer.errors![0]!.extensions.code).toBe('mobile.proof_invalid');
    }
    // Nothing of it was an internal failure.
    expect(lines.map((line) => JSON.parse(line)).filter((entry) => entry.level >= 50)).toEqual([]);
  });

  it('records a reported sign-in as a security event in the log', async () => {
    const who = await newUser(t);
    const first = await passwordSignIn(t.app, who);
    const { device } = await enrolDevice(t, summit.host, first.cookie);
    const { cookie } = await passwordSignIn(t.app, who);
    const challenge = (await gql(t, summit.host, documents.challenge, {}, { cookie })).data!
      .numberChallenge as {
      id: string;
      number: number;
    };
    await gql(t, summit.host, documents.answer, {
      answer: await device.answer(
        endpointOf(summit.host),
        challenge.id,
        challenge.number,
        'report',
        t.clock.now(),
      ),
    });
    const event = lines
      .map((line) => JSON.parse(line))
      .find((entry) => entry.event === 'mobile.challenge_reported');
    expect(event).toMatchObject({ tenant: 'summit', challengeId: challenge.id, level: 40 });
  });
});
