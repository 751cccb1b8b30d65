import { apiErrorSchema, loginLimitFields, loginResponse } from '@keycard/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../../test/helper.ts';
import { type Cluster, oneInstance, twoInstances } from '../../test/instances.ts';
import { activeUser, uniqueEmail } from '../accounts/test-support.ts';

/**
 * The wait a refused sign-in is told is the wait that applies (issue 16: twenty simultaneous
 * right passwords for one account were told `retryAfterSeconds: 180` while an immediate retry
 * worked). The account's bucket held the other sign-ins still being checked, which gave their
 * count back a moment later; a refusal now waits for them to settle before it answers.
 */
const state = 'state-0123456789abcdef';
// Each sign-in from an address of its own, the per-address limit out of reach: only the
// account's bucket (LOGIN_MAX_FAILURES = 5 at once) is in play.
const env = { TRUST_PROXY: 'true', LOGIN_IP_LIMIT_PER_MINUTE: '100000' };
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

const setups: Array<[string, () => Promise<Cluster>]> = [
  ['SQLite, one instance', () => oneInstance('sqlite', { env })],
  ['PostgreSQL, two instances', () => twoInstances({ env })],
  ['Redis store, two instances on PostgreSQL', () => twoInstances({ env: { ...env, REDIS_URL: redisUrl } })],
];

describe.each(setups)('simultaneous right passwords for one account (%s)', (_name, setup) => {
  let cluster: Cluster;
  let origin: string;
  beforeAll(async () => {
    cluster = await setup();
    origin = cluster.origin('grand-hotel');
  });
  afterAll(() => cluster.close());

  async function signIn(i: number, email: string) {
    const response = await cluster.instances[i % cluster.instances.length]!.fetch(`${origin}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin, 'x-forwarded-for': `10.9.0.${i + 1}` },
      body: JSON.stringify({ email, password: demo.password, state }),
    });
    return { status: response.status, body: (await response.json()) as unknown };
  }

  it('signs in all twenty, and any refusal names a wait that holds', async () => {
    const email = uniqueEmail('twenty');
    await activeUser(cluster.t, email, demo.password);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => signIn(i, email)));
    for (const [i, answer] of answers.entries()) {
      if (answer.status === 200) {
        loginResponse.parse(answer.body);
        continue;
      }
      expect(answer.status).toBe(429);
      const error = apiErrorSchema.parse(answer.body);
      const { retryAfterSeconds } = loginLimitFields.parse(error.fields);
      // Before the wait it names, a retry is refused; once it has passed, a retry works.
      expect((await signIn(i, email)).status).toBe(429);
      cluster.t.clock.advance(Number(retryAfterSeconds) * 1000);
      expect((await signIn(i, email)).status).toBe(200);
    }
    // Nothing refused them: every one was the owner's right password.
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
  });
});
