import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueMessage } from '../../platform/messaging/outbox.ts';
import { DAY } from '../../platform/shared/clock.ts';
import { issueToken } from '../../platform/shared/one-time-token.ts';
import { buildTestApp, call, engines, signIn, type TestApp } from '../../test/helper.ts';
import { recordActivity } from '../accounts/index.ts';
import { sweepExpired } from './janitor.ts';

describe.each(engines)('janitor on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(engine);
  });
  afterAll(() => t.close());

  it('removes expired sessions, tokens, limits and old sent mail, and keeps everything live', async () => {
    const { db } = t.services;
    const now = t.clock.now();
    const live = await signIn(t.app);
    await db
      .updateTable('sessions')
      .set({ expires_at: now - 1 })
      .where('id', '!=', '')
      .execute();
    const fresh = await signIn(t.app);
    await issueToken(db, { tenantCode: 'grand-hotel', userId: null, purpose: 'RESET', ttlMs: -2 * DAY }, now);
    const keep = await issueToken(
      db,
      { tenantCode: 'grand-hotel', userId: null, purpose: 'RESET', ttlMs: DAY },
      now,
    );
    await t.services.limiter.reserve('sweep:old', { limit: 5, windowMs: 1000, lockMs: 0 }, now - 10_000);
    const pending = await enqueueMessage(
      db,
      {
        tenantCode: 'grand-hotel',
        channel: 'email',
        recipient: 'a@b.test',
        template: 't',
        content: { subject: 's', html: 'h', text: 't' },
      },
      now - 30 * DAY,
    );
    const sent = await enqueueMessage(
      db,
      {
        tenantCode: 'grand-hotel',
        channel: 'email',
        recipient: 'a@b.test',
        template: 't',
        content: { subject: 's', html: 'h', text: 't' },
      },
      now - 30 * DAY,
    );
    await db
      .updateTable('outbox')
      .set({ status: 'sent', sent_at: now - 8 * DAY })
      .where('id', '=', sent)
      .execute();

    const result = await sweepExpired(db, now);
    expect(result.sessions).toBeGreaterThanOrEqual(1);
    expect(result.tokens).toBe(1);
    expect(result.attemptBuckets).toBeGreaterThanOrEqual(1);
    expect(result.messages).toBe(1);
    expect(result.analyticsEvents).toBe(0);
    expect(result.trustedDevices).toBe(0);

    expect((await call(t.app, 'GET', '/api/session', { cookie: live.cookie })).json().exists).toBe(false);
    expect((await call(t.app, 'GET', '/api/session', { cookie: fresh.cookie })).json().exists).toBe(true);
    const outbox = await db.selectFrom('outbox').select('id').execute();
    expect(outbox.map((row) => row.id)).toEqual([pending]);
    expect(keep).toBeTruthy();
    expect(
      await db.selectFrom('one_time_tokens').select('id').where('purpose', '=', 'RESET').execute(),
    ).toHaveLength(1);
  });

  it('removes mobile-app MFA rows past use and expired idempotency keys, and keeps live ones', async () => {
    const { db } = t.services;
    const now = t.clock.now();
    await db
      .insertInto('mobile_used_jtis')
      .values([
        { key: 'sweep-old', expires_at: now - 1 },
        { key: 'sweep-live', expires_at: now + 60_000 },
      ])
      .execute();
    await db
      .insertInto('idempotency_keys')
      .values([
        {
          id: 'sweep-old',
          tenant_code: 'grand-hotel',
          fingerprint: 'f',
          status: 200,
          body: '{}',
          claimed_at: now - 2 * DAY,
          expires_at: now - 1,
        },
        {
          id: 'sweep-live',
          tenant_code: 'grand-hotel',
          fingerprint: 'f',
          status: 200,
          body: '{}',
          claimed_at: now,
          expires_at: now + DAY,
        },
      ])
      .execute();
    const result = await sweepExpired(db, now);
    expect(result.mobile).toBeGreaterThanOrEqual(1);
    expect(result.idempotencyKeys).toBe(1);
    expect(
      (await db.selectFrom('mobile_used_jtis').select('key').where('key', 'like', 'sweep-%').execute()).map(
        (row) => row.key,
      ),
    ).toEqual(['sweep-live']);
    expect((await db.selectFrom('idempotency_keys').select('id').execute()).map((row) => row.id)).toContain(
      'sweep-live',
    );
  });

  it('forgets account activity after its 30 days and keeps the rest', async () => {
    const { db } = t.services;
    const now = t.clock.now();
    const user = await db
      .selectFrom('users')
      .select('id')
      .where('tenant_code', '=', 'grand-hotel')
      .executeTakeFirstOrThrow();
    const entry = { tenantCode: 'grand-hotel', userId: user.id, kind: 'sign-in' as const };
    await recordActivity(db, entry, now - 31 * DAY);
    await recordActivity(db, entry, now - 29 * DAY);
    const result = await sweepExpired(db, now);
    expect(result.activity).toBe(1);
    const left = await db
      .selectFrom('account_activity')
      .select('created_at')
      .where('user_id', '=', user.id)
      .execute();
    expect(left.map((row) => Number(row.created_at))).toContain(now - 29 * DAY);
    expect(left.every((row) => Number(row.created_at) > now - 30 * DAY)).toBe(true);
  });
});
