import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

const dist =
  process.env.PORTAL_DIST ??
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/portal/dist');

/** Everything the browser must fetch before the login page can render: entry, preloads, CSS. */
function loginRouteFiles(): string[] {
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const refs = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
  return [...new Set(refs)];
}

describe('login route bundle budget', () => {
  // Issue 11 set 100 kB; on Preact (docs/architecture.md) the route is 24 kB. Issue 17 brought it
  // back under its 24.82 kB baseline, to 24.07 kB (docs/performance.md), and the budget sits just
  // above that: React (69 kB) coming back, a library slipping in, or another flow's code reaching
  // the entry fails here.
  it('keeps the JavaScript and CSS needed for the login page within 24.5 kB gzipped', () => {
    const files = loginRouteFiles();
    expect(files.some((f) => f.endsWith('.js'))).toBe(true);
    const sizes = files.map((file) => {
      const bytes = readFileSync(path.join(dist, file));
      return { file, raw: statSync(path.join(dist, file)).size, gzip: gzipSync(bytes, { level: 9 }).length };
    });
    const total = sizes.reduce((sum, s) => sum + s.gzip, 0);
    expect(total, JSON.stringify(sizes, null, 1)).toBeLessThanOrEqual(24.5 * 1024);
  });

  it('keeps zod and the other flows out of the login route', () => {
    const code = loginRouteFiles()
      .filter((f) => f.endsWith('.js'))
      .map((f) => readFileSync(path.join(dist, f), 'utf8'))
      .join('\n');
    expect(code).not.toContain('ZodError');
    expect(code).not.toContain('otpauth://');
    // English texts of the MFA and account flows come with those flows' chunks.
    expect(code).not.toContain('Two-step verification');
    // Passkeys: the WebAuthn library and the ceremonies load when a passkey is offered, in
    // chunks of their own (docs/passkeys.md); the route carries only the button and its texts.
    expect(code).not.toContain('ERROR_CEREMONY_ABORTED');
    expect(code).not.toContain('WebAuthnAbortService');
    expect(code).toContain('Sign in with a passkey');
    expect(code).toContain('Enter the e-mail address of your account.');
  });
});
