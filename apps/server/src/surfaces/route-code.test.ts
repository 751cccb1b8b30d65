import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Route code: every /api and admin API route, their surfaces' authentication, and the route
 * kernel. Types come from the route declarations, so none of it needs a cast or a `!`.
 */
function routeSources(): string[] {
  const inFolder = (folder: string, keep: (name: string) => boolean) =>
    readdirSync(path.join(src, folder))
      .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.includes('test-support'))
      .filter(keep)
      .map((name) => path.join(folder, name));
  return [
    ...inFolder('surfaces/api', () => true),
    // admin-provider.ts configures the operator tenant's OIDC provider: no route.
    ...inFolder('surfaces/admin', (name) => name !== 'admin-provider.ts'),
    ...inFolder('platform/http', (name) =>
      ['route.ts', 'openapi.ts', 'contract.ts', 'validate.ts', 'errors.ts'].includes(name),
    ),
  ];
}

/** Every `x as T` (but `as const`), `<T>x` and `x!` in a file, by line. */
function assertionsOf(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
    if (ts.isAsExpression(node) && node.type.getText(source) !== 'const') {
      found.push(`${file}:${line} ${node.getText(source)}`);
    } else if (ts.isTypeAssertionExpression(node) || ts.isNonNullExpression(node)) {
      found.push(`${file}:${line} ${node.getText(source)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('route code', () => {
  it('covers the /api routes, the admin routes and the kernel', () => {
    const files = routeSources();
    expect(files).toContain('surfaces/api/login.routes.ts');
    expect(files).toContain('surfaces/admin/tenants.routes.ts');
    expect(files).toContain('platform/http/route.ts');
  });

  it('has no type assertion (`as`, but `as const`) and no non-null assertion (`!`)', () => {
    const found = routeSources().flatMap((file) =>
      assertionsOf(file, readFileSync(path.join(src, file), 'utf8')),
    );
    expect(found).toEqual([]);
  });

  it('would see one: the scan finds each kind', () => {
    const sample = 'const a = b as string;\nconst c = d!;\nconst e = <number>f;\nconst g = [1] as const;\n';
    expect(assertionsOf('sample.ts', sample)).toEqual([
      'sample.ts:1 b as string',
      'sample.ts:2 d!',
      'sample.ts:3 <number>f',
    ]);
  });
});
