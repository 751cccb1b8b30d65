import type { UserIdentity } from '@keycard/contract';
import { describe, expect, it } from 'vitest';
import { DAY } from '../../platform/shared/clock.ts';
import type { UserRow } from '../accounts/user.repository.ts';
import { effectiveMfaMode, type MfaFacts, mfaRequiredByRemainingInDays } from '../factors/mfa-policy.ts';
import type { SessionRow } from '../sessions/session.service.ts';
import { defaultTenantSettings, type TenantContext } from '../tenants/tenant.types.ts';
import {
  amrOf,
  isGrantSufficient,
  isSignInComplete,
  passwordExpiryInDays,
  passwordSignIn,
  signInMethodOf,
  signInOf,
  userStateOf,
} from './sign-in-state.ts';

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

  it("never claims a password for a partner sign-in: 'fed', then the factor", () => {
    expect(amrOf({ provider: 'authx', mfa_method: null, mfa_verified_at: null })).toEqual(['fed']);
    expect(amrOf({ provider: 'authx', mfa_method: 'totp', mfa_verified_at: now })).toEqual([
      'fed',
      'mfa',
      'otp',
    ]);
    expect(amrOf({ provider: 'keycard', mfa_method: null, mfa_verified_at: null })).toEqual(['pwd']);
  });
});

describe('a partner (authx) sign-in', () => {
  const session = (provider: string, mfaVerifiedAt: number | null = null) =>
    ({ provider, mfa_method: mfaVerifiedAt ? 'totp' : null, mfa_verified_at: mfaVerifiedAt }) as SessionRow;
  const expiring = (passwordChangedAt: number) =>
    ({ ...user, password_changed_at: passwordChangedAt, email_verified: 1 }) as UserRow;
  const withExpiry: TenantContext = {
    ...tenant(),
    settings: { ...tenant().settings, passwordExpiryDays: 90, passwordWarningDays: 14 },
  };

  it('is under the tenant MFA policy unless its partner skips it; an enrolled factor is always asked', () => {
    const required = tenant({ mode: 'required' });
    const stateOf = (
      partner: { skipMfa: boolean } | null,
      enrolled: boolean,
      verifiedAt: number | null = null,
    ) => signInOf(required, session('authx', verifiedAt), user, enrolled, now, partner).identity.state;
    expect(stateOf({ skipMfa: false }, false)).toBe('MFA_REGISTRATION_REQUIRED');
    expect(stateOf(null, false), 'a partner that is gone skips nothing').toBe('MFA_REGISTRATION_REQUIRED');
    expect(stateOf({ skipMfa: true }, false)).toBe('AUTHENTICATED');
    expect(stateOf({ skipMfa: true }, true)).toBe('MFA_VERIFICATION_REQUIRED');
    expect(stateOf({ skipMfa: true }, true, now)).toBe('AUTHENTICATED');
    // skipMfa belongs to partner sign-ins only.
    expect(signInMethodOf(session('keycard'), { skipMfa: true })).toEqual(passwordSignIn);
  });

  it('is not held up by an expired password it never used, nor warned about it', () => {
    const expired = expiring(now - 100 * DAY);
    expect(signInOf(withExpiry, session('keycard'), expired, false, now).identity.state).toBe(
      'PASSWORD_EXPIRED',
    );
    const partner = signInOf(withExpiry, session('authx'), expired, false, now, { skipMfa: false });
    expect(partner.identity).toMatchObject({ state: 'AUTHENTICATED', passwordExpiryInDays: null });
    expect(partner.complete).toBe(true);
  });

  it('keeps its tokens valid by the same rules (the amr tells a partner sign-in)', () => {
    const expired = { user: expiring(now - 100 * DAY), mfaEnrolled: false };
    expect(isGrantSufficient(withExpiry, expired, ['pwd'], now)).toBe(false);
    expect(isGrantSufficient(withExpiry, expired, ['fed'], now)).toBe(true);
    const required = tenant({ mode: 'required' });
    const fresh = { user, mfaEnrolled: false };
    expect(isGrantSufficient(required, fresh, ['fed'], now)).toBe(false);
    expect(
      isGrantSufficient(required, fresh, ['fed'], now, { passwordUsed: false, skipMfaPolicy: true }),
    ).toBe(true);
  });
});

describe('days until a password expires', () => {
  const sevenDays: TenantContext = {
    ...tenant(),
    settings: { ...tenant().settings, passwordExpiryDays: 7, passwordWarningDays: 7 },
  };
  const changed = (ago: number) => ({ ...user, password_changed_at: now - ago }) as UserRow;
  const daysLeft = (ago: number) => passwordExpiryInDays(sevenDays, changed(ago), now);
  const MINUTE = 60_000;

  it('counts a 7-day expiry set two minutes ago as 7 days, and down to today', () => {
    expect(daysLeft(2 * MINUTE)).toBe(7);
    expect(daysLeft(0)).toBe(7);
    expect(daysLeft(DAY + 2 * MINUTE)).toBe(6);
    expect(daysLeft(6 * DAY - 2 * MINUTE), 'a day and two minutes left is tomorrow').toBe(1);
    expect(daysLeft(7 * DAY - 2 * MINUTE), 'two minutes left is today').toBe(0);
  });

  it('is below zero once the password has expired, which makes the state PASSWORD_EXPIRED', () => {
    expect(daysLeft(7 * DAY)).toBe(-1);
    expect(daysLeft(7 * DAY + MINUTE)).toBe(-1);
    const facts: MfaFacts = { enrolled: false, mode: 'off' };
    expect(userStateOf(sevenDays, changed(7 * DAY + MINUTE), { mfaPassed: false }, now, facts)).toBe(
      'PASSWORD_EXPIRED',
    );
    expect(userStateOf(sevenDays, changed(7 * DAY - MINUTE), { mfaPassed: false }, now, facts)).toBe(
      'AUTHENTICATED',
    );
  });
});
