import { describe, expect, it } from 'vitest';
import { isRecentSignIn, recentSignInMs } from './recent-sign-in.ts';

const now = Date.UTC(2026, 10, 27, 12);
const justNow = now - 60_000;
const longAgo = now - recentSignInMs - 1;

function session(overrides: Partial<Parameters<typeof isRecentSignIn>[0]> = {}) {
  return {
    provider: 'keycard',
    created_at: justNow,
    mfa_method: null,
    mfa_verified_at: null,
    reauthenticated_at: null,
    ...overrides,
  };
}

describe('a recent sign-in (five minutes, by passkey or by password and factor)', () => {
  it('is a password sign-in of an account without a factor, within five minutes', () => {
    expect(isRecentSignIn(session(), false, now)).toBe(true);
    expect(isRecentSignIn(session({ created_at: longAgo }), false, now)).toBe(false);
  });

  it('needs the factor too when the account has one', () => {
    expect(isRecentSignIn(session(), true, now)).toBe(false);
    expect(isRecentSignIn(session({ mfa_method: 'totp', mfa_verified_at: justNow }), true, now)).toBe(true);
    expect(isRecentSignIn(session({ mfa_method: 'totp', mfa_verified_at: longAgo }), true, now)).toBe(false);
  });

  it('is a passkey on its own, within five minutes', () => {
    const old = { created_at: longAgo, mfa_method: 'passkey-swk' };
    expect(isRecentSignIn(session({ ...old, mfa_verified_at: justNow }), true, now)).toBe(true);
    expect(isRecentSignIn(session({ ...old, mfa_verified_at: longAgo }), true, now)).toBe(false);
  });

  it('counts a password proven again on the account page', () => {
    const old = { created_at: longAgo, reauthenticated_at: justNow };
    expect(isRecentSignIn(session(old), false, now)).toBe(true);
    expect(isRecentSignIn(session({ ...old, mfa_method: 'sms', mfa_verified_at: justNow }), true, now)).toBe(
      true,
    );
  });

  it('does not take a partner sign-in as a password proven here', () => {
    expect(isRecentSignIn(session({ provider: 'authx' }), false, now)).toBe(false);
    expect(isRecentSignIn(session({ provider: 'authx', reauthenticated_at: justNow }), false, now)).toBe(
      true,
    );
  });

  it('does not count a factor alone, nor a time in the future of the window', () => {
    const factorOnly = { created_at: longAgo, mfa_method: 'totp', mfa_verified_at: justNow };
    expect(isRecentSignIn(session(factorOnly), true, now)).toBe(false);
  });
});
