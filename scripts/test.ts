/**
 * The whole test suite, as CI runs it: type check, lint, portal build, unit and API tests
 * (SQLite and PostgreSQL), then browser tests in Chromium. Ends with one summary line.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const bin = (name: string) => path.resolve('node_modules', '.bin', name);
const reports = mkdtempSync(path.join(tmpdir(), 'keycard-reports-'));
let passed = 0;
let failed = 0;
let ok = true;

function step(title: string, command: string, args: string[]): boolean {
  console.log(`\n▶ ${title}`);
  const result = spawnSync(command, args, {
    stdio: 'inherit',
    env: { ...process.env, NODE_OPTIONS: '--disable-warning=ExperimentalWarning' },
  });
  if (result.status !== 0) {
    console.error(`✖ ${title} failed`);
    ok = false;
    return false;
  }
  return true;
}

function vitest(title: string, project: string, extra: string[] = []): void {
  const report = path.join(reports, `${project}.json`);
  step(title, bin('vitest'), [
    'run',
    '--project',
    project,
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
    ...extra,
  ]);
  try {
    const json = JSON.parse(readFileSync(report, 'utf8')) as {
      numPassedTests: number;
      numFailedTests: number;
      numTotalTests: number;
    };
    passed += json.numPassedTests;
    failed += json.numFailedTests;
    if (json.numTotalTests === 0) ok = false;
  } catch {
    ok = false;
    failed += 1;
  }
}

step('type check', bin('tsc'), ['-p', 'tsconfig.json', '--noEmit']) &&
  step('type check (portal)', bin('tsc'), ['-p', 'apps/portal/tsconfig.json', '--noEmit']) &&
  step('type check (browser tests)', bin('tsc'), ['-p', 'e2e/tsconfig.json', '--noEmit']);
step('lint', bin('biome'), ['check', '.']);
const built = step('build portal', 'npm', ['run', '--silent', 'build']);
vitest('unit and API tests (SQLite and PostgreSQL)', 'unit');
if (built) vitest('browser tests (Chromium)', 'e2e', ['--no-file-parallelism']);

console.log(`\n${passed} passed, ${failed} failed`);
process.exit(ok && failed === 0 ? 0 : 1);
