import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../platform/config.ts';

describe('MOBILE_APP_ORIGINS', () => {
  it('defaults to the reference device app outside production, and to none in production', () => {
    expect(loadConfig({ NODE_ENV: 'development' }).mobileAppOrigins).toEqual(['http://localhost:3003']);
    const production = loadConfig({
      NODE_ENV: 'production',
      COOKIE_SECRET: 'x'.repeat(32),
      ENCRYPTION_KEY: 'a'.repeat(64),
      DATABASE_URL: 'postgres://keycard@db/keycard',
    });
    expect(production.mobileAppOrigins).toEqual([]);
  });

  it('takes a comma list of origins and refuses anything that is not an origin', () => {
    expect(
      loadConfig({ MOBILE_APP_ORIGINS: 'https://app.example, http://localhost:3003' }).mobileAppOrigins,
    ).toEqual(['https://app.example', 'http://localhost:3003']);
    for (const bad of ['app.example', 'https://app.example/path', 'https://app.example/', '*']) {
      expect(() => loadConfig({ MOBILE_APP_ORIGINS: bad }), bad).toThrow(ConfigError);
    }
    expect(() => loadConfig({ MOBILE_APP_ORIGINS: 'nope' })).toThrow(/MOBILE_APP_ORIGINS/);
  });
});
