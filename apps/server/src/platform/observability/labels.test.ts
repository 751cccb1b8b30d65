import { describe, expect, it } from 'vitest';
import { limitKeys, limitNameOf } from '../security/limit-keys.ts';
import { boundedCode } from './metrics.ts';
import { observabilitySettings } from './settings.ts';
import { knownCode, mfaMethodOf } from './sign-in-steps.ts';

describe('metric labels', () => {
  it('name every limit of limitKeys without its tenant, address, e-mail or id', () => {
    const secret = 'someone@example.com';
    const names = new Set<string>();
    for (const [builder, build] of Object.entries(limitKeys)) {
      const key = (build as (...values: string[]) => string)(secret, secret, secret);
      const name = limitNameOf(key);
      expect(name, builder).not.toBe('other');
      expect(name, builder).not.toContain('example');
      names.add(name);
    }
    // Each builder is a limit of its own (the phone's hour and day included).
    expect(names.size).toBe(Object.keys(limitKeys).length);
    expect(limitNameOf('made:elsewhere:someone@example.com')).toBe('other');
  });

  it('keep error codes and MFA methods to known values', () => {
    expect(knownCode('login.invalid_credentials')).toBe('login.invalid_credentials');
    expect(knownCode('someone@example.com')).toBe('other');
    expect(knownCode(undefined)).toBe('other');
    expect(boundedCode('push.unregistered:UNREGISTERED')).toBe('push.unregistered');
    expect(boundedCode('smtp: 550 no such user someone@example.com')).toBe('other');
    expect(mfaMethodOf('mfa_verify', { code: '123456', deliveryType: 'sms' })).toBe('sms');
    expect(mfaMethodOf('mfa_verify', { code: '123456', deliveryType: 'someone@example.com' })).toBe(
      'unknown',
    );
    expect(mfaMethodOf('mfa_verify', { recoveryCode: 'x' })).toBe('recovery_code');
    expect(mfaMethodOf('mfa_verify', { challengeId: 'x' })).toBe('smmobile');
    expect(mfaMethodOf('passkey_verify', {})).toBe('passkey');
  });

  it('read the operator settings, refusing what cannot work', () => {
    expect(observabilitySettings({})).toEqual({
      metricsPort: undefined,
      metricsHost: 'localhost',
      metricsToken: undefined,
      tenantLabel: false,
    });
    expect(
      observabilitySettings({ METRICS_PORT: '9464', HOST: '0.0.0.0', METRICS_TENANT_LABEL: 'true' }),
    ).toMatchObject({ metricsPort: 9464, metricsHost: '0.0.0.0', tenantLabel: true });
    expect(() => observabilitySettings({ METRICS_PORT: '3000', PORT: '3000' })).toThrow(/METRICS_PORT/);
    expect(() => observabilitySettings({ METRICS_PORT: 'abc' })).toThrow(/METRICS_PORT/);
    expect(() => observabilitySettings({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
    expect(() => observabilitySettings({ METRICS_TENANT_LABEL: 'yes' })).toThrow(/METRICS_TENANT_LABEL/);
  });
});
