import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, engines, type TestApp } from '../../test/helper.ts';
import { enrolTotp, mfaCall, newUser, passwordSignIn, type TestTenant, totpAt } from './mfa.test-support.ts';

/**
 * Invariant 7 for the second factor: ten wrong guesses lock code checks for the user for the
 * full 15 minutes from the guess that reached the limit — the right code and a recovery code
 * included — and guesses spread across a wall-clock boundary count together.
 */
const attempts = 10;
const lockMs = 15 * 60_000;

describe.each(engines)('MFA code checks under attack on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(engine);
  });
  afterAll(() => t.close());

  const verify = (who: TestTenant, cookie: string, code: string) =>
    mfaCall(t, who, 'POST', '/api/mfa/verify', cookie, { code, deliveryType: 'totp' });
  const recover = (who: TestTenant, cookie: string, recoveryCode: string) =>
    mfaCall(t, who, 'POST', '/api/mfa/verify', cookie, { recoveryCode });

  /** A code that is not the right one at any nearby time step. */
  async function wrongCode(secret: string): Promise<string> {
    const good = Number(await totpAt(secret, t.clock.now()));
    return String((good + 500_000) % 1_000_000).padStart(6, '0');
  }

  /** An enrolled user, signed in again with the password only (MFA verification required). */
  async function enrolledUser() {
    const who = await newUser(t);
    const { secret, recoveryCodes } = await enrolTotp(t, who, (await passwordSignIn(t.app, who)).cookie);
    const { cookie, identity } = await passwordSignIn(t.app, who);
    expect(identity.state).toBe('MFA_VERIFICATION_REQUIRED');
    return { who, secret, recoveryCodes, cookie };
  }

  /** Moves the clock to `ms` before the next 15-minute wall-clock boundary. */
  function toBeforeBoundary(ms: number): number {
    const now = t.clock.now();
    let boundary = Math.ceil(now / lockMs) * lockMs;
    if (boundary - ms - now < 1000) boundary += lockMs;
    t.clock.advance(boundary - ms - now);
    return boundary;
  }

  const advanceTo = (moment: number) => t.clock.advance(moment - t.clock.now());
  const rateLimited = { statusCode: 429, code: 'mfa.rate_limited' };
  const answer = (response: { statusCode: number; json(): { code?: string } }) => ({
    statusCode: response.statusCode,
    code: response.json().code,
  });

  it('locks code checks for the full 15 minutes from the tenth wrong code, right codes included', async () => {
    const { who, secret, recoveryCodes, cookie } = await enrolledUser();
    // Locked 30 s before a 15-minute boundary: a lock tied to clock-aligned windows would end
    // at the boundary.
    const boundary = toBeforeBoundary(30_000);
    for (let i = 0; i < attempts - 1; i++) {
      expect(answer(await verify(who, cookie, await wrongCode(secret)))).toEqual({
        statusCode: 400,
        code: 'mfa.code_invalid',
      });
    }
    // The tenth wrong code fills the allowance: it is answered with the lock at once.
    expect(answer(await verify(who, cookie, await wrongCode(secret)))).toEqual(rateLimited);
    const lockedAt = t.clock.now();
    expect(answer(await verify(who, cookie, await totpAt(secret, t.clock.now())))).toEqual(rateLimited);
    expect(answer(await recover(who, cookie, recoveryCodes[0]!))).toEqual(rateLimited);

    advanceTo(boundary + 1000);
    expect(answer(await verify(who, cookie, await totpAt(secret, t.clock.now())))).toEqual(rateLimited);
    // Two seconds before the period ends: still refused, whatever the proof.
    advanceTo(lockedAt + lockMs - 2000);
    const late = await verify(who, cookie, await totpAt(secret, t.clock.now()));
    expect(answer(late)).toEqual(rateLimited);
    expect(Number(late.json().fields.retryAfterSeconds)).toBeLessThanOrEqual(2);
    expect(answer(await recover(who, cookie, recoveryCodes[1]!))).toEqual(rateLimited);
    // At the end of the period the right code passes, and a recovery code in another session.
    advanceTo(lockedAt + lockMs);
    const passed = await verify(who, cookie, await totpAt(secret, t.clock.now()));
    expect(passed.statusCode).toBe(200);
    expect(passed.json().state).toBe('AUTHENTICATED');
    const other = await passwordSignIn(t.app, who);
    const recovered = await recover(who, other.cookie, recoveryCodes[2]!);
    expect(recovered.statusCode).toBe(200);
    expect(recovered.json().state).toBe('AUTHENTICATED');
  });

  it('locks on 12 wrong codes in 12 s spread across a 15-minute wall-clock boundary', async () => {
    const { who, secret, recoveryCodes, cookie } = await enrolledUser();
    toBeforeBoundary(6000);
    const codes: string[] = [];
    for (let i = 0; i < 12; i++) {
      codes.push((await verify(who, cookie, await wrongCode(secret))).json().code);
      t.clock.advance(1000);
    }
    expect(codes).toEqual([
      ...Array(attempts - 1).fill('mfa.code_invalid'),
      ...Array(3).fill('mfa.rate_limited'),
    ]);
    expect(answer(await verify(who, cookie, await totpAt(secret, t.clock.now())))).toEqual(rateLimited);
    expect(answer(await recover(who, cookie, recoveryCodes[0]!))).toEqual(rateLimited);
  });
});
