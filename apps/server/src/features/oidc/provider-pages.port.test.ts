import { locales } from '@keycard/contract/user-state';
import { fillRedirectPortHint, redirectPortHint } from '@keycard/texts/provider-hints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, type TestApp } from '../../test/helper.ts';
import { portOnlyRedirectMismatch } from './provider-pages.ts';

describe('portOnlyRedirectMismatch', () => {
  const registered = ['http://admin.localhost:3000/console/callback', 'https://app.example.com/cb'];

  it('names the registered address a redirect differs from only in its port', () => {
    expect(portOnlyRedirectMismatch('http://admin.localhost:4000/console/callback', registered)).toEqual({
      requested: 'http://admin.localhost:4000/console/callback',
      registered: 'http://admin.localhost:3000/console/callback',
    });
    expect(portOnlyRedirectMismatch('https://app.example.com:8443/cb', registered)?.registered).toBe(
      'https://app.example.com/cb',
    );
  });

  it('says nothing for a registered address, another host, path, scheme or query, or no address', () => {
    for (const requested of [
      'http://admin.localhost:3000/console/callback',
      'http://evil.localhost:4000/console/callback',
      'http://admin.localhost:4000/console/other',
      'https://admin.localhost:4000/console/callback',
      'http://admin.localhost:4000/console/callback?x=1',
      'not a url',
      undefined,
      42,
    ]) {
      expect(portOnlyRedirectMismatch(requested, registered), String(requested)).toBeUndefined();
    }
  });
});

describe('redirectPortHint', () => {
  it.each(locales)('names both addresses in %s', (locale) => {
    expect(redirectPortHint[locale]).toContain('{{requested}}');
    expect(redirectPortHint[locale]).toContain('{{registered}}');
    if (locale !== 'en') expect(redirectPortHint[locale]).not.toBe(redirectPortHint.en);
  });
});

/** Issue 19: a redirect on another port is explained in words on the provider's error page. */
describe('the provider error page for a redirect on another port', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp('sqlite');
  });
  afterAll(() => t.close());

  const authorize = (redirectUri: string, extra: Record<string, string> = {}) =>
    call(
      t.app,
      'GET',
      `/oidc/auth?${new URLSearchParams({
        client_id: 'demo-app',
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: 'openid',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
        ...extra,
      })}`,
      { origin: null },
    );

  it('names the requested and the registered address, in the page’s language, and only for a port change', async () => {
    const page = await authorize('http://localhost:3999/callback');
    expect(page.statusCode).toBe(400);
    const addresses = {
      requested: 'http://localhost:3999/callback',
      registered: 'http://localhost:3001/callback',
    };
    expect(page.body).toContain(fillRedirectPortHint('en', addresses));
    expect(page.body).toContain('"portHint":{"requested":"http://localhost:3999/callback"');

    const german = await authorize('http://localhost:3999/callback', { ui_locales: 'de' });
    expect(german.body).toContain(fillRedirectPortHint('de', addresses));

    const elsewhere = await authorize('http://localhost:3999/other');
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.body).not.toContain('portHint');
    expect(elsewhere.body).not.toContain('3001');
  });
});
