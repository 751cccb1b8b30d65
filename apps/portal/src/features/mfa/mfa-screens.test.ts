import type { MfaStatusResponse } from '@keycard/contract/mfa';
import { describe, expect, it } from 'vitest';
import { firstView, setUpView } from './use-mfa-screens.ts';

function status(overrides: Partial<MfaStatusResponse>): MfaStatusResponse {
  return {
    state: 'MFA_REGISTRATION_REQUIRED',
    methods: ['totp', 'sms', 'voice'],
    factor: null,
    canSkip: false,
    trustedDeviceDays: 30,
    ...overrides,
  } as MfaStatusResponse;
}

describe('the first MFA screen', () => {
  it('asks to register, starting with the partner app when the tenant lists it first', () => {
    expect(firstView(status({}), false)).toBe('choose');
    expect(firstView(status({ methods: ['smmobile', 'totp'] }), false)).toBe('mobile');
    expect(setUpView(status({ methods: ['totp', 'smmobile'] }))).toBe('choose');
  });

  it('reminds first when registration is only recommended, unless asked to set up again', () => {
    expect(firstView(status({ state: 'MFA_REGISTRATION_RECOMMENDED' }), false)).toBe('reminder');
    expect(firstView(status({ state: 'MFA_REGISTRATION_RECOMMENDED' }), true)).toBe('choose');
  });

  it('asks for the code at sign-in', () => {
    expect(firstView(status({ state: 'MFA_VERIFICATION_REQUIRED' }), false)).toBe('verify');
  });

  it('manages an enrolled factor once signed in, or sets one up when there is none', () => {
    const factor = { deliveryType: 'totp' } as MfaStatusResponse['factor'];
    expect(firstView(status({ state: 'AUTHENTICATED', factor }), false)).toBe('manage');
    expect(firstView(status({ state: 'AUTHENTICATED', factor: null }), false)).toBe('choose');
  });
});
