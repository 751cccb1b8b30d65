import { adminClientSecretResponse, adminErrors, apiErrorSchema } from '@keycard/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretRotationWindowMs } from '../../features/admin/clients.service.ts';
import { engines } from '../../test/helper.ts';
import { type Cluster, instancesFor } from '../../test/instances.ts';
import { operatorToken } from './admin.test-support.ts';

/**
 * Rotations of one client's secret at once, spread over two instances on one PostgreSQL
 * database (one instance on SQLite). The invariant: every secret Keycard answers works — a
 * rotation either answers a secret that authenticates the client, or fails and changes
 * nothing. Within the rotation window the first rotation stands and the others get 409.
 */
describe.each(engines)('simultaneous secret rotations on %s', (engine) => {
  let cluster: Cluster;
  let token: string;
  beforeAll(async () => {
    cluster = await instancesFor(engine, { env: { ADMIN_RATE_LIMIT_PER_MINUTE: '10000' } });
    token = await operatorToken(cluster.t, 'rotation-owner', 'owner');
  });
  afterAll(() => cluster.close());

  /** RFC 7009 revocation needs only the client's authentication: 200, or 401 for a wrong secret. */
  async function authenticates(secret: string): Promise<boolean> {
    const answer = await cluster.instances[0]!.fetch(
      `${cluster.origin('grand-hotel')}/oidc/token/revocation`,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`demo-app:${secret}`).toString('base64')}`,
        },
        body: 'token=not-a-token',
      },
    );
    if (answer.status !== 200 && answer.status !== 401) throw new Error(`revocation: ${answer.status}`);
    return answer.status === 200;
  }

  function rotate(instance: number) {
    return cluster.instances[instance % cluster.instances.length]!.fetch(
      `${cluster.origin('admin')}/admin/api/v1/tenants/grand-hotel/clients/demo-app/secret`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{}',
      },
    );
  }

  it('answers only secrets that work when twenty rotations run at once', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, (_, index) => rotate(index)));
    const secrets: string[] = [];
    for (const answer of answers) {
      const body = await answer.json();
      if (answer.status === 200) {
        secrets.push(adminClientSecretResponse.parse(body).secret!);
        continue;
      }
      expect(answer.status).toBe(409);
      const error = apiErrorSchema.parse(body);
      expect(error.code).toBe(adminErrors.secretRotatedRecently);
      expect(Number(error.fields?.retryAfterSeconds)).toBeGreaterThanOrEqual(1);
    }
    expect(secrets).toHaveLength(1);
    // The providers on both instances pick up the new secret within their poll.
    await Promise.all(cluster.instances.map((instance) => instance.services.tenants.refresh()));
    for (const secret of secrets) expect(await authenticates(secret)).toBe(true);
    expect(await authenticates('demo-app-secret')).toBe(false);
    const entries = await cluster.t.services.db
      .selectFrom('audit_log')
      .select('id')
      .where('action', '=', 'client.rotate_secret')
      .where('target_id', '=', 'demo-app')
      .execute();
    expect(entries).toHaveLength(1);

    // Once the window has passed a rotation is made again, and the older secret stops working.
    cluster.t.clock.advance(secretRotationWindowMs + 1);
    const later = await rotate(1);
    expect(later.status).toBe(200);
    const { secret } = adminClientSecretResponse.parse(await later.json());
    await Promise.all(cluster.instances.map((instance) => instance.services.tenants.refresh()));
    expect(await authenticates(secret!)).toBe(true);
    expect(await authenticates(secrets[0]!)).toBe(false);
  });
});
