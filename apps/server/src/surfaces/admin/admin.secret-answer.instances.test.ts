import {
  adminErrors,
  adminSecretAnswerResponse,
  adminUserListResponse,
  apiErrorSchema,
} from '@keycard/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../features/accounts/password.service.ts';
import { normalizeSecretAnswer } from '../../features/accounts/password-policy.ts';
import { findUserByEmail } from '../../features/accounts/user.repository.ts';
import { secretAnswerRule } from '../../features/admin/secret-answer.service.ts';
import { limitKeys } from '../../platform/security/limit-keys.ts';
import { type Cluster, twoInstances } from '../../test/instances.ts';
import { operatorToken } from './admin.test-support.ts';

/**
 * A help desk guessing a caller's secret answer with many requests at once, split over two
 * instances of one PostgreSQL database (and with the attempt store in Redis): each check is
 * counted before its hash is checked, so no more answers are checked than the allowance.
 */
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const setups: Array<[string, () => Promise<Cluster>]> = [
  ['PostgreSQL, two instances', () => twoInstances()],
  ['Redis store, two instances on PostgreSQL', () => twoInstances({ env: { REDIS_URL: redisUrl } })],
];

describe.each(setups)('secret-answer checks at once (%s)', (_name, setup) => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await setup();
  });
  afterAll(() => cluster.close());

  it('checks at most the allowance of 20 simultaneous wrong answers, and refuses the rest with 429', async () => {
    const { t } = cluster;
    const user = (await findUserByEmail(t.services.db, 'grand-hotel', 'demo@grand-hotel.test'))!;
    await t.services.db
      .updateTable('users')
      .set({
        secret_question: 'first-pet-name',
        secret_answer_hash: await hashPassword(normalizeSecretAnswer('Biscuit')),
      })
      .where('id', '=', user.id)
      .execute();
    const token = await operatorToken(t, 'parallel-desk', 'help_desk', ['grand-hotel']);
    const url = `${cluster.origin('admin')}/admin/api/v1/tenants/grand-hotel/users/${user.id}/secret-question/check`;
    const answers = await Promise.all(
      Array.from({ length: 20 }, async (_, index) => {
        const fetch = cluster.instances[index % cluster.instances.length]!.fetch;
        const response = await fetch(url, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ answer: `Guess ${index}` }),
        });
        return { status: response.status, headers: response.headers, body: await response.json() };
      }),
    );
    const checked = answers.filter((answer) => answer.status === 200);
    for (const answer of checked)
      expect(adminSecretAnswerResponse.parse(answer.body).result).toBe('mismatch');
    const refused = answers.filter((answer) => answer.status !== 200);
    for (const answer of refused) {
      expect(answer.status).toBe(429);
      expect(apiErrorSchema.parse(answer.body).code).toBe(adminErrors.rateLimited);
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    // The bucket drains 5 per quarter hour: a second at most adds nothing whole.
    expect(checked).toHaveLength(secretAnswerRule.limit);
    const audited = await t.services.db
      .selectFrom('audit_log')
      .select('id')
      .where('action', '=', 'user.check_secret_answer')
      .where('target_id', '=', user.id)
      .execute();
    expect(audited).toHaveLength(secretAnswerRule.limit);
    // Even the right answer waits now.
    const right = await cluster.instances[1]!.fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ answer: 'biscuit' }),
    });
    expect(right.status).toBe(429);
  });

  it('shows a lockout made on one instance in the other instance’s user list', async () => {
    const { t } = cluster;
    const token = await operatorToken(t, 'lock-viewer', 'help_desk', ['seaside']);
    // What the other instance's poll does within a second: it learns of the new operator.
    await cluster.instances[1]!.services.tenants.refresh();
    const rule = { limit: 1, windowMs: 60_000, lockMs: 60_000 };
    const key = limitKeys.loginEmail('seaside', 'demo@seaside.test');
    const at = t.clock.now();
    const first = cluster.instances[0]!.services.limiter;
    await first.reserve(key, rule, at);
    expect((await first.fail(key, rule, at)).locked).toBe(true);
    const listed = await cluster.instances[1]!.fetch(
      `${cluster.origin('admin')}/admin/api/v1/tenants/seaside/users?email=demo%40seaside.test`,
      { headers: { authorization: `Bearer ${token}` } },
    );
    const body = await listed.json();
    expect(listed.status, JSON.stringify(body)).toBe(200);
    const [user] = adminUserListResponse.parse(body).users;
    expect(user?.lockedUntil).toBe(at + 60_000);
    await first.clear(key);
  });
});
