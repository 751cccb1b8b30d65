/**
 * Full sign-in benchmark: what an unmodified OIDC client and a browser do for one sign-in,
 * against a real Keycard server over loopback HTTP, on SQLite and on PostgreSQL —
 *
 *   GET /oidc/auth (code + PKCE, demo-app) → POST /api/login → POST /api/authenticate →
 *   POST /api/authorize {iid} → GET the resume URL → POST /oidc/token (openid-client,
 *   client_secret_basic, ID token checked)
 *
 * — next to bare argon2id verification with the server's own parameters at the same
 * concurrency, in this process, run before, between and after the rounds of logins (the
 * machine's speed drifts; their mean is the reference). Password hashing should be the only
 * expensive step; the last line per engine says how close it is:
 * `full login ÷ argon2id: <full logins/s ÷ verifications/s>` (1 would be: nothing but argon2).
 * Per engine it also prints each step's latency, CPU per login by process (server, this
 * client, PostgreSQL), and the SQL statements each route sends (bench/support/sql-census.ts).
 *
 * The server runs in a process of its own (bench/support/server.ts): built as main.ts builds
 * it (logger at LOG_LEVEL info, to a discarded stdout; outbox worker; janitor), production's
 * behaviour (no response-contract check), the per-address login limit raised, several users
 * so concurrent logins do not queue on one account's attempt bucket. PostgreSQL gets a fresh
 * database, created and dropped here.
 *
 *   npm run bench
 *   BENCH_ENGINES=sqlite BENCH_CONCURRENCY=8 BENCH_LOGINS=400 npm run bench
 *   BENCH_CPU_PROF=/tmp/prof npm run bench      (profile the server during the logins)
 *
 * BENCH_LOGINS (200)          full sign-ins measured per engine
 * BENCH_CONCURRENCY (4)       sign-ins (and verifications) in flight at once
 * BENCH_ENGINES               sqlite,postgres (default both)
 * BENCH_WARMUP                uncounted sign-ins first (default 4 × concurrency, at least 40:
 *                             fewer leave the first round measurably slower)
 * BENCH_USERS                 accounts signed in in turn (default 2 × concurrency, at least 8)
 * BENCH_ROUNDS (3)            the logins are split in rounds, with an argon2id run before,
 *                             between and after them (1: one run before, one after)
 * BENCH_ARGON2_VERIFIES (300) bare verifications per argon2id run
 * BENCH_CPU_PROF=<dir>        CPU profile of the server's main thread during the logins:
 *                             <dir>/server-<engine>.cpuprofile, summarised in the output
 * BENCH_SQL=verbose           also list each route's distinct SQL statements and their latency;
 *                             BENCH_SQL=off counts none (the census costs the server ~0.3 ms of CPU a login)
 * BENCH_SERVER_NODE_FLAGS     extra node flags for the server process, e.g. '--cpu-prof
 *                             --cpu-prof-dir=/tmp/prof' (whole life, written at exit) or
 *                             '--perf-basic-prof' (JavaScript names for Linux perf)
 * BENCH_LOG_LEVEL (info)      the server's LOG_LEVEL
 * BENCH_CONTRACT_CHECK=1      check API answers against the contract, as test mode does
 * BENCH_PINNED (1)            the pinned run after the others (bench/support/pinned.ts: the server
 *                             on core 0, this client on core 1, bare argon2id on core 0 between the
 *                             rounds; SQLite, BENCH_CONCURRENCY; p50/p99 at 4 and 16); 0 skips it,
 *                             only runs nothing else
 * BENCH_POSTGRES_URL          admin URL (default TEST_POSTGRES_URL or postgres://postgres@127.0.0.1:5432/postgres)
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  hashPassword,
  usePasswordHashing,
  verifyPassword,
} from '../apps/server/src/features/accounts/password.service.ts';
import { loadConfig } from '../apps/server/src/platform/config.ts';
import { demoPassword } from '../apps/server/src/surfaces/seed/demo.ts';
import { type BenchServer, startServer } from './support/bench-server.ts';
import { runPinned } from './support/pinned.ts';
import { type BenchDatabase, checkPostgres, cpuBetween, createBenchDatabase } from './support/postgres.ts';
import { type CpuProfile, formatProfileSummary, summarizeProfile } from './support/profile-summary.ts';
import type { ServerStats } from './support/server.ts';
import { discoverIssuer, type Step, signIn, steps } from './support/sign-in.ts';
import type { RouteCensus } from './support/sql-census.ts';
import { formatLatency, runConcurrently } from './support/stats.ts';

type Engine = 'sqlite' | 'postgres';

function positive(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
}

const concurrency = positive('BENCH_CONCURRENCY', 4);
const logins = positive('BENCH_LOGINS', 200);
const warmup = positive('BENCH_WARMUP', Math.max(40, 4 * concurrency));
const userCount = positive('BENCH_USERS', Math.max(8, 2 * concurrency));
const rounds = positive('BENCH_ROUNDS', 3);
const argonVerifies = positive('BENCH_ARGON2_VERIFIES', 300);
const profileDir = process.env.BENCH_CPU_PROF;
const verboseSql = process.env.BENCH_SQL === 'verbose';
const countSql = process.env.BENCH_SQL !== 'off';
const logLevel = process.env.BENCH_LOG_LEVEL ?? 'info';
const contractCheck = process.env.BENCH_CONTRACT_CHECK === '1';
const engines = (process.env.BENCH_ENGINES ?? 'sqlite,postgres')
  .split(',')
  .map((name) => name.trim())
  .filter(Boolean) as Engine[];
for (const engine of engines) {
  if (engine !== 'sqlite' && engine !== 'postgres')
    throw new Error(`BENCH_ENGINES: unknown engine ${engine}`);
}

interface ArgonRun {
  perSecond: number;
  latencies: number[];
  cpuMsPerVerify: number;
}

/** Bare argon2id verification with the server's parameters, `concurrency` at a time. */
async function measureArgon(hash: string): Promise<ArgonRun> {
  const latencies: number[] = [];
  const cpu = process.cpuUsage();
  const seconds = await runConcurrently(argonVerifies, concurrency, async () => {
    const start = performance.now();
    const ok = await verifyPassword(hash, demoPassword);
    latencies.push(performance.now() - start);
    if (!ok) throw new Error('argon2id verification failed');
  });
  const used = process.cpuUsage(cpu);
  return {
    perSecond: argonVerifies / seconds,
    latencies,
    cpuMsPerVerify: (used.user + used.system) / 1000 / argonVerifies,
  };
}

