import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, engines, sessionCookieOf, type TestApp } from '../../test/helper.ts';
import { defaultPasswordHashing, usePasswordHashing } from '../accounts/password.service.ts';
import { activeUser, lastMailTo, tokenIn, uniqueEmail } from '../accounts/test-support.ts';

const password = 'Anchor-bay-2020';
const state = 'state-0123456789abcdef';

/**
 * Someone who knows only an e-mail address cannot lock its owner out of the browsers the
 * owner signs in with, nor use what was checked before a credential change afterwards, nor
 * tell from timing which addresses have accounts (docs/security.md).
 */
describe.each(engines)('the lockout cannot be turned against the owner on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(engine, { env: { TRUST_PROXY: 'true', LOGIN_IP_LIMIT_PER_MINUTE: '1000' } });
  });
  afterAll(() => t.close());

  let address = 0;
  /** POST /api/login from a client address of its own, with the browser's cookies. */
  function login(email: string, secret: string, cookie?: string) {
    address += 1;
    return call(t.app, 'POST', '/api/login', {
      body: { email, password: secret, state },
      headers: { 'x-forwarded-for': `10.9.${(address >> 8) & 255}.${address & 255}` },
      ...(cookie ? { cookie } : {}),
    });
  }

  /** A full password sign-in in a browser; answers the cookies it keeps. */
  async function signInBrowser(email: string, secret = password) {
    const answer = await login(email, secret);
    expect(answer.statusCode).toBe(200);
    const authenticate = await call(t.app, 'POST', '/api/authenticate', {
      body: { code: answer.json().code, tenantCode: 'grand-hotel' },
    });
    expect(authenticate.statusCode).toBe(200);
    const known = authenticate.cookies.find((cookie) => cookie.name === 'AUTH_X_BROWSER');
    return { known, session: sessionCookieOf(authenticate)! };
  }

  async function lockOut(email: string) {
    for (let i = 0; i < 5; i++) await login(email, `Wrong-guess-${i}`);
    expect((await login(email, password)).json().code).toBe('login.too_many_attempts');
  }

  it('keeps a browser that signed in before out of a lock set by guesses elsewhere', async () => {
    const email = uniqueEmail('owner');
    await activeUser(t, email, password);
    const { known } = await signInBrowser(email);
    expect(known).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(known!.maxAge).toBe(365 * 24 * 60 * 60);

    await lockOut(email);
    // The owner's browser is counted apart: the right password goes through.
    const owner = await login(email, password, `AUTH_X_BROWSER=${known!.value}`);
    expect(owner.statusCode).toBe(200);
    // A browser it does not know, or a token of another account, stays locked out.
    expect((await login(email, password, 'AUTH_X_BROWSER=forged-token')).statusCode).toBe(429);
    const other = uniqueEmail('other');
    await activeUser(t, other, password);
    const { known: othersBrowser } = await signInBrowser(other);
    expect((await login(email, password, `AUTH_X_BROWSER=${othersBrowser!.value}`)).statusCode).toBe(429);
  });

  it("gives a known browser its own five guesses, not the address's", async () => {
    const email = uniqueEmail('own-bucket');
    await activeUser(t, email, password);
    const { known } = await signInBrowser(email);
    const cookie = `AUTH_X_BROWSER=${known!.value}`;
    for (let i = 0; i < 4; i++) expect((await login(email, `Wrong-${i}`, cookie)).statusCode).toBe(401);
    expect((await login(email, 'Wrong-4', cookie)).json().code).toBe('login.too_many_attempts');
    expect((await login(email, password, cookie)).statusCode).toBe(429);
    // The address itself was not touched by the browser's guesses.
    expect((await login(email, password)).statusCode).toBe(200);
  });

  it('forgets the known browsers, and voids unredeemed login codes, when the password is reset', async () => {
    const email = uniqueEmail('reset');
    await activeUser(t, email, password);
    const { known } = await signInBrowser(email);
    // A code checked with the old password, not yet redeemed.
    const pending = (await login(email, password)).json().code as string;

    await call(t.app, 'POST', `/api/user/${encodeURIComponent(email)}/reset-password`, { body: {} });
    const reset = await call(t.app, 'PATCH', '/api/user', {
      body: { token: tokenIn(await lastMailTo(t, email, 'account.reset')), password: 'Brand-new-pass-7' },
    });
    expect(reset.statusCode).toBe(200);

    const late = await call(t.app, 'POST', '/api/authenticate', {
      body: { code: pending, tenantCode: 'grand-hotel' },
    });
    expect(late.statusCode).toBe(400);
    expect(late.json().code).toBe('authenticate.code_invalid');
    await lockOut(email);
    expect((await login(email, 'Brand-new-pass-7', `AUTH_X_BROWSER=${known!.value}`)).statusCode).toBe(429);
  });

  it('voids a login code whose password changed between the check and the redemption', async () => {
    const email = uniqueEmail('raced');
    const user = await activeUser(t, email, password);
    const pending = (await login(email, password)).json().code as string;
    await t.services.db
      .updateTable('users')
      .set({ password_changed_at: t.clock.now() + 1 })
      .where('id', '=', user.id)
      .execute();
    const late = await call(t.app, 'POST', '/api/authenticate', {
      body: { code: pending, tenantCode: 'grand-hotel' },
    });
    expect(late.json().code).toBe('authenticate.code_invalid');
  });
});

describe('hashes made before a parameter change', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp('sqlite', { env: { TRUST_PROXY: 'true', LOGIN_IP_LIMIT_PER_MINUTE: '1000' } });
  });
  afterAll(async () => {
    usePasswordHashing(defaultPasswordHashing);
    await t.close();
  });

  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

  it('do not make a wrong password answer faster than for an unknown address (no enumeration)', async () => {
    usePasswordHashing({ memoryKib: 19_456, iterations: 2, parallelism: 1 });
    const legacy: string[] = [];
    for (let i = 0; i < 9; i++) {
      legacy.push(uniqueEmail('legacy'));
      await activeUser(t, legacy[i]!, password);
    }
    usePasswordHashing(defaultPasswordHashing);
    const timed = async (email: string, n: number) => {
      const started = performance.now();
      const answer = await call(t.app, 'POST', '/api/login', {
        body: { email, password: 'Not-the-password-1', state },
        headers: { 'x-forwarded-for': `10.8.0.${n}` },
      });
      expect(answer.statusCode).toBe(401);
      return performance.now() - started;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    // Interleaved, one attempt per address (no lockout in the way).
    for (let i = 0; i < legacy.length; i++) {
      known.push(await timed(legacy[i]!, 2 * i));
      unknown.push(await timed(uniqueEmail('nobody'), 2 * i + 1));
    }
    // Without the dummy check alongside, the old hash answers in about a quarter of the time.
    expect(median(known)).toBeGreaterThan(0.7 * median(unknown));
  });
});
