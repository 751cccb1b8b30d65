import { vi } from 'vitest';

/** A log line of the app (pino JSON). */
export interface LogEntry {
  level: number;
  msg?: string;
  err?: { type?: string; message?: string; stack?: string };
  [key: string]: unknown;
}

/** Collects what the app logs; pass `stream` as buildTestApp's logStream. */
export function captureLog() {
  const lines: string[] = [];
  return {
    stream: { write: (line: string) => void lines.push(line) },
    entries: (): LogEntry[] => lines.map((line) => JSON.parse(line) as LogEntry),
    /** Entries at error level or above (pino: 50 error, 60 fatal). */
    errors(): LogEntry[] {
      return this.entries().filter((entry) => entry.level >= 50);
    },
    clear: () => void lines.splice(0),
  };
}

/**
 * Records what reaches the process's stderr while it runs: direct writes and console.error
 * (which the test runner intercepts before it reaches process.stderr). Both still print.
 */
export async function stderrDuring(action: () => Promise<void>): Promise<string[]> {
  const printed: string[] = [];
  const write = vi.spyOn(process.stderr, 'write');
  const error = vi.spyOn(console, 'error');
  try {
    await action();
  } finally {
    for (const [chunk] of write.mock.calls) printed.push(String(chunk));
    for (const args of error.mock.calls) printed.push(args.map(String).join(' '));
    write.mockRestore();
    error.mockRestore();
  }
  return printed;
}
