import type Provider from 'oidc-provider';
import { describe, expect, it } from 'vitest';
import { earliestAcceptedAuthentication } from './interaction.service.ts';

type Interaction = InstanceType<Provider['Interaction']>;
const request = (params: Record<string, unknown>, iat = 1_800_000_000) =>
  ({ iat, params }) as unknown as Interaction;

describe('the freshness an app asks for (OpenID Connect Core §3.1.2.1)', () => {
  it('accepts any sign-in when the app asks for nothing', () => {
    expect(earliestAcceptedAuthentication(request({}))).toBeNull();
    expect(earliestAcceptedAuthentication(request({ prompt: 'consent' }))).toBeNull();
  });

  it('asks prompt=login for a password entered after the request, never within its second', () => {
    const earliest = earliestAcceptedAuthentication(request({ prompt: 'login consent' }))!;
    // The provider records the request in whole seconds: a session from that same second
    // (even from later within it) is not fresh.
    expect(earliest).toBe(1_800_000_001_000);
    expect(1_800_000_000_999 >= earliest).toBe(false);
  });

  it('takes max_age in seconds before the request, and the stricter of both', () => {
    expect(earliestAcceptedAuthentication(request({ max_age: 300 }))).toBe(1_800_000_001_000 - 300_000);
    expect(earliestAcceptedAuthentication(request({ max_age: '0' }))).toBe(1_800_000_001_000);
    expect(earliestAcceptedAuthentication(request({ max_age: 300, prompt: 'login' }))).toBe(
      1_800_000_001_000,
    );
    expect(earliestAcceptedAuthentication(request({ max_age: 'soon' }))).toBeNull();
  });
});
