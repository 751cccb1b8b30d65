/**
 * The fair ratio (issue 20): the server pinned to one processor, the load generator on the
 * other, and bare argon2id with the server's parameters measured on the server's processor
 * in the same run, between the rounds of sign-ins (the machine's speed drifts).
 *
 *   core 0: the server (every thread: HTTP, SQL, argon2's workers), and, while the server is
 *           idle between rounds, a child process doing nothing but argon2id verifications
 *   core 1: this process (openid-client, fetch, PKCE: the browser and the app)
 *
 * Prints, on the embedded default (SQLite):
 * - full sign-ins per second vs bare verifications per second on core 0, and their ratio;
 * - the server's CPU per full sign-in vs one bare verification's, and their ratio
 *   (the hash's share of the server's CPU; 1 would be: nothing but the hash);
 * - p50 and p99 of a full sign-in's latency at concurrency 4 and 16.
 *
 * taskset (util-linux) does the pinning; without it, or with fewer than two processors
 * allowed, the run is made unpinned after a printed warning.
 *
 * BENCH_PINNED=0 skips it; =only runs nothing else (login.bench.ts).
 * BENCH_PINNED_LOGINS (150)   sign-ins measured at BENCH_CONCURRENCY, in BENCH_ROUNDS rounds
 * BENCH_PINNED_VERIFIES (40)  bare verifications per argon2id run (one before, between, after)
 * BENCH_PINNED_LATENCY (4,16) concurrencies whose latency is printed; the one that is not
 *                             BENCH_CONCURRENCY gets BENCH_PINNED_LOGINS sign-ins of its own
 * BENCH_CPU_PROF=<dir>        also profiles the pinned server: <dir>/server-sqlite-pinned.cpuprofile
 */
