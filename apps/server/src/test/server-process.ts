import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, testPasswordHashingEnv } from './helper.ts';

/**
 * Keycard as operators run it: `node apps/server/src/main.ts` in a process of its own, stopped
 * by a signal — for the tests of what a restart, a shutdown or a backup costs. The `keycard`
 * command runs the same way (`runKeycard`).
 */

const serverSource = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const mainScript = path.join(serverSource, 'main.ts');
const cliScript = path.join(serverSource, 'surfaces', 'cli', 'cli.ts');

/**
 * What every process is started with: the machine's PATH and the test's settings only, and
 * Node's compile cache when the test run keeps one (scripts/test.ts).
 */
function processEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '',
    ...(process.env.NODE_COMPILE_CACHE ? { NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE } : {}),
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    HOST: '127.0.0.1',
    LOGIN_IP_LIMIT_PER_MINUTE: '100000',
    ...testPasswordHashingEnv,
    ...env,
  };
}

export interface ServerProcess {
  port: number;
  /** The public origin of a tenant on this process, e.g. http://grand-hotel.localhost:41234. */
  origin(tenant: string): string;
  /** The JSON log lines written so far, parsed. */
  logs: Array<Record<string, unknown>>;
  /** Resolves with the exit of the process. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The first log line whose message matches, as it arrives. */
  waitForLog(message: RegExp, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** Sends the signal and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export async function startServerProcess(
  env: Record<string, string>,
  options: { port?: number } = {},
): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  const child: ChildProcess = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', mainScript], {
    env: processEnv({ PORT: String(port), ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Array<Record<string, unknown>> = [];
  const waiters: Array<{ message: RegExp; resolve: (line: Record<string, unknown>) => void }> = [];
  let buffered = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const text of lines) {
      let line: Record<string, unknown>;
      try {
        line = JSON.parse(text);
      } catch {
        line = { msg: text };
      }
      logs.push(line);
      for (const waiter of [...waiters]) {
        if (waiter.message.test(String(line.msg ?? ''))) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(line);
        }
      }
    }
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const waitForLog = (message: RegExp, timeoutMs = 30_000) => {
    const seen = logs.find((line) => message.test(String(line.msg ?? '')));
    if (seen) return Promise.resolve(seen);
    return new Promise<Record<string, unknown>>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no log line ${message} within ${timeoutMs} ms; stderr: ${stderr}`)),
        timeoutMs,
      );
      waiters.push({
        message,
        resolve: (line) => {
          clearTimeout(timer);
          resolve(line);
        },
      });
      void exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`the server exited before ${message}; stderr: ${stderr}`));
      });
    });
  };
  // Ready once it listens and has named its tenants (main.ts, after the workers start).
  await waitForLog(/^tenant grand-hotel:/, 60_000);
  return {
    port,
    origin: (tenant) => `http://${tenant}.localhost:${port}`,
    logs,
    exited,
    waitForLog,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Runs `keycard <args>` as a process of its own; answers its exit code and output. */
export function runKeycard(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', cliScript, ...args], {
      env: processEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
