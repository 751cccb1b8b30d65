/**
 * Summarises a V8 .cpuprofile (node --cpu-prof, or the bench's BENCH_CPU_PROF): where the
 * main thread's time went, by package and by function. Samples in native code (node:sqlite's
 * run, JSON.parse, crypto…) are charged to the package of the JavaScript that called them.
 *
 *   node bench/support/profile-summary.ts /tmp/prof/server-sqlite.cpuprofile [top]
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const special = new Set(['(idle)', '(program)', '(garbage collector)', '(root)']);
const sqliteWrappers = new Set(['<computed>', 'DatabaseSync.prepare', 'DatabaseSync.exec']);

/** The package or area a script belongs to. */
export function packageOf(url: string): string {
  if (url.startsWith('node:')) {
    const parts = url.slice('node:'.length).split('/');
    return `node:${parts[0] === 'internal' ? (parts[1] ?? 'internal') : parts[0]}`;
  }
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const [first, second] = url.slice(modules + '/node_modules/'.length).split('/');
    return first?.startsWith('@') ? `${first}/${second}` : (first ?? url);
  }
  const server = /\/apps\/server\/src\/([^/]+)\//.exec(url);
  if (server) return `keycard:${server[1]}`;
  const pkg = /\/packages\/([^/]+)\//.exec(url);
  if (pkg) return `@keycard/${pkg[1]}`;
  if (url.includes('/bench/')) return 'bench (SQL census)';
  return url || '(native)';
}

export interface ProfileSummary {
  totalMs: number;
  idleMs: number;
  busyMs: number;
  /** Self time per package (natives charged to their caller's package), busy time only. */
  selfByPackage: Array<[string, number]>;
  /** Time with the package anywhere on the stack. */
  inclusiveByPackage: Array<[string, number]>;
  selfByFunction: Array<[string, number]>;
}

export function summarizeProfile(profile: CpuProfile): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

  const where = (node: ProfileNode): { pkg: string; label: string } => {
    const { functionName, url, lineNumber } = node.callFrame;
    const name = functionName || '(anonymous)';
    if (special.has(name)) return { pkg: name, label: name };
    // node:sqlite's calls made through the census's wrappers: a profile started with the
    // process (--cpu-prof) shows no native frame under them, so their time is the driver's.
    if (url.includes('/bench/support/sql-census.ts') && sqliteWrappers.has(name)) {
      return { pkg: 'node:sqlite', label: `node:sqlite ${name.replace('<computed>', 'run/all/get')}` };
    }
    if (url) {
      const short = url.replace(/^file:\/\//, '').replace(/^.*\/node_modules\//, '');
      return {
        pkg: packageOf(url),
        label: `${name} ${short.replace(/^.*\/work\/main\//, '')}:${lineNumber + 1}`,
      };
    }
    // A native function: charge it to the JavaScript that called it (past the bench's own
    // statement-counting wrappers: node:sqlite's run/all/prepare are the driver's).
    let up = parent.get(node.id);
    let wrapped = false;
    for (; up !== undefined; up = parent.get(up)) {
      const url = byId.get(up)!.callFrame.url;
      if (url.includes('/bench/support/sql-census.ts')) wrapped = true;
      else if (url) break;
    }
    const caller = up === undefined ? undefined : byId.get(up)!;
    const pkg = wrapped ? 'node:sqlite' : caller ? packageOf(caller.callFrame.url) : '(native)';
    return { pkg, label: `${name} [native, from ${caller?.callFrame.functionName || '?'} in ${pkg}]` };
  };

  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const functions = new Map<string, number>();
  let total = 0;
  let idle = 0;
  const add = (map: Map<string, number>, key: string, ms: number) => map.set(key, (map.get(key) ?? 0) + ms);
  const cache = new Map<number, { pkg: string; label: string; stack: Set<string> }>();
  const info = (id: number) => {
    let hit = cache.get(id);
    if (!hit) {
      const node = byId.get(id)!;
      const stack = new Set<string>();
      for (let up: number | undefined = id; up !== undefined; up = parent.get(up)) {
        const frame = byId.get(up)!;
        if (frame.callFrame.url) stack.add(packageOf(frame.callFrame.url));
      }
      hit = { ...where(node), stack };
      cache.set(id, hit);
    }
    return hit;
  };

  profile.samples.forEach((id, index) => {
    const ms = (profile.timeDeltas[index] ?? 0) / 1000;
    total += ms;
    const { pkg, label, stack } = info(id);
    if (pkg === '(idle)') {
      idle += ms;
      return;
    }
    add(self, pkg, ms);
    add(functions, label, ms);
    // The census wraps every SQLite call: its inclusive time would only repeat node:sqlite's.
    for (const each of stack) if (each !== 'bench (SQL census)') add(inclusive, each, ms);
  });
  const sorted = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]);
  return {
    totalMs: total,
    idleMs: idle,
    busyMs: total - idle,
    selfByPackage: sorted(self),
    inclusiveByPackage: sorted(inclusive),
    selfByFunction: sorted(functions),
  };
}

export function formatProfileSummary(summary: ProfileSummary, top = 12): string[] {
  const pct = (ms: number) => `${((100 * ms) / summary.busyMs).toFixed(1).padStart(5)}%`;
  const lines = [
    `main thread: ${summary.totalMs.toFixed(0)} ms sampled, ${((100 * summary.busyMs) / summary.totalMs).toFixed(1)}% busy; shares below are of busy time, by wall clock`,
    '(a system call that blocks, or a moment the thread waits for a core, counts where it happened)',
    'self time by package:',
    ...summary.selfByPackage.slice(0, top).map(([name, ms]) => `  ${pct(ms)}  ${name}`),
    'inclusive time by package (package anywhere on the stack):',
    ...summary.inclusiveByPackage.slice(0, top).map(([name, ms]) => `  ${pct(ms)}  ${name}`),
    'self time by function:',
    ...summary.selfByFunction.slice(0, top * 2).map(([name, ms]) => `  ${pct(ms)}  ${name}`),
  ];
  return lines;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: node bench/support/profile-summary.ts <file.cpuprofile> [top]');
    process.exit(2);
  }
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  for (const line of formatProfileSummary(summarizeProfile(profile), Number(process.argv[3] ?? 15))) {
    console.log(line);
  }
}
