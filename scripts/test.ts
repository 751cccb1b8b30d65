/**
 * The whole test suite, as CI runs it: type check, lint, portal and console build, unit and API tests
 * (SQLite and PostgreSQL) beside the browser tests in Chromium, then the load tests alone. Ends with
 * one summary line.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const bin = (name: string) => path.resolve('node_modules', '.bin', name);
const reports = mkdtempSync(path.join(tmpdir(), 'keycard-reports-'));
let passed = 0;
let failed = 0;
let ok = true;
const failures: string[] = [];
const failedSteps: string[] = [];
const began = Date.now();
/**
 * Every process the tests start (tsc, vitest's workers, the server and `keycard` processes the
 * operations tests spawn) keeps V8's compiled code here, keyed by each file's content: a server
 * process then starts in about 1 s instead of 1.5 on a two-core machine.
 */
const childEnv = {
  ...process.env,
  NODE_OPTIONS: '--disable-warning=ExperimentalWarning',
  NODE_COMPILE_CACHE:
    process.env.NODE_COMPILE_CACHE ?? path.resolve('node_modules', '.cache', 'node-compile-cache'),
};

interface Check {
  title: string;
  command: string;
  args: string[];
}

/** Runs one check to its end, its output kept and printed whole, so checks run at once do not interleave. */
function runCheck(check: Check): Promise<boolean> {
  const started = Date.now();
  const child = spawn(check.command, check.args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: childEnv,
  });
  const output: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
  return new Promise((resolve) => {
    child.on('close', (code) => {
      console.log(`\n▶ ${check.title} (${Math.round((Date.now() - started) / 1000)} s)`);
      process.stdout.write(Buffer.concat(output));
      if (code !== 0) {
        console.error(`✖ ${check.title} failed`);
        failedSteps.push(check.title);
        ok = false;
      }
      resolve(code === 0);
    });
  });
}

/**
 * The checks, `width` at a time. Each tsc and the bundler keep one core busy for most of their
 * run, so one after the other they left the second core idle for minutes before the tests.
 * Answers each check's success by title.
 */
async function runChecks(checks: Check[], width: number): Promise<Map<string, boolean>> {
  const results = new Map<string, boolean>();
  const waiting = [...checks];
  const lane = async () => {
    for (let check = waiting.shift(); check; check = waiting.shift()) {
      results.set(check.title, await runCheck(check));
    }
  };
  await Promise.all(Array.from({ length: width }, lane));
  return results;
}

interface VitestRun {
  title: string;
  report: string;
  log: string;
  done: Promise<number | null>;
}

/**
 * Starts one vitest project in the background, its output into a file of its own (printed
 * whole when it ends, so two projects running at once do not interleave their lines).
 */
function startVitest(title: string, project: string, extra: string[] = []): VitestRun {
  const report = path.join(reports, `${project}.json`);
  const log = path.join(reports, `${project}.log`);
  const out = openSync(log, 'w');
  console.log(`\n▶ ${title} (started)`);
  const child = spawn(
    bin('vitest'),
    [
      'run',
      '--project',
      project,
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
      ...extra,
    ],
    {
      stdio: ['ignore', out, out],
      env: { ...childEnv, FORCE_COLOR: '0' },
    },
  );
  const done = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { title, report, log, done };
}

async function finishVitest(run: VitestRun): Promise<void> {
  const code = await run.done;
  console.log(`\n▶ ${run.title}`);
  process.stdout.write(readFileSync(run.log, 'utf8'));
  if (code !== 0) {
    console.error(`✖ ${run.title} failed`);
    failedSteps.push(run.title);
    ok = false;
  }
  try {
    const json = JSON.parse(readFileSync(run.report, 'utf8')) as {
      numPassedTests: number;
      numFailedTests: number;
      numTotalTests: number;
      testResults: {
        name: string;
        assertionResults: { fullName: string; status: string; failureMessages: string[] }[];
      }[];
    };
    for (const file of json.testResults) {
      for (const test of file.assertionResults) {
        if (test.status !== 'failed') continue;
        const reason = (test.failureMessages[0] ?? '').split('\n')[0]?.slice(0, 300) ?? '';
        failures.push(`${path.relative(process.cwd(), file.name)} › ${test.fullName}\n    ${reason}`);
      }
    }
    passed += json.numPassedTests;
    failed += json.numFailedTests;
    if (json.numTotalTests === 0) ok = false;
  } catch {
    ok = false;
    failed += 1;
  }
}

const typeCheck = (title: string, project: string): Check => ({
  title,
  command: bin('tsc'),
  args: ['-p', project, '--noEmit'],
});
const build = 'build portal and console';
// The build first: it is the longest, and the browser tests wait for it.
const checks = await runChecks(
  [
    { title: build, command: 'npm', args: ['run', '--silent', 'build'] },
    typeCheck('type check', 'tsconfig.json'),
    typeCheck('type check (portal)', 'apps/portal/tsconfig.json'),
    typeCheck('type check (console)', 'apps/console/tsconfig.json'),
    typeCheck('type check (router)', 'packages/web/tsconfig.json'),
    typeCheck('type check (browser tests)', 'e2e/tsconfig.json'),
    typeCheck('type check (device app example)', 'examples/mobile-app/tsconfig.json'),
    { title: 'lint', command: bin('biome'), args: ['check', '.'] },
    { title: 'code shape (layers, file sizes)', command: process.execPath, args: ['scripts/check-shape.ts'] },
  ],
  2,
);
const built = checks.get(build) === true;
console.log(`\nchecks and build took ${Math.round((Date.now() - began) / 1000)} s`);
// The two projects run at once: much of each is waiting (PostgreSQL, the browser, timers), so
// together they take far less than one after the other on two cores. Unit tests get one
// worker, the browser tests two files at a time.
const started = Date.now();
// The files of each project share one module graph per worker (--no-isolate): each builds its
// own apps, databases and browsers, and re-importing the server for each file was a fifth of the
// unit project's time (collect 269 s of 1249 s in a loaded run) and cost the browser specs 324 s
// of collect on this machine (8 specs: 101 s isolated, 85 s not). Pool options are the root's
// alone in vitest's config, so the flag is given here.
const runs = [
  startVitest('unit and API tests (SQLite and PostgreSQL)', 'unit', ['--maxWorkers=1', '--no-isolate']),
];
if (built)
  runs.push(
    startVitest('browser tests (Chromium)', 'e2e', ['--maxWorkers=2', '--minWorkers=1', '--no-isolate']),
  );
else ok = false;
for (const run of runs) await finishVitest(run);
// Tests that measure a latency under a load they make themselves (a flood of password
// guesses) run alone once the machine is quiet: beside the browser tests they would measure
// the other suites' load, not the server's.
await finishVitest(startVitest('load tests (alone)', 'load', ['--maxWorkers=1']));
console.log(
  `\ntests took ${Math.round((Date.now() - started) / 1000)} s; all of npm test ${Math.round((Date.now() - began) / 1000)} s`,
);

// The failures again at the very end, where a log's tail shows them.
if (failures.length > 0) console.log(`\nfailed:\n${failures.map((f) => `  ${f}`).join('\n')}`);
if (failedSteps.length > 0) console.log(`\nfailed steps: ${failedSteps.join('; ')}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(ok && failed === 0 ? 0 : 1);