import { type ChildProcess, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { demoPassword } from '../../apps/server/src/surfaces/seed/demo.ts';
import type { FromHasher, ToHasher } from './argon-child.ts';
import { nodeFlags, startChild, startServer } from './bench-server.ts';
import { type CpuProfile, formatProfileSummary, summarizeProfile } from './profile-summary.ts';
import type { ServerStats } from './server.ts';
import { discoverIssuer, signIn } from './sign-in.ts';
import { latency, runConcurrently } from './stats.ts';

const serverCore = '0';
const clientCore = '1';

export interface PinnedSettings {
  concurrency: number;
  rounds: number;
  logins: number;
  verifies: number;
  latencyAt: number[];
  users: number;
  warmup: number;
  logLevel: string;
  profileDir?: string;
}

/** Whether taskset exists and may put processes on both processors; says why not. */
function pinningProblem(): string | undefined {
  const probe = spawnSync('taskset', ['-c', `${serverCore},${clientCore}`, 'true'], { encoding: 'utf8' });
  if (probe.error) return `taskset not found (${probe.error.message}); install util-linux`;
  if (probe.status !== 0) return `taskset -c ${serverCore},${clientCore} failed: ${probe.stderr.trim()}`;
  return undefined;
}

/** This process's affinity mask (hex, as taskset prints it). */
function affinityOf(pid: number): string | undefined {
  const out = spawnSync('taskset', ['-p', String(pid)], { encoding: 'utf8' }).stdout ?? '';
  return /mask:\s*([0-9a-f]+)/i.exec(out)?.[1];
}

/** Sets every thread of a process to a CPU list (`-a`: threads made later inherit it). */
function pinAll(pid: number, cpus: string, asMask = false): void {
  const args = asMask ? ['-a', '-p', cpus, String(pid)] : ['-a', '-p', '-c', cpus, String(pid)];
  const result = spawnSync('taskset', args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`taskset ${args.join(' ')}: ${result.stderr}`);
}

interface Hasher {
  measure(verifies: number, concurrency: number): Promise<Extract<FromHasher, { type: 'measured' }>>;
  stop(): Promise<void>;
}

async function startHasher(pin: string | undefined): Promise<Hasher> {
  const module = fileURLToPath(new URL('./argon-child.ts', import.meta.url));
  const child: ChildProcess = startChild(module, process.env, nodeFlags(), pin);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const next = <T extends FromHasher['type']>(type: T) =>
    new Promise<Extract<FromHasher, { type: T }>>((resolve, reject) => {
      const onMessage = (message: FromHasher) => {
        if (message.type !== type) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(message as Extract<FromHasher, { type: T }>);
      };
      const onExit = (code: number | null) => reject(new Error(`argon2id child exited (${code})`));
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  await next('ready');
  return {
    measure: (verifies, concurrency) => {
      const answered = next('measured');
      child.send({ type: 'measure', verifies, concurrency } satisfies ToHasher);
      return answered;
    },
    stop: async () => {
      if (child.connected) child.send({ type: 'exit' } satisfies ToHasher);
      await exited;
    },
  };
}

const cpuMs = (stats: ServerStats, pick: 'cpu' | 'mainCpu') => (stats[pick].user + stats[pick].system) / 1000;
const fmt = (value: number, digits = 1) => value.toFixed(digits);

export async function runPinned(settings: PinnedSettings): Promise<void> {
  const problem = pinningProblem();
  if (problem)
    console.warn(
      `WARNING: ${problem}. The pinned bench runs UNPINNED: the server, the argon2id reference and this client share all processors, and the ratio below is not the fair one.`,
    );
  const pin = problem ? undefined : serverCore;
  const ownMask = problem ? undefined : affinityOf(process.pid);
  const dir = mkdtempSync(path.join(tmpdir(), 'keycard-bench-pinned-'));
  const hasher = await startHasher(pin);
  const server = await startServer(
    {
      engine: 'sqlite',
      dir,
      users: settings.users,
      logLevel: settings.logLevel,
      contractCheck: false,
      census: false,
    },
    pin,
  );
  try {
    if (!problem) pinAll(process.pid, clientCore);
    const { port, tenant, users } = server.ready;
    const origin = `http://${tenant}.localhost:${port}`;
    const config = await discoverIssuer(origin);
    let counter = 0;
    const batch = async (count: number, concurrency: number) => {
      const totals: number[] = [];
      const seconds = await runConcurrently(count, concurrency, async () => {
        const index = counter++;
        const start = performance.now();
        await signIn(config, { origin, tenant, email: users[index % users.length]!, password: demoPassword });
        totals.push(performance.now() - start);
      });
      return { seconds, totals };
    };
    const stats = async () => (await server.ask({ type: 'stats' }, 'stats')).stats;

    await batch(settings.warmup, settings.concurrency);
    const { concurrency, rounds, logins, verifies } = settings;
    const argon = [await hasher.measure(verifies, concurrency)];
    if (settings.profileDir) await server.ask({ type: 'profile-start' }, 'profile-started');
    const totals: number[] = [];
    const roundRatios: number[] = [];
    let loginSeconds = 0;
    let serverCpu = 0;
    let mainCpu = 0;
    let mainSystem = 0;
    for (let round = 0, done = 0; round < rounds; round++) {
      const count = Math.round((logins * (round + 1)) / rounds) - done;
      const start = await stats();
      const run = await batch(count, concurrency);
      const end = await stats();
      serverCpu += cpuMs(end, 'cpu') - cpuMs(start, 'cpu');
      mainCpu += cpuMs(end, 'mainCpu') - cpuMs(start, 'mainCpu');
      mainSystem += (end.mainCpu.system - start.mainCpu.system) / 1000;
      loginSeconds += run.seconds;
      totals.push(...run.totals);
      done += count;
      argon.push(await hasher.measure(verifies, concurrency));
      const around = (verifies / argon[round]!.seconds + verifies / argon[round + 1]!.seconds) / 2;
      roundRatios.push(count / run.seconds / around);
    }
    let profileFile: string | undefined;
    if (settings.profileDir) {
      mkdirSync(settings.profileDir, { recursive: true });
      profileFile = path.resolve(settings.profileDir, 'server-sqlite-pinned.cpuprofile');
      await server.ask({ type: 'profile-stop', file: profileFile }, 'profile-stopped');
    }

    const loginRate = logins / loginSeconds;
    const argonRate = argon.reduce((a, run) => a + verifies / run.seconds, 0) / argon.length;
    const argonCpu = argon.reduce((a, run) => a + run.cpuMs / verifies, 0) / argon.length;
    const serverMs = serverCpu / logins;
    const latencyLines = [[concurrency, totals] as const];
    for (const at of settings.latencyAt) {
      if (at === concurrency) continue;
      latencyLines.push([at, (await batch(logins, at)).totals]);
    }
    latencyLines.sort((a, b) => a[0] - b[0]);
    const where = pin
      ? `server on core ${serverCore}, argon2id reference on core ${serverCore} between the rounds, client on core ${clientCore}`
      : 'UNPINNED (see the warning above)';
    const lines = [
      `── pinned · sqlite · ${where} · concurrency ${concurrency} · ${logins} full sign-ins in ${rounds} rounds after ${settings.warmup} warm-up · ${users.length} users`,
      `bare argon2id on the server's core: ${fmt(argonRate, 2)} verifications/s (runs: ${argon.map((run) => fmt(verifies / run.seconds, 2)).join(', ')}), ${fmt(argonCpu)} ms CPU each`,
      `full sign-ins on the server's core: ${fmt(loginRate, 2)}/s, server CPU ${fmt(serverMs)} ms each (main thread ${fmt(mainCpu / logins)} ms, of it ${fmt(mainSystem / logins)} ms in the kernel; beyond one bare hash ${fmt(serverMs - argonCpu)} ms)`,
      `ratio per round (sign-ins/s ÷ mean verifications/s around it): ${roundRatios.map((r) => fmt(r, 3)).join(', ')}`,
      ...latencyLines.map(([at, samples]) => {
        const l = latency(samples);
        return `latency of a full sign-in at concurrency ${String(at).padStart(2)}: p50 ${fmt(l.p50)} ms, p99 ${fmt(l.p99)} ms (n=${l.n}, mean ${fmt(l.mean)}, max ${fmt(l.max)})`;
      }),
    ];
    if (profileFile) {
      lines.push(`CPU profile of the pinned server's main thread during the rounds: ${profileFile}`);
      const profile = JSON.parse(readFileSync(profileFile, 'utf8')) as CpuProfile;
      lines.push(...formatProfileSummary(summarizeProfile(profile), 12).map((line) => `  ${line}`));
    }
    const rates = argon.map((run) => verifies / run.seconds);
    const spread = Math.max(...rates) / Math.min(...rates);
    lines.push(
      `machine: load average ${loadavg()
        .map((load) => fmt(load, 2))
        .join(
          ', ',
        )}; argon2id runs spread ${fmt(spread, 2)}×${spread > 1.2 ? " — other work shared the server's core: trust the CPU ratio, not the rate ratio" : ''}`,
      `pinned CPU ratio (one bare hash ÷ server CPU per full sign-in): ${fmt(argonCpu, 1)} ÷ ${fmt(serverMs, 1)} = ${fmt(argonCpu / serverMs, 3)}`,
      `pinned full sign-in ÷ argon2id (sign-ins/s ÷ verifications/s, same core): ${fmt(loginRate, 2)} ÷ ${fmt(argonRate, 2)} = ${fmt(loginRate / argonRate, 3)}`,
    );
    console.log(lines.join('\n'));
  } finally {
    if (ownMask) pinAll(process.pid, ownMask, true);
    await server.stop();
    await hasher.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
