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
    expect(firstView(status({}))).toBe('choose');
    expect(firstView(status({ methods: ['smmobile', 'totp'] }))).toBe('mobile');
    expect(setUpView(status({ methods: ['totp', 'smmobile'] }))).toBe('choose');
  });

  it('opens a recommended registration where a required one opens (issue 19 item 12)', () => {
    const recommended = { state: 'MFA_REGISTRATION_RECOMMENDED', canSkip: true } as const;
    expect(firstView(status(recommended))).toBe('choose');
    expect(firstView(status({ ...recommended, methods: ['smmobile', 'totp'] }))).toBe('mobile');
  });

  it('asks for the code at sign-in', () => {
    expect(firstView(status({ state: 'MFA_VERIFICATION_REQUIRED' }))).toBe('verify');
  });

  it('manages an enrolled factor once signed in, or sets one up when there is none', () => {
    const factor = { deliveryType: 'totp' } as MfaStatusResponse['factor'];
    expect(firstView(status({ state: 'AUTHENTICATED', factor }))).toBe('manage');
    expect(firstView(status({ state: 'AUTHENTICATED', factor: null }))).toBe('choose');
  });
});
