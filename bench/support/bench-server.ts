/**
 * Starts the bench's server (server.ts) in a process of its own and talks to it over IPC.
 * With `pin`, the process is started through `taskset -c <cpus>` (util-linux), so it and
 * every thread it makes (argon2's workers included) run only on those processors.
 */
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { FromServer, ServerOptions, ToServer } from './server.ts';

const serverModule = fileURLToPath(new URL('./server.ts', import.meta.url));

/** A server process and a way to ask it something over IPC. */
export interface BenchServer {
  child: ChildProcess;
  ready: Extract<FromServer, { type: 'ready' }>;
  ask<T extends FromServer['type']>(message: ToServer, answer: T): Promise<Extract<FromServer, { type: T }>>;
  stop(): Promise<void>;
}

/** Node's own flags for a child script: TypeScript files run as they are, no warning noise. */
export function nodeFlags(extra = ''): string[] {
  return ['--disable-warning=ExperimentalWarning', ...extra.split(' ').filter(Boolean)];
}

/**
 * Starts `module` with an IPC channel, through `taskset -c <pin>` when `pin` is given
 * (taskset execs node in the same process, which keeps the channel's descriptor).
 */
export function startChild(
  module: string,
  env: NodeJS.ProcessEnv,
  execArgv: string[],
  pin?: string,
): ChildProcess {
  // The server's log lines go to a discarded stdout, as a production log would go elsewhere.
  const stdio: ['ignore', 'ignore', 'inherit', 'ipc'] = ['ignore', 'ignore', 'inherit', 'ipc'];
  if (pin === undefined) return fork(module, [], { env, execArgv, stdio });
  return spawn('taskset', ['-c', pin, process.execPath, ...execArgv, module], { env, stdio });
}

export async function startServer(options: ServerOptions, pin?: string): Promise<BenchServer> {
  const child = startChild(
    serverModule,
    { ...process.env, BENCH_SERVER_OPTIONS: JSON.stringify(options) },
    nodeFlags(process.env.BENCH_SERVER_NODE_FLAGS),
    pin,
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const next = <T extends FromServer['type']>(type: T) =>
    new Promise<Extract<FromServer, { type: T }>>((resolve, reject) => {
      const onMessage = (message: FromServer) => {
        if (message.type !== type) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(message as Extract<FromServer, { type: T }>);
      };
      const onExit = (code: number | null) => {
        child.off('message', onMessage);
        reject(new Error(`bench server exited (${code}) before answering ${type}`));
      };
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  const ready = await next('ready');
  return {
    child,
    ready,
    ask: (message, answer) => {
      const answered = next(answer);
      child.send(message);
      return answered;
    },
    stop: async () => {
      if (child.exitCode === null && child.connected) child.send({ type: 'shutdown' } satisfies ToServer);
      const timeout = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timeout);
    },
  };
}
