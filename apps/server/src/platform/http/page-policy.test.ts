import { describe, expect, it } from 'vitest';
import { isPageRequest, type PageSources, pageKindOf, pagePolicy } from './page-policy.ts';

/** A policy as its directives: name → sources. */
function directives(csp: string | undefined): Record<string, string[]> {
  return Object.fromEntries(
    (csp ?? '')
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name = '', ...sources]) => [name, sources]),
  );
}

const captcha: PageSources = {
  add: { 'script-src': ['https://captcha.example'], 'frame-src': ['https://captcha.example'] },
  alone: ['frame-src'],
};
const widget: PageSources = {
  add: { 'frame-src': ['https://widget.example'], 'media-src': ['https://cdn.example'] },
};

describe('pagePolicy', () => {
  it("adds a feature's sources to the directives a portal page has, in the features' order", () => {
    const csp = directives(
      pagePolicy({ kind: 'portal', sources: [captcha, widget] })['content-security-policy'],
    );
    expect(csp['script-src']).toEqual(["'self'", 'https://captcha.example']);
    // frame-src is the captcha's alone: only the features' frames, not default-src's 'self'.
    expect(csp['frame-src']).toEqual(['https://captcha.example', 'https://widget.example']);
    // Any other directive the base lacks starts from default-src, as a browser reads it.
    expect(csp['media-src']).toEqual(["'self'", 'https://cdn.example']);
    expect(csp['object-src']).toEqual(["'none'"]);
  });

  it('starts a missing directive from default-src when no feature asks for it alone', () => {
    const csp = directives(pagePolicy({ kind: 'portal', sources: [widget] })['content-security-policy']);
    expect(csp['frame-src']).toEqual(["'self'", 'https://widget.example']);
  });

  it('gives the provider, the console and the preview nothing of what features add', () => {
    for (const kind of ['provider', 'console', 'preview'] as const) {
      const csp = pagePolicy({ kind, sources: [captcha, widget] })['content-security-policy'];
      expect(csp, kind).not.toMatch(/captcha|widget|cdn/);
    }
  });

  it("allows the page's one inline style by its nonce, and says how it may be framed", () => {
    const preview = pagePolicy({ kind: 'preview', nonce: 'abc123' });
    expect(directives(preview['content-security-policy'])['style-src']).toEqual(["'self'", "'nonce-abc123'"]);
    expect(preview['x-frame-options']).toBe('SAMEORIGIN');
    expect(pagePolicy({ kind: 'portal' })['x-frame-options']).toBe('DENY');
  });

  it('adds HSTS only when the public URLs are https', () => {
    expect(pagePolicy({ kind: 'portal', https: true })['strict-transport-security']).toBe(
      'max-age=31536000; includeSubDomains',
    );
    expect(pagePolicy({ kind: 'portal' })['strict-transport-security']).toBeUndefined();
  });
});

describe('which answers are which pages', () => {
  it('tells the kind by address, the console and preview only on the operator host', () => {
    expect(pageKindOf('/oidc/auth', false)).toBe('provider');
    expect(pageKindOf('/console/tenants', true)).toBe('console');
    expect(pageKindOf('/console/tenants', false)).toBe('portal');
    expect(pageKindOf('/preview/login', true)).toBe('preview');
    expect(pageKindOf('/preview/login', false)).toBe('portal');
    expect(pageKindOf('/login', true)).toBe('portal');
  });

  it('widens only page requests: GET or HEAD, no API, provider, Keycard file or build file', () => {
    expect(isPageRequest('GET', '/login')).toBe(true);
    expect(isPageRequest('HEAD', '/reset-password/')).toBe(true);
    expect(isPageRequest('POST', '/login')).toBe(false);
    for (const path of [
      '/api/session',
      '/oidc/auth',
      '/_keycard/logout.js',
      '/assets/app.js',
      '/partners/p/sso/a.b',
    ]) {
      expect(isPageRequest('GET', path), path).toBe(false);
    }
  });
});