const writeKinds = new Set(['insert', 'update', 'delete', 'replace']);

function censusDelta(before: RouteCensus | undefined, after: RouteCensus): RouteCensus {
  const statements: Record<string, number> = {};
  for (const [kind, count] of Object.entries(after.statements)) {
    const delta = count - (before?.statements[kind] ?? 0);
    if (delta) statements[kind] = delta;
  }
  const shapes: RouteCensus['shapes'] = {};
  for (const [shape, { count, ms }] of Object.entries(after.shapes)) {
    const earlier = before?.shapes[shape];
    if (count - (earlier?.count ?? 0))
      shapes[shape] = { count: count - (earlier?.count ?? 0), ms: ms - (earlier?.ms ?? 0) };
  }
  return {
    requests: after.requests - (before?.requests ?? 0),
    statements,
    dbMs: after.dbMs - (before?.dbMs ?? 0),
    prepareMs: after.prepareMs - (before?.prepareMs ?? 0),
    shapes,
  };
}

const sum = (values: Iterable<number>) => [...values].reduce((a, b) => a + b, 0);
const count = (census: RouteCensus, kinds?: Set<string>) =>
  sum(Object.entries(census.statements).flatMap(([kind, n]) => (!kinds || kinds.has(kind) ? [n] : [])));

