import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';

/** The PostgreSQL server the bench makes its database on (as the tests do). */
export const postgresAdminUrl =
  process.env.BENCH_POSTGRES_URL ??
  process.env.TEST_POSTGRES_URL ??
  'postgres://postgres@127.0.0.1:5432/postgres';

export interface BenchDatabase {
  name: string;
  url: string;
  /** synchronous_commit of the server: whether a commit waits for its WAL flush. */
  synchronousCommit: string;
  /** CPU (ms, user + system) of the server processes serving this database so far, by pid. */
  backendCpu(): Promise<Map<number, number>>;
  drop(): Promise<void>;
}

// Linux reports process times in clock ticks, 100 per second on every common build.
const ticksPerSecond = 100;

function processCpuMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
  } catch {
    return undefined;
  }
}

/** Fails early, with what to do, when the PostgreSQL server cannot be reached. */
export async function checkPostgres(): Promise<void> {
  const client = new pg.Client({ connectionString: postgresAdminUrl, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `PostgreSQL is not reachable at ${postgresAdminUrl} (${(error as Error).message}): ` +
        'start it, point BENCH_POSTGRES_URL at one, or run BENCH_ENGINES=sqlite',
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A fresh database of its own, created now and dropped by `drop`. */
export async function createBenchDatabase(): Promise<BenchDatabase> {
  const name = `keycard_bench_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresAdminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const { rows } = await admin.query<{ synchronous_commit: string }>('SHOW synchronous_commit');
  const url = new URL(postgresAdminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.href,
    synchronousCommit: rows[0]?.synchronous_commit ?? '?',
    backendCpu: async () => {
      const backends = await admin.query<{ pid: number }>(
        'SELECT pid FROM pg_stat_activity WHERE datname = $1',
        [name],
      );
      const cpu = new Map<number, number>();
      for (const { pid } of backends.rows) {
        const ms = processCpuMs(pid);
        if (ms !== undefined) cpu.set(pid, ms);
      }
      return cpu;
    },
    drop: async () => {
      // The server's pool may still be closing its sockets: wait for them, then force.
      for (let attempt = 0; ; attempt++) {
        try {
          await admin.query(`DROP DATABASE IF EXISTS ${name}${attempt >= 60 ? ' WITH (FORCE)' : ''}`);
          break;
        } catch (error) {
          if ((error as { code?: string }).code !== '55006' || attempt >= 60) throw error;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
      await admin.end();
    },
  };
}

/** CPU used between two readings of backendCpu; backends that started in between count whole. */
export function cpuBetween(before: Map<number, number>, after: Map<number, number>): number {
  let ms = 0;
  for (const [pid, value] of after) ms += value - (before.get(pid) ?? 0);
  return ms;
}
