import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY } from '../../platform/shared/clock.ts';
import { buildTestApp, call, demo, engines, signIn, type TestApp } from '../../test/helper.ts';
import { inviteUser } from '../accounts/invitation.service.ts';
import { activeUser, mailsTo, tenantOf, uniqueEmail } from '../accounts/test-support.ts';
import { lastPhoneMessage, mfaCall, newUser, passwordSignIn, summit } from '../mfa/mfa.test-support.ts';

const password = 'Idempotent-key-1';

describe.each(engines)('idempotency keys on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(engine, { env: { LOGIN_IP_LIMIT_PER_MINUTE: '10000', TRUST_PROXY: 'true' } });
  });
  afterAll(() => t.close());

  // Each test speaks from its own client address, so the per-address mail limit stays away.
  let ip = 0;
  const fromNewIp = () => `10.9.0.${++ip}`;

  const resetPath = (email: string) => `/api/user/${encodeURIComponent(email)}/reset-password`;
  function requestReset(
    email: string,
    key: string | undefined,
    options: { ip?: string; host?: string; body?: unknown } = {},
  ) {
    return call(t.app, 'POST', resetPath(email), {
      body: options.body ?? {},
      ...(options.host ? { host: options.host } : {}),
      headers: { 'x-forwarded-for': options.ip ?? fromNewIp(), ...(key ? { 'idempotency-key': key } : {}) },
    });
  }
  const resetMails = async (email: string) =>
    (await mailsTo(t, email)).filter((mail) => mail.template === 'account.reset');

  it('sends one reset mail for 20 concurrent requests with one key, and all 20 get the same answer', async () => {
    const email = uniqueEmail('concurrent');
    await activeUser(t, email, password);
    const key = randomUUID();
    const address = fromNewIp();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => requestReset(email, key, { ip: address })),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
    expect(answers.map((a) => a.json())).toEqual(Array(20).fill({ state: 'reset' }));
    expect(answers.filter((a) => a.headers['idempotent-replayed'] === 'true')).toHaveLength(19);
    expect(await resetMails(email)).toHaveLength(1);
  });

  it('replays the answer to a repeat (a gateway retry) without a second mail; a new key is a new request', async () => {
    const email = uniqueEmail('retried');
    await activeUser(t, email, password);
    const key = randomUUID();
    const first = await requestReset(email, key);
    const retry = await requestReset(email, key);
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toEqual(first.json());
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(await resetMails(email)).toHaveLength(1);

    // The control: without idempotency the same request does send again.
    expect((await requestReset(email, randomUUID())).statusCode).toBe(200);
    expect((await requestReset(email, undefined)).statusCode).toBe(200);
    expect(await resetMails(email)).toHaveLength(3);
  });

  it('keeps a key for 24 hours, then forgets it', async () => {
    const email = uniqueEmail('expiring');
    await activeUser(t, email, password);
    const key = randomUUID();
    await requestReset(email, key);
    t.clock.advance(DAY - 60_000);
    expect((await requestReset(email, key)).headers['idempotent-replayed']).toBe('true');
    t.clock.advance(2 * 60_000);
    const late = await requestReset(email, key);
    expect(late.statusCode).toBe(200);
    expect(late.headers['idempotent-replayed']).toBeUndefined();
    expect(await resetMails(email)).toHaveLength(2);
  });

  it('scopes a key by address and tenant: the same key elsewhere replays nothing', async () => {
    const key = randomUUID();
    const one = uniqueEmail('scope-one');
    const two = uniqueEmail('scope-two');
    await activeUser(t, one, password);
    await activeUser(t, two, password);
    const seasideEmail = uniqueEmail('scope-seaside', 'seaside.test');
    await activeUser(t, seasideEmail, password, { tenantCode: 'seaside' });
    await requestReset(one, key);
    const other = await requestReset(two, key);
    const otherTenant = await requestReset(seasideEmail, key, { host: demo.seaside.host });
    expect(other.headers['idempotent-replayed']).toBeUndefined();
    expect(otherTenant.headers['idempotent-replayed']).toBeUndefined();
    expect(await resetMails(one)).toHaveLength(1);
    expect(await resetMails(two)).toHaveLength(1);
    expect(await resetMails(seasideEmail)).toHaveLength(1);
  });

  it('refuses a key reused for another request, and a malformed key', async () => {
    const email = uniqueEmail('reused');
    await activeUser(t, email, password);
    const key = randomUUID();
    await requestReset(email, key);
    const reused = await requestReset(email, key, { body: { recaptchaToken: 'another-request' } });
    expect(reused.statusCode).toBe(422);
    expect(reused.json().code).toBe('idempotency.key_reused');
    for (const bad of ['short', 'x'.repeat(129), 'has spaces in it 0123', '<script>alert(1)</script>']) {
      const answer = await requestReset(email, bad);
      expect(answer.statusCode, bad).toBe(400);
      expect(answer.json().code).toBe('idempotency.key_invalid');
    }
    expect(await resetMails(email)).toHaveLength(1);
  });

  it('stores no failed answer: a refused request may be retried with its key', async () => {
    const email = uniqueEmail('refused');
    await activeUser(t, email, password);
    const key = randomUUID();
    const address = fromNewIp();
    // Spend the per-address mail limit from this client, so the keyed request is refused…
    let refused = await requestReset(uniqueEmail('filler'), undefined, { ip: address });
    for (let i = 0; i < 50 && refused.statusCode !== 429; i++) {
      refused = await requestReset(uniqueEmail('filler'), undefined, { ip: address });
    }
    expect(refused.statusCode).toBe(429);
    const keyed = await requestReset(email, key, { ip: address });
    expect(keyed.statusCode).toBe(429);
    // …and the same key from a fresh address runs for real.
    const retried = await requestReset(email, key);
    expect(retried.statusCode).toBe(200);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect(await resetMails(email)).toHaveLength(1);
  });

  it('stores the answer, never the address or the key in the clear', async () => {
    const email = uniqueEmail('stored');
    await activeUser(t, email, password);
    const key = randomUUID();
    await requestReset(email, key);
    const rows = await t.services.db.selectFrom('idempotency_keys').selectAll().execute();
    const text = JSON.stringify(rows);
    expect(text).not.toContain(email);
    expect(text).not.toContain(key);
    expect(rows.some((row) => row.body === JSON.stringify({ state: 'reset' }))).toBe(true);
  });

  it('sends one activation mail for 20 concurrent resends with one key', async () => {
    const email = uniqueEmail('invited');
    await inviteUser(t.services, await tenantOf(t), { email, type: 'staff', locale: 'en' }, t.clock.now());
    const key = randomUUID();
    const address = fromNewIp();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        call(t.app, 'POST', `/api/user/${encodeURIComponent(email)}/resend-activation`, {
          body: {},
          headers: { 'x-forwarded-for': address, 'idempotency-key': key },
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
    const activation = (await mailsTo(t, email)).filter((mail) => mail.template === 'account.activation');
    expect(activation).toHaveLength(2); // the invitation and one resend
  });

  it('sends one verification mail for 20 concurrent requests with one key, per session', async () => {
    const email = uniqueEmail('verify');
    await activeUser(t, email, password, { emailVerificationRequired: true });
    const { cookie } = await signIn(t.app, { ...demo.grandHotel, email }, password);
    const key = randomUUID();
    const send = (sessionCookie: string) =>
      call(t.app, 'POST', `/api/user/${encodeURIComponent(email)}/send-verification`, {
        cookie: sessionCookie,
        headers: { 'idempotency-key': key },
      });
    const answers = await Promise.all(Array.from({ length: 20 }, () => send(cookie)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
    const verifyMails = async () =>
      (await mailsTo(t, email)).filter((mail) => mail.template === 'account.verify-email');
    expect(await verifyMails()).toHaveLength(1);
    // Another session of the same user (another browser) does not share the key.
    const other = await signIn(t.app, { ...demo.grandHotel, email }, password);
    expect((await send(other.cookie)).headers['idempotent-replayed']).toBeUndefined();
    expect(await verifyMails()).toHaveLength(2);
  });

  it('sends one SMS for 20 concurrent register-phone requests with one key; all get the first answer', async () => {
    const who = await newUser(t, summit);
    const { cookie } = await passwordSignIn(t.app, who);
    const key = randomUUID();
    const body = { countryCode: '+49', phoneNumber: '015123459001', deliveryType: 'sms' };
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        call(t.app, 'POST', '/api/mfa/register-phone', {
          host: who.host,
          cookie,
          body,
          headers: { 'idempotency-key': key },
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    const messages = await t.services.db
      .selectFrom('outbox')
      .select('id')
      .where('recipient', '=', '+4915123459001')
      .execute();
    expect(messages).toHaveLength(1);
  });

  it('sends one code for 20 concurrent send-phone-code requests with one key, where duplicates were refused before', async () => {
    const who = await newUser(t, summit);
    const { cookie } = await passwordSignIn(t.app, who);
    const start = await mfaCall(t, who, 'POST', '/api/mfa/register-phone', cookie, {
      countryCode: '+49',
      phoneNumber: '015123459002',
      deliveryType: 'sms',
    });
    expect(start.statusCode).toBe(200);
    t.clock.advance(31_000); // past the resend interval
    const key = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        call(t.app, 'POST', '/api/mfa/send-phone-code', {
          host: who.host,
          cookie,
          body: { deliveryType: 'voice' },
          headers: { 'idempotency-key': key },
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
    const messages = await t.services.db
      .selectFrom('outbox')
      .select(['id', 'channel'])
      .where('recipient', '=', '+4915123459002')
      .execute();
    expect(messages.map((m) => m.channel).sort()).toEqual(['sms', 'voice']);
    expect((await lastPhoneMessage(t.services.db, '+4915123459002'))?.row.channel).toBe('voice');
  });
});
