import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, demo, signIn, type TestApp } from '../../test/helper.ts';
import { type Cluster, twoInstances } from '../../test/instances.ts';
import { verifyPassword } from '../accounts/index.ts';
import { activeUser, mailsTo, uniqueEmail } from '../accounts/test-support.ts';

/**
 * The account page's changes raced on two instances over one PostgreSQL database: of password
 * changes made with the same current password exactly one wins (the others are told the current
 * password is wrong), "sign out everywhere" ends each other session once, and password changes
 * racing sign-outs from other sessions leave no session of the old password behind.
 */
// Room for every request at once: the limits are tested elsewhere, the races here.
const env = { LOGIN_IP_LIMIT_PER_MINUTE: '100000', HASHING_QUEUE_LENGTH: '1000', LOGIN_MAX_FAILURES: '100' };

describe('account page changes raced on two instances (PostgreSQL)', () => {
  let cluster: Cluster;
  let t: TestApp;
  let origin: string;
  let grand: typeof demo.grandHotel;
  beforeAll(async () => {
    cluster = await twoInstances({ env });
    t = cluster.t;
    origin = cluster.origin('grand-hotel');
    grand = { ...demo.grandHotel, host: new URL(origin).host };
  });
  afterAll(() => cluster.close());

  async function account() {
    const email = uniqueEmail('race');
    await activeUser(t, email, demo.password);
    return email;
  }

  /** A request through the i-th instance, as the account page in a browser makes it. */
  async function send(i: number, method: string, path: string, cookie: string, body?: unknown) {
    const instance = cluster.instances[i % cluster.instances.length]!;
    const response = await instance.fetch(`${origin}${path}`, {
      method,
      headers: { cookie, origin, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  }

  async function storedHash(email: string): Promise<string> {
    const row = await t.services.db
      .selectFrom('users')
      .select('password_hash')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    return row.password_hash ?? '';
  }

  async function liveSessions(email: string): Promise<number> {
    const row = await t.services.db
      .selectFrom('sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('u.email', '=', email)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  it('lets exactly one of 20 password changes with the same current password win', async () => {
    const email = await account();
    const { cookie } = await signIn(t.app, { ...grand, email });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        send(i, 'POST', '/api/account/password', cookie, {
          currentPassword: demo.password,
          newPassword: `Raced-password-${i}x`,
        }),
      ),
    );
    const winners = answers.flatMap((answer, i) => (answer.status === 200 ? [i] : []));
    expect(winners).toHaveLength(1);
    for (const answer of answers.filter((a) => a.status !== 200)) {
      expect(answer).toMatchObject({ status: 400, body: { code: 'account.current_password_invalid' } });
    }
    const hash = await storedHash(email);
    expect(await verifyPassword(hash, `Raced-password-${winners[0]}x`)).toBe(true);
    expect(await verifyPassword(hash, demo.password)).toBe(false);
    // One change, one mail, one entry in the history.
    const mails = (await mailsTo(t, email)).filter((m) => m.template === 'security.password-changed');
    expect(mails).toHaveLength(1);
    const history = await t.services.db
      .selectFrom('password_history')
      .innerJoin('users', 'users.id', 'password_history.user_id')
      .select('password_history.id')
      .where('users.email', '=', email)
      .execute();
    expect(history.length).toBeLessThanOrEqual(2);
    expect((await call(t.app, 'GET', '/api/account', { host: grand.host, cookie })).statusCode).toBe(200);
  });

  it('ends each other session once when 30 "sign out everywhere" race', async () => {
    const email = await account();
    for (let i = 0; i < 10; i++) await signIn(t.app, { ...grand, email });
    const { cookie } = await signIn(t.app, { ...grand, email });
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => send(i, 'DELETE', '/api/account/sessions', cookie)),
    );
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    expect(answers.reduce((sum, answer) => sum + Number(answer.body.ended), 0)).toBe(10);
    expect(await liveSessions(email)).toBe(1);
  });

  it('leaves no session of the old password when changes race sign-outs from other sessions', async () => {
    for (let round = 0; round < 3; round++) {
      const email = await account();
      const sessions: string[] = [];
      for (let i = 0; i < 20; i++) sessions.push((await signIn(t.app, { ...grand, email })).cookie);
      const answers = await Promise.all(
        sessions.map((cookie, i) =>
          i % 2 === 0
            ? send(i, 'POST', '/api/account/password', cookie, {
                currentPassword: demo.password,
                newPassword: `Raced-password-${i}x`,
              })
            : send(i, 'DELETE', '/api/account/sessions', cookie),
        ),
      );
      const changes = answers.filter((answer, i) => i % 2 === 0 && answer.status === 200);
      expect(changes.length).toBeLessThanOrEqual(1);
      for (const answer of answers) expect([200, 400, 401]).toContain(answer.status);
      // Whatever the order, at most one session is left, and it is one whose request went through.
      const alive: number[] = [];
      for (const [i, cookie] of sessions.entries()) {
        const session = await call(t.app, 'GET', '/api/session', { host: grand.host, cookie });
        if (session.json().exists) alive.push(i);
      }
      expect(alive.length).toBeLessThanOrEqual(1);
      for (const i of alive) expect(answers[i]?.status).toBe(200);
      if (changes.length === 1) {
        // The password changed: no session that signed in with the old one may remain but the changer's.
        const winner = answers.findIndex((answer, i) => i % 2 === 0 && answer.status === 200);
        for (const i of alive) expect(i).toBe(winner);
      }
    }
  });
});