function sqlReport(
  engine: Engine,
  database: BenchDatabase | undefined,
  before: ServerStats,
  after: ServerStats,
  completed: number,
): string[] {
  const routes = Object.entries(after.census)
    .map(([route, census]) => [route, censusDelta(before.census[route], census)] as const)
    .filter(([, census]) => census.requests > 0 || count(census) > 0);
  const foreground = routes.filter(([route]) => route !== 'background').map(([, census]) => census);
  const background = routes.find(([route]) => route === 'background')?.[1];
  const total = (pick: (census: RouteCensus) => number) => sum(foreground.map(pick)) / completed;
  const statements = total((c) => count(c));
  const writes = total((c) => count(c, writeKinds));
  const explicit = total((c) => c.statements.begin ?? 0);
  const commitNote =
    engine === 'sqlite'
      ? 'an fsync of the WAL (synchronous=FULL), on the event loop'
      : `a WAL flush awaited (synchronous_commit=${database?.synchronousCommit ?? '?'})`;
  const lines = [
    `SQL per full login: ${statements.toFixed(1)} statements, ${explicit ? `${explicit.toFixed(1)} explicit transactions` : 'each its own transaction (autocommit)'}: ` +
      `${(statements - writes).toFixed(1)} reads, ${writes.toFixed(1)} writes, so ${explicit ? 'at most ' : ''}${writes.toFixed(1)} write commits, each ${commitNote}; ` +
      `${total((c) => c.dbMs).toFixed(1)} ms waiting on the database${engine === 'sqlite' ? ` and ${total((c) => c.prepareMs).toFixed(1)} ms preparing statements` : ''}`,
    `  ${'route'.padEnd(29)} ${'requests'.padStart(8)}  per request: statements (select/insert/update/delete)  db ms`,
  ];
  for (const [route, census] of routes) {
    if (route === 'background') continue;
    const per = (n: number) => (census.requests ? n / census.requests : n).toFixed(1);
    const kinds = ['select', 'insert', 'update', 'delete'].map((kind) => per(census.statements[kind] ?? 0));
    const other = count(census) - count(census, new Set(['select', 'insert', 'update', 'delete']));
    lines.push(
      `  ${route.padEnd(29)} ${String(census.requests).padStart(8)}  ${per(count(census)).padStart(10)} (${kinds.join('/')})${other ? ` +${per(other)} other` : ''}  ${per(census.dbMs).padStart(18)}`,
    );
    if (verboseSql) {
      for (const [shape, { count: n, ms }] of Object.entries(census.shapes).sort(
        (a, b) => b[1].ms - a[1].ms,
      )) {
        lines.push(`      ${per(n)} × ${(ms / n).toFixed(2).padStart(6)} ms  ${shape}`);
      }
    }
  }
  if (background) lines.push(`  background (timers): ${count(background)} statements during the logins`);
  return lines;
}

async function serverStats(server: BenchServer): Promise<ServerStats> {
  return (await server.ask({ type: 'stats' }, 'stats')).stats;
}

