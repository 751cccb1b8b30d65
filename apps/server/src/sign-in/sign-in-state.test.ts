import type { UserIdentity } from '@keycard/contract';
import { describe, expect, it } from 'vitest';
import type { UserRow } from '../accounts/user.repository.ts';
import { effectiveMfaMode, type MfaFacts, mfaRequiredByRemainingInDays } from '../mfa/mfa-policy.ts';
import { DAY } from '../shared/clock.ts';
import { defaultTenantSettings, type TenantContext } from '../tenants/tenant.types.ts';
import { amrOf, isSignInComplete, userStateOf } from './sign-in-state.ts';

const now = Date.UTC(2026, 10, 23, 12);

function tenant(mfa: Partial<TenantContext['settings']['mfa']> = {}): TenantContext {
  return {
    code: 't',
    aliasCode: null,
    loginDomain: 't.localhost',
    loginClientId: 'app',
    theme: {} as TenantContext['theme'],
    defaultRedirectUri: 'http://app/',
    settings: { ...defaultTenantSettings, mfa: { ...defaultTenantSettings.mfa, ...mfa } },
    allowedRedirects: new Set(),
  };
}
const user = { password_changed_at: now } as UserRow;

describe('the MFA part of the sign-in state (invariant 1)', () => {
  const cases: Array<[string, MfaFacts, number | null, string]> = [
    ['off, not enrolled', { enrolled: false, mode: 'off' }, null, 'AUTHENTICATED'],
    [
      'recommended, not enrolled',
      { enrolled: false, mode: 'recommended' },
      null,
      'MFA_REGISTRATION_RECOMMENDED',
    ],
    ['required, not enrolled', { enrolled: false, mode: 'required' }, null, 'MFA_REGISTRATION_REQUIRED'],
    ['off, enrolled, no check', { enrolled: true, mode: 'off' }, null, 'MFA_VERIFICATION_REQUIRED'],
    ['required, enrolled, no check', { enrolled: true, mode: 'required' }, null, 'MFA_VERIFICATION_REQUIRED'],
    ['required, enrolled, checked', { enrolled: true, mode: 'required' }, now, 'AUTHENTICATED'],
    [
      'required, not enrolled, checked',
      { enrolled: false, mode: 'required' },
      now,
      'MFA_REGISTRATION_REQUIRED',
    ],
  ];
  it.each(cases)('%s → %s', (_name, facts, mfaVerifiedAt, expected) => {
    expect(userStateOf(tenant(), user, { mfaPassed: mfaVerifiedAt !== null }, now, facts)).toBe(expected);
  });

  it('hands a session to apps only when MFA is passed or merely recommended', () => {
    const identity = (state: string) => ({ state, emailVerificationRequired: false }) as UserIdentity;
    expect(isSignInComplete(identity('AUTHENTICATED'))).toBe(true);
    expect(isSignInComplete(identity('MFA_REGISTRATION_RECOMMENDED'))).toBe(true);
    expect(isSignInComplete(identity('MFA_REGISTRATION_REQUIRED'))).toBe(false);
    expect(isSignInComplete(identity('MFA_VERIFICATION_REQUIRED'))).toBe(false);
  });

  it('turns recommended into required at the mandatory date, counting whole days up', () => {
    const soon = tenant({ mode: 'recommended', mandatoryFrom: now + 2 * DAY + 1 });
    expect(effectiveMfaMode(soon, now)).toBe('recommended');
    expect(mfaRequiredByRemainingInDays(soon, now)).toBe(3);
    expect(effectiveMfaMode(soon, now + 2 * DAY + 1)).toBe('required');
    expect(mfaRequiredByRemainingInDays(soon, now + 2 * DAY + 1)).toBe(0);
    expect(mfaRequiredByRemainingInDays(tenant({ mode: 'recommended' }), now)).toBeNull();
    expect(mfaRequiredByRemainingInDays(tenant({ mode: 'off' }), now)).toBeNull();
    expect(mfaRequiredByRemainingInDays(tenant({ mode: 'required' }), now)).toBe(0);
  });
});

describe('amr of a session (RFC 8176)', () => {
  it('names the password, and after MFA the factor used', () => {
    expect(amrOf({ mfa_method: null, mfa_verified_at: null })).toEqual(['pwd']);
    expect(amrOf({ mfa_method: 'totp', mfa_verified_at: now })).toEqual(['pwd', 'mfa', 'otp']);
    expect(amrOf({ mfa_method: 'sms', mfa_verified_at: now })).toEqual(['pwd', 'mfa', 'sms']);
    expect(amrOf({ mfa_method: 'voice', mfa_verified_at: now })).toEqual(['pwd', 'mfa', 'tel']);
    expect(amrOf({ mfa_method: 'recovery', mfa_verified_at: now })).toEqual(['pwd', 'mfa', 'otp']);
    expect(amrOf({ mfa_method: 'device', mfa_verified_at: now })).toEqual(['pwd', 'mfa']);
  });
});
