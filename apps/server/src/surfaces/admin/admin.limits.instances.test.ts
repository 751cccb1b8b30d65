import { adminErrors, adminMeResponse, apiErrorSchema } from '@keycard/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, oneInstance, twoInstances } from '../../test/instances.ts';
import { operatorToken } from './admin.test-support.ts';

/**
 * The admin API's per-operator limit over real HTTP, 700 requests at once split over the
 * instances (issue 16: two PostgreSQL instances answered 649–700 where at most about 615 may).
 * Each request's time is taken when it begins and its reservation commits whenever its turn
 * comes, so commits arrive out of time order; the buckets never go back in time, so no interval
 * is drained twice and at most `limit + rate × elapsed + 1` requests are answered.
 */
const perOperator = 600;
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const env = { ADMIN_RATE_LIMIT_PER_MINUTE: String(perOperator) };

const setups: Array<[string, () => Promise<Cluster>]> = [
  ['SQLite, one instance', () => oneInstance('sqlite', { env })],
  ['PostgreSQL, two instances', () => twoInstances({ env })],
  ['Redis store, two instances on PostgreSQL', () => twoInstances({ env: { ...env, REDIS_URL: redisUrl } })],
];

describe.each(setups)('admin API per-operator limit under 700 parallel requests (%s)', (_name, setup) => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await setup();
  });
  afterAll(() => cluster.close());

  it('answers at most limit + rate × elapsed + 1, and refuses the rest with an honest 429', async () => {
    const token = await operatorToken(cluster.t, 'parallel-owner', 'owner');
    const url = `${cluster.origin('admin')}/admin/api/v1/me`;
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 700 }, async (_, index) => {
        const fetch = cluster.instances[index % cluster.instances.length]!.fetch;
        const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
        return { status: response.status, headers: response.headers, body: await response.json() };
      }),
    );
    const elapsed = Date.now() - started;
    const answered = answers.filter((answer) => answer.status === 200);
    for (const answer of answered) adminMeResponse.parse(answer.body);
    const refused = answers.filter((answer) => answer.status !== 200);
    for (const answer of refused) {
      expect(answer.status).toBe(429);
      expect(apiErrorSchema.parse(answer.body).code).toBe(adminErrors.rateLimited);
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    expect(answered.length).toBeGreaterThanOrEqual(perOperator);
    expect(answered.length).toBeLessThanOrEqual(
      perOperator + Math.floor((elapsed * perOperator) / 60_000) + 1,
    );
  });
});
