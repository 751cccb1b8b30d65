import { apiErrorSchema, type LoginLimitFields, loginLimitFields } from '@keycard/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, engines, type TestApp } from '../../test/helper.ts';
import { activeUser, uniqueEmail } from '../accounts/test-support.ts';

const password = 'Anchor-bay-2020';
const state = 'state-0123456789abcdef';

/** A refused attempt's answer, checked against the contract: which limit, and for how long. */
function limitOf(answer: LightMyRequestResponse): LoginLimitFields {
  expect(answer.statusCode).toBe(429);
  const body = apiErrorSchema.parse(answer.json());
  expect(body.code).toBe('login.too_many_attempts');
  return loginLimitFields.parse(body.fields);
}

/**
 * `login.too_many_attempts` says which limit refused (docs/security.md "Attempt limits"), so the
 * portal can say "from your network" or "this account is locked", and says so without telling
 * anyone whether an account exists.
 */
describe.each(engines)('which login limit refused, on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(engine, {
      env: { TRUST_PROXY: 'true', LOGIN_IP_LIMIT_PER_MINUTE: '5', LOGIN_MAX_FAILURES: '3' },
    });
  });
  afterAll(() => t.close());

  let client = 0;
  /** A client address of its own for each test (the per-address limit is 5 a minute here). */
  const newAddress = () => {
    client += 1;
    return `10.7.${(client >> 8) & 255}.${client & 255}`;
  };
  const login = (email: string, secret: string, address: string) =>
    call(t.app, 'POST', '/api/login', {
      body: { email, password: secret, state },
      headers: { 'x-forwarded-for': address },
    });

  it('names the account lockout, with the full period, for known and unknown addresses alike', async () => {
    const known = uniqueEmail('locked');
    const unknown = uniqueEmail('nobody');
    await activeUser(t, known, password);
    const answers: Record<string, LightMyRequestResponse[]> = { [known]: [], [unknown]: [] };
    for (const email of [known, unknown]) {
      // Each guess from an address of its own: only the account's lockout can refuse.
      for (let i = 0; i < 3; i++) answers[email]!.push(await login(email, `Wrong-${i}-a`, newAddress()));
      answers[email]!.push(await login(email, password, newAddress()));
    }
    for (const email of [known, unknown]) {
      const [first, second, third, fourth] = answers[email]!;
      expect([first!.statusCode, second!.statusCode]).toEqual([401, 401]);
      // The failure that fills the bucket locks for the whole period (15 minutes) from then on.
      expect(limitOf(third!)).toEqual({ limit: 'account', retryAfterSeconds: '900' });
      const refused = limitOf(fourth!);
      expect(refused.limit).toBe('account');
      expect(Number(refused.retryAfterSeconds)).toBeGreaterThanOrEqual(899);
      expect(Number(refused.retryAfterSeconds)).toBeLessThanOrEqual(900);
    }
    // The known and the unknown address got the same answers, field for field.
    const shape = (list: LightMyRequestResponse[]) =>
      list.map((answer) => ({
        status: answer.statusCode,
        code: answer.json().code,
        limit: answer.json().fields?.limit,
      }));
    expect(shape(answers[known]!)).toEqual(shape(answers[unknown]!));
  });

  it('names the address limit, not the account, once one address has made too many attempts', async () => {
    const address = newAddress();
    const known = uniqueEmail('owner');
    await activeUser(t, known, password);
    for (let i = 0; i < 5; i++)
      expect((await login(uniqueEmail('guess'), 'Wrong-1-a', address)).statusCode).toBe(401);
    // The sixth attempt within the minute is refused before any account is looked up: for an
    // account that exists, with its right password, and for one that does not, the same answer.
    const forKnown = limitOf(await login(known, password, address));
    const forUnknown = limitOf(await login(uniqueEmail('ghost'), password, address));
    for (const fields of [forKnown, forUnknown]) {
      expect(fields.limit).toBe('address');
      // The allowance drains continuously: one attempt's room comes back within 12 s (60 s / 5).
      expect(Number(fields.retryAfterSeconds)).toBeGreaterThanOrEqual(1);
      expect(Number(fields.retryAfterSeconds)).toBeLessThanOrEqual(12);
    }
    // The account itself is not locked: from another address its owner signs in.
    expect((await login(known, password, newAddress())).statusCode).toBe(200);
    // And once the address's allowance has drained, it may try again.
    t.clock.advance(61_000);
    expect((await login(known, password, address)).statusCode).toBe(200);
  });

  it('answers a burst from one address to many accounts with the address limit, never "account locked"', async () => {
    const address = newAddress();
    const emails = Array.from({ length: 24 }, (_, i) => uniqueEmail(`burst-${i}`));
    // Half of them have accounts: the answers must not tell which.
    for (const email of emails.slice(0, 12)) await activeUser(t, email, password);
    const answers = await Promise.all(emails.map((email) => login(email, 'Wrong-burst-a', address)));
    const checked = answers.filter((answer) => answer.statusCode === 401);
    const refused = answers.filter((answer) => answer.statusCode === 429);
    // Exactly the address's allowance was checked; every other attempt was refused as the
    // address's, none as an account lockout (no account had more than one guess).
    expect(checked).toHaveLength(5);
    expect(refused).toHaveLength(19);
    for (const answer of refused) expect(limitOf(answer).limit).toBe('address');
    for (const answer of checked) expect(answer.json().code).toBe('login.invalid_credentials');
  });
});
