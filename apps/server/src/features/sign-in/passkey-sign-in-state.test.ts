import { describe, expect, it } from 'vitest';
import { DAY } from '../../platform/shared/clock.ts';
import type { UserRow } from '../accounts/user.repository.ts';
import { defaultTenantSettings, type TenantContext } from '../tenants/tenant.types.ts';
import { acrOf, amrOf, isGrantSufficient, meetsAcrValues, signInMethodOfAmr } from './sign-in-state.ts';

/** How a passkey sign-in or check reads in the one sign-in decision (issue 18, docs/passkeys.md). */
const now = Date.UTC(2026, 10, 27, 12);
const tenant = {
  code: 't',
  settings: {
    ...defaultTenantSettings,
    passwordExpiryDays: 30,
    mfa: { ...defaultTenantSettings.mfa, mode: 'required' },
  },
} as TenantContext;
const expired = { password_changed_at: now - 60 * DAY } as UserRow;

const session = (provider: string, mfa_method: string | null, mfa_verified_at: number | null = now) => ({
  provider,
  mfa_method,
  mfa_verified_at: mfa_method === null ? null : mfa_verified_at,
});

describe('amr and acr of passkeys', () => {
  it.each([
    ['a device-bound passkey sign-in', session('passkey', 'passkey-hwk'), ['hwk', 'user', 'mfa'], 'phrh'],
    ['a synced passkey sign-in', session('passkey', 'passkey-swk'), ['swk', 'user', 'mfa'], 'phr'],
    ['a password, then a security key', session('keycard', 'passkey-hwk'), ['pwd', 'mfa', 'hwk'], 'phrh'],
    ['a password, then a synced passkey', session('keycard', 'passkey-swk'), ['pwd', 'mfa', 'swk'], 'phr'],
    ['a password and an authenticator app', session('keycard', 'totp'), ['pwd', 'mfa', 'otp'], undefined],
    ['a password alone', session('keycard', null), ['pwd'], undefined],
    [
      'a passkey sign-in checked again with an app',
      session('passkey', 'totp'),
      ['swk', 'user', 'mfa', 'otp'],
      undefined,
    ],
  ])('%s', (_name, row, amr, acr) => {
    expect(amrOf(row)).toEqual(amr);
    expect(acrOf(row)).toBe(acr);
  });

  it('acr_values phr is met by either passkey kind, phrh only by a device-bound one, and never by a password', () => {
    const hwk = session('keycard', 'passkey-hwk');
    const swk = session('passkey', 'passkey-swk');
    const otp = session('keycard', 'totp');
    expect([hwk, swk, otp].map((row) => meetsAcrValues(row, 'phr'))).toEqual([true, true, false]);
    expect([hwk, swk, otp].map((row) => meetsAcrValues(row, 'phrh'))).toEqual([true, false, false]);
    expect([hwk, swk, otp].map((row) => meetsAcrValues(row, 'phrh phr'))).toEqual([true, true, false]);
    expect(meetsAcrValues(otp, undefined)).toBe(true);
    expect(meetsAcrValues(otp, 'urn:example:silver')).toBe(true);
  });

  it("a passkey sign-in's refresh token is not stopped by the password's expiry; a password's is", () => {
    const account = { user: expired, mfaEnrolled: true };
    expect(signInMethodOfAmr(['hwk', 'user', 'mfa']).passwordUsed).toBe(false);
    expect(isGrantSufficient(tenant, account, ['hwk', 'user', 'mfa'], now)).toBe(true);
    expect(isGrantSufficient(tenant, account, ['swk', 'user', 'mfa'], now)).toBe(true);
    expect(isGrantSufficient(tenant, account, ['pwd', 'mfa', 'hwk'], now)).toBe(false);
    // The partner mobile app's swk comes after pwd: a password sign-in.
    expect(isGrantSufficient(tenant, account, ['pwd', 'mfa', 'swk'], now)).toBe(false);
  });
});
