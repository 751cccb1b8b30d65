import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../test/helper.ts';
import { type Cluster, twoInstances } from '../../test/instances.ts';
import { newUser, passwordSignIn, type TestTenant } from '../mfa/mfa.test-support.ts';
import { answerChallenge } from './device-challenge.service.ts';
import { memoryEvents } from './events.ts';
import { documents, endpointOf, enrolDevice, TestDevice } from './mobile.test-support.ts';
import { TestSocket } from './socket.test-support.ts';

/**
 * Two instances on one PostgreSQL database: the portal's subscription and the device's answer
 * reach different instances; outcomes travel by LISTEN/NOTIFY, and by polling when a
 * notification is lost; single use and one pending challenge hold across instances.
 */
describe('mobile-app MFA across two instances on PostgreSQL', () => {
  let cluster: Cluster;
  let host: string;
  let ports: number[];
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    cluster = await twoInstances();
    host = `summit.localhost:${cluster.t.config.port}`;
    ports = cluster.instances.map((instance) => (instance.app.server.address() as AddressInfo).port);
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await cluster.close();
  });

  const app = (index: number): FastifyInstance => cluster.instances[index]!.app;

  async function graphql(index: number, query: string, variables: Record<string, unknown>, cookie?: string) {
    const response = await call(app(index), 'POST', '/api/mobile-beef/graphql', {
      host,
      body: { query, variables },
      ...(cookie ? { cookie } : {}),
    });
    return response.json() as {
      data?: Record<string, Record<string, unknown>>;
      errors?: { extensions: { code: string } }[];
    };
  }

  async function enrolledSignIn(): Promise<{ who: TestTenant; device: TestDevice; cookie: string }> {
    const who = await newUser(cluster.t, { host, email: '', code: 'summit' });
    const first = await passwordSignIn(app(0), who);
    const { device } = await enrolDevice(cluster.t, host, first.cookie);
    const { cookie } = await passwordSignIn(app(1), who);
    return { who, device, cookie };
  }

  async function portalSocket(index: number, cookie: string): Promise<TestSocket> {
    const opened = await TestSocket.open(ports[index]!, host, { origin: `http://${host}`, cookie });
    if (!('socket' in opened)) throw new Error(`refused ${opened.refused}`);
    sockets.push(opened.socket);
    expect(await opened.socket.init()).toBe('ack');
    return opened.socket;
  }

  async function ask(index: number, cookie: string) {
    const asked = await graphql(index, documents.challenge, {}, cookie);
    return asked.data!.numberChallenge as { id: string; number: number };
  }

  it('delivers APPROVED promptly to a portal on instance 1 when the device answers on instance 2 (LISTEN/NOTIFY)', async () => {
    const { device, cookie } = await enrolledSignIn();
    const challenge = await ask(0, cookie);
    const portal = await portalSocket(0, cookie);
    portal.subscribe('o', documents.outcome, { challengeId: challenge.id });
    expect(await portal.nextData('o', 0)).toMatchObject({
      data: { numberChallengeOutcome: { status: 'PENDING' } },
    });
    const started = Date.now();
    const answered = await graphql(1, documents.answer, {
      answer: await device.answer(
        endpointOf(host),
        challenge.id,
        challenge.number,
        'approve',
        cluster.t.clock.now(),
      ),
    });
    expect(answered.data?.answerNumberChallenge).toMatchObject({ status: 'APPROVED' });
    expect(await portal.nextData('o', 1)).toMatchObject({
      data: { numberChallengeOutcome: { status: 'APPROVED' } },
    });
    // Promptly (events.test.ts shows the notification itself crossing instances at once).
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('still delivers the outcome when the notification is lost (the one-second poll)', async () => {
    const { device, cookie } = await enrolledSignIn();
    const challenge = await ask(1, cookie);
    const portal = await portalSocket(0, cookie);
    portal.subscribe('o', documents.outcome, { challengeId: challenge.id });
    await portal.nextData('o', 0);
    // Instance 2 answers with an event bus that reaches no other instance.
    const services = cluster.instances[1]!.services;
    const tenant = (await services.tenants.byCode('summit'))!;
    const silent = memoryEvents();
    await answerChallenge(
      {
        db: services.db,
        config: services.config,
        key: services.secrets.encryptionKey,
        clock: services.clock,
        events: silent,
        log: { info() {}, warn() {} },
      },
      tenant,
      {
        answer: await device.answer(
          endpointOf(host),
          challenge.id,
          challenge.number,
          'deny',
          cluster.t.clock.now(),
        ),
        audience: endpointOf(host),
      },
      cluster.t.clock.now(),
    );
    const outcome = (await portal.nextData('o', 1, 3000)).data as {
      numberChallengeOutcome: { status: string; retryAfterSeconds: number };
    };
    expect(outcome.numberChallengeOutcome.status).toBe('REJECTED');
    // The first wait is 10 s, counted from the answer: the poll may read it a second later.
    expect(outcome.numberChallengeOutcome.retryAfterSeconds).toBeGreaterThanOrEqual(8);
    expect(outcome.numberChallengeOutcome.retryAfterSeconds).toBeLessThanOrEqual(10);
  });

  it('accepts exactly one of 20 parallel answers to one challenge, spread over both instances', async () => {
    const { device, cookie } = await enrolledSignIn();
    const challenge = await ask(0, cookie);
    const answers = await Promise.all(
      Array.from({ length: 20 }, async (_, i) =>
        graphql(i % 2, documents.answer, {
          answer: await device.answer(
            endpointOf(host),
            challenge.id,
            challenge.number,
            'approve',
            cluster.t.clock.now(),
          ),
        }),
      ),
    );
    const approved = answers.filter((answer) => answer.data?.answerNumberChallenge);
    expect(approved).toHaveLength(1);
    const codes = answers.flatMap((answer) => answer.errors?.map((error) => error.extensions.code) ?? []);
    expect(codes).toHaveLength(19);
    expect(new Set(codes)).toEqual(new Set(['mobile.challenge_closed']));
  });

  it('uses an enrolment token once when 20 devices race to register with it on both instances', async () => {
    const who = await newUser(cluster.t, { host, email: '', code: 'summit' });
    const { cookie } = await passwordSignIn(app(0), who);
    const setup = await graphql(0, documents.setup, { replace: false }, cookie);
    const { enrolmentUri } = setup.data!.setupMasterDevice as { enrolmentUri: string };
    const devices = await Promise.all(Array.from({ length: 20 }, () => TestDevice.create()));
    const proofs = await Promise.all(
      devices.map((device) => device.enrolProof(enrolmentUri, cluster.t.clock.now())),
    );
    const results = await Promise.all(
      proofs.map((proof, i) => graphql(i % 2, documents.register, { proof })),
    );
    expect(results.filter((result) => result.data?.registerMasterDevice)).toHaveLength(1);
    const codes = new Set(
      results.flatMap((result) => result.errors?.map((error) => error.extensions.code) ?? []),
    );
    expect(codes).toEqual(new Set(['mobile.setup_timeout']));
    const user = await cluster.t.services.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', who.email)
      .executeTakeFirstOrThrow();
    const stored = await cluster.t.services.db
      .selectFrom('mobile_devices')
      .select('id')
      .where('user_id', '=', user.id)
      .execute();
    expect(stored).toHaveLength(1);
  });

  it('keeps one pending challenge for 20 parallel numberChallenge calls from four sessions on both instances', async () => {
    const { who } = await enrolledSignIn();
    const sessions = await Promise.all(Array.from({ length: 4 }, (_, i) => passwordSignIn(app(i % 2), who)));
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => graphql(i % 2, documents.challenge, {}, sessions[i % 4]!.cookie)),
    );
    const ids = new Set(
      results.flatMap((result) => (result.data ? [result.data.numberChallenge!.id as string] : [])),
    );
    expect(ids.size).toBe(1);
    const codes = new Set(
      results.flatMap((result) => result.errors?.map((error) => error.extensions.code) ?? []),
    );
    expect([...codes].every((code) => code === 'mobile.challenge_pending')).toBe(true);
    const user = await cluster.t.services.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', who.email)
      .executeTakeFirstOrThrow();
    const rows = await cluster.t.services.db
      .selectFrom('mobile_challenges')
      .select(['id', 'status'])
      .where('user_id', '=', user.id)
      .execute();
    expect(rows).toEqual([{ id: [...ids][0], status: 'PENDING' }]);
  });
});
