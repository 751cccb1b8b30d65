/**
 * Bare argon2id in a process of its own, started pinned to the server's processor
 * (pinned.ts), so the reference runs where the server's hashes run: the same core, its
 * caches and memory bandwidth. The server's parameters (PASSWORD_HASH_*, or the defaults),
 * loaded as the server loads them.
 *
 * IPC: answers 'ready' once it has a hash and warm worker threads; to { type: 'measure',
 * verifies, concurrency } it answers with the wall time and its own CPU for them.
 */
import { performance } from 'node:perf_hooks';
import {
  hashPassword,
  usePasswordHashing,
  verifyPassword,
} from '../../apps/server/src/features/accounts/password.service.ts';
import { loadConfig } from '../../apps/server/src/platform/config.ts';
import { demoPassword } from '../../apps/server/src/surfaces/seed/demo.ts';
import { runConcurrently } from './stats.ts';

export type ToHasher = { type: 'measure'; verifies: number; concurrency: number } | { type: 'exit' };
export type FromHasher =
  | { type: 'ready' }
  | { type: 'measured'; seconds: number; cpuMs: number; latencies: number[] };

const send = (message: FromHasher) => process.send?.(message);
usePasswordHashing(loadConfig({ ...process.env, NODE_ENV: 'test' }).passwordHashing);
const hash = await hashPassword(demoPassword);

async function verifyMany(verifies: number, concurrency: number, latencies?: number[]): Promise<number> {
  return runConcurrently(verifies, concurrency, async () => {
    const start = performance.now();
    if (!(await verifyPassword(hash, demoPassword))) throw new Error('argon2id verification failed');
    latencies?.push(performance.now() - start);
  });
}

await verifyMany(8, 4);
process.on('message', async (message: ToHasher) => {
  if (message.type === 'exit') {
    process.disconnect();
    return;
  }
  const latencies: number[] = [];
  const cpu = process.cpuUsage();
  const seconds = await verifyMany(message.verifies, message.concurrency, latencies);
  const used = process.cpuUsage(cpu);
  send({ type: 'measured', seconds, cpuMs: (used.user + used.system) / 1000, latencies });
});
send({ type: 'ready' });
