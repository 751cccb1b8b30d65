export interface Latency {
  n: number;
  mean: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/** Nearest-rank percentiles of millisecond samples. */
export function latency(samples: number[]): Latency {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
  return {
    n: sorted.length,
    mean: sorted.reduce((a, b) => a + b, 0) / sorted.length,
    p50: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
    max: at(1),
  };
}

export function formatLatency(label: string, samples: number[], extra = ''): string {
  const { n, mean, p50, p95, max } = latency(samples);
  const ms = (value: number) => value.toFixed(1).padStart(6);
  return `${label.padEnd(31)} n=${String(n).padEnd(5)} mean${ms(mean)}  p50${ms(p50)}  p95${ms(p95)}  max${ms(max)} ms${extra}`;
}

/** Runs `count` jobs on `concurrency` workers; a failure stops every worker. */
export async function runConcurrently(
  count: number,
  concurrency: number,
  job: (index: number) => Promise<void>,
): Promise<number> {
  let next = 0;
  let failed = false;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (!failed && next < count) {
        const index = next++;
        try {
          await job(index);
        } catch (error) {
          failed = true;
          throw error;
        }
      }
    }),
  );
  return (performance.now() - started) / 1000;
}
