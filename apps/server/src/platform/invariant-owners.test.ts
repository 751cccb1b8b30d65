import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Some invariants have one owner (docs/architecture.md, "One owner per invariant"): how a
 * tenant's version is raised, and how an attempt limiter's key is built. Written anywhere
 * else, a copy can drift (a lockout lifted under another key than the one that counted).
 * These checks read the server's sources and name any second site.
 */
const serverSource = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

function sitesOf(pattern: RegExp, owner: string): string[] {
  return sources(serverSource)
    .filter((file) => path.relative(serverSource, file) !== owner)
    .flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, index) =>
          pattern.test(line) ? [`${path.relative(serverSource, file)}:${index + 1}: ${line.trim()}`] : [],
        ),
    );
}

describe('one owner per invariant', () => {
  it('raises a tenant version only in features/tenants/tenant-version.ts', () => {
    expect(sitesOf(/version\s*\+\s*1/, 'features/tenants/tenant-version.ts')).toEqual([]);
  });

  it('builds limiter keys only in platform/security/limit-keys.ts', () => {
    // A key literal: a quote or backtick, then one of the limiters' prefixes and a colon.
    const keyLiteral = /[`'"](login|mfa|lifecycle|admin|partner-sso|analytics):/;
    expect(sitesOf(keyLiteral, 'platform/security/limit-keys.ts')).toEqual([]);
  });

  it('sees the sources it checks', () => {
    // Guards the two checks above against reading nothing (a moved folder, a wrong root).
    const files = sources(serverSource).map((file) => path.relative(serverSource, file));
    expect(files).toContain('features/tenants/tenant-version.ts');
    expect(files).toContain('platform/security/limit-keys.ts');
    expect(files.length).toBeGreaterThan(100);
  });
});