async function benchEngine(engine: Engine, hash: string): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), `keycard-bench-${engine}-`));
  let database: BenchDatabase | undefined;
  let server: BenchServer | undefined;
  try {
    if (engine === 'postgres') database = await createBenchDatabase();
    server = await startServer({
      engine,
      ...(database ? { databaseUrl: database.url } : {}),
      dir,
      users: userCount,
      logLevel,
      contractCheck,
      census: countSql,
    });
    const { port, tenant, users } = server.ready;
    const origin = `http://${tenant}.localhost:${port}`;
    const config = await discoverIssuer(origin);
    const times = Object.fromEntries(steps.map((step) => [step, [] as number[]])) as Record<Step, number[]>;
    const totals: number[] = [];
    const login = async (index: number, record: boolean) => {
      const start = performance.now();
      const took = await signIn(config, {
        origin,
        tenant,
        email: users[index % users.length]!,
        password: demoPassword,
      });
      if (!record) return;
      totals.push(performance.now() - start);
      for (const step of steps) times[step].push(took[step]);
    };

    await runConcurrently(warmup, concurrency, (index) => login(index, false));

    // Logins in rounds, each between two argon2 runs: the machine's speed drifts, so each
    // round is compared with the verifications made right before and right after it.
    const argon = [await measureArgon(hash)];
    const statsBefore = await serverStats(server);
    if (profileDir) await server.ask({ type: 'profile-start' }, 'profile-started');
    let loginSeconds = 0;
    let serverCpu = 0;
    let mainCpu = 0;
    let clientCpu = 0;
    let postgresCpu = 0;
    let active = 0;
    let idle = 0;
    const roundRatios: number[] = [];
    for (let round = 0, done = 0; round < rounds; round++) {
      const count = Math.round((logins * (round + 1)) / rounds) - done;
      const before = await serverStats(server);
      const pgBefore = await database?.backendCpu();
      const client = process.cpuUsage();
      const seconds = await runConcurrently(count, concurrency, (index) =>
        login(warmup + done + index, true),
      );
      const clientUsed = process.cpuUsage(client);
      const after = await serverStats(server);
      const pgAfter = await database?.backendCpu();
      done += count;
      loginSeconds += seconds;
      clientCpu += (clientUsed.user + clientUsed.system) / 1000;
      serverCpu += (after.cpu.user + after.cpu.system - before.cpu.user - before.cpu.system) / 1000;
      mainCpu +=
        (after.mainCpu.user + after.mainCpu.system - before.mainCpu.user - before.mainCpu.system) / 1000;
      if (pgBefore && pgAfter) postgresCpu += cpuBetween(pgBefore, pgAfter);
      active += after.elu.active - before.elu.active;
      idle += after.elu.idle - before.elu.idle;
      argon.push(await measureArgon(hash));
      const around = (argon[round]!.perSecond + argon[round + 1]!.perSecond) / 2;
      roundRatios.push(count / seconds / around);
    }
    let profileFile: string | undefined;
    if (profileDir) {
      mkdirSync(profileDir, { recursive: true });
      profileFile = path.resolve(profileDir, `server-${engine}.cpuprofile`);
      await server.ask({ type: 'profile-stop', file: profileFile }, 'profile-stopped');
    }
    const statsAfter = await serverStats(server);

    const loginRate = logins / loginSeconds;
    const argonRates = argon.map((run) => run.perSecond);
    const argonRate = argonRates.reduce((a, b) => a + b, 0) / argonRates.length;
    const argonCpu = argon.reduce((a, run) => a + run.cpuMsPerVerify, 0) / argon.length;
    const serverMs = serverCpu / logins;
    const clientMs = clientCpu / logins;
    const postgresMs = database ? postgresCpu / logins : undefined;
    const allMs = serverMs + clientMs + (postgresMs ?? 0);

    const lines = [
      `── ${engine} · concurrency ${concurrency} · ${logins} full logins in ${rounds} round${rounds > 1 ? 's' : ''} after ${warmup} warm-up · ${users.length} users · log level ${logLevel} · contract check ${contractCheck ? 'on' : 'off'}`,
      formatLatency(
        `argon2id verify (${argon.length} runs)`,
        argon.flatMap((run) => run.latencies),
        `  ${argonRate.toFixed(1)}/s`,
      ),
      ...steps.map((step) => formatLatency(step, times[step])),
      formatLatency('full login', totals, `  ${loginRate.toFixed(1)}/s`),
      `throughput: ${loginRate.toFixed(1)} full logins/s; argon2id ${argonRate.toFixed(1)} verifications/s, mean of runs before, between and after the rounds: ${argonRates.map((rate) => rate.toFixed(0)).join(', ')}`,
      `ratio per round (logins/s ÷ mean of the verifications/s around it): ${roundRatios.map((ratio) => ratio.toFixed(3)).join(', ')}`,
      `CPU per full login: server ${serverMs.toFixed(1)} ms (main thread ${(mainCpu / logins).toFixed(1)} ms), bench client ${clientMs.toFixed(1)} ms` +
        (postgresMs === undefined ? '' : `, postgres ${postgresMs.toFixed(1)} ms`) +
        `; one argon2id verification alone ${argonCpu.toFixed(1)} ms = ${((100 * argonCpu) / serverMs).toFixed(0)}% of the server's, ` +
        `${((100 * argonCpu) / allMs).toFixed(0)}% of all; server event loop ${((100 * active) / (active + idle)).toFixed(0)}% busy during the rounds`,
      ...(countSql ? sqlReport(engine, database, statsBefore, statsAfter, logins) : []),
    ];
    if (profileFile) {
      lines.push(
        `CPU profile of the server's main thread from the first round to the last (idle during the argon2id runs between them): ${profileFile}`,
      );
      const profile = JSON.parse(readFileSync(profileFile, 'utf8')) as CpuProfile;
      lines.push(...formatProfileSummary(summarizeProfile(profile), 10).map((line) => `  ${line}`));
    }
    lines.push(`full login ÷ argon2id: ${(loginRate / argonRate).toFixed(3)}`);
    console.log(lines.join('\n'));
  } finally {
    await server?.stop();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (engines.includes('postgres')) await checkPostgres();
// The server's own argon2id parameters (PASSWORD_HASH_*, or the defaults), here as there.
const hashing = loadConfig({ ...process.env, NODE_ENV: 'test' }).passwordHashing;
usePasswordHashing(hashing);
console.log(
  `argon2id parameters: m=${hashing.memoryKib} KiB, t=${hashing.iterations}, p=${hashing.parallelism} (PASSWORD_HASH_MEMORY_KIB, _ITERATIONS, _PARALLELISM)`,
);
const hash = await hashPassword(demoPassword);
// Warm argon2's worker threads before the first measured verification.
await runConcurrently(
  4 * concurrency,
  concurrency,
  async () => void (await verifyPassword(hash, demoPassword)),
);
const pinned = process.env.BENCH_PINNED ?? '1';
if (pinned !== 'only') for (const engine of engines) await benchEngine(engine, hash);
if (pinned !== '0')
  await runPinned({
    concurrency,
    rounds,
    logins: positive('BENCH_PINNED_LOGINS', 150),
    verifies: positive('BENCH_PINNED_VERIFIES', 40),
    latencyAt: (process.env.BENCH_PINNED_LATENCY ?? '4,16').split(',').map(Number),
    users: Math.max(userCount, 32),
    warmup,
    logLevel,
    ...(profileDir ? { profileDir } : {}),
  });
