import { describe, expect, it } from 'vitest';
import { defaultTenantSettings, type TenantContext } from '../tenants/tenant.types.ts';
import { cspWithSources, messengerConfigOf, messengerSettingsOf } from './messenger.ts';

function tenantWith(messenger: Partial<TenantContext['settings']['messenger']>): TenantContext {
  return {
    settings: { ...defaultTenantSettings, messenger: { ...defaultTenantSettings.messenger, ...messenger } },
  } as TenantContext;
}

describe('messenger settings', () => {
  const standin = {
    provider: 'standin' as const,
    domains: ['a.localhost'],
    scriptUrl: 'http://127.0.0.1:9/m.js',
  };

  it('refuses the stand-in in production, so a test double never reaches real pages', () => {
    expect(messengerSettingsOf(tenantWith(standin), { env: 'test' })?.provider).toBe('standin');
    expect(messengerSettingsOf(tenantWith(standin), { env: 'production' })).toBeNull();
    expect(messengerConfigOf(messengerSettingsOf(tenantWith(standin), { env: 'production' }))).toEqual({
      provider: null,
      appId: null,
      domains: [],
      scriptUrl: null,
    });
  });

  it('is off without a provider, a domain, an Intercom app id, or a usable stand-in script', () => {
    const env = { env: 'test' as const };
    expect(messengerSettingsOf(tenantWith({}), env)).toBeNull();
    expect(
      messengerSettingsOf(tenantWith({ provider: 'intercom', appId: 'x1', domains: [] }), env),
    ).toBeNull();
    expect(
      messengerSettingsOf(tenantWith({ provider: 'intercom', domains: ['a.localhost'] }), env),
    ).toBeNull();
    expect(messengerSettingsOf(tenantWith({ ...standin, scriptUrl: 'javascript:alert(1)' }), env)).toBeNull();
    expect(messengerSettingsOf(tenantWith({ ...standin, scriptUrl: null }), env)).toBeNull();
  });

  it("builds Intercom's documented widget URL from the app id, escaped", () => {
    const settings = messengerSettingsOf(
      tenantWith({ provider: 'intercom', appId: 'ab/../c', domains: ['a.localhost'] }),
      { env: 'production' },
    );
    expect(settings?.scriptUrl).toBe('https://widget.intercom.io/widget/ab%2F..%2Fc');
  });
});

describe('cspWithSources', () => {
  it('appends to present directives and adds missing ones over self', () => {
    expect(
      cspWithSources("default-src 'self'; script-src 'self'; object-src 'none'", {
        'script-src': ['https://a.example'],
        'media-src': ['https://b.example'],
      }),
    ).toBe(
      "default-src 'self'; script-src 'self' https://a.example; object-src 'none'; media-src 'self' https://b.example",
    );
  });
});
