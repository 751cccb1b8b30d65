/**
 * Login benchmark: the password step (POST /api/login) and the code exchange
 * (POST /api/authenticate) against a real server on SQLite, over loopback HTTP.
 * Password hashing should be the only expensive step; the report shows each call's
 * latency next to a bare argon2id verification for comparison.
 *
 *   npm run bench            (defaults: 40 logins, concurrency 2)
 *   BENCH_LOGINS=200 BENCH_CONCURRENCY=4 npm run bench
 */
import { performance } from 'node:perf_hooks';
import { loopbackFetch } from '@keycard/demo-app/loopback-fetch';
import { hashPassword, verifyPassword } from '../apps/server/src/accounts/password.service.ts';
import { startKeycard } from '../e2e/support/keycard.ts';

const logins = Number(process.env.BENCH_LOGINS ?? 40);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 2);

function summary(label: string, samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(1);
  const mean = (samples.reduce((a, b) => a + b, 0) / samples.length).toFixed(1);
  return `${label.padEnd(28)} n=${samples.length}  mean ${mean} ms  p50 ${at(0.5)}  p95 ${at(0.95)}  max ${at(1)}`;
}

const keycard = await startKeycard({ env: { LOGIN_IP_LIMIT_PER_MINUTE: '100000' } });
const origin = keycard.origin();
const headers = { 'content-type': 'application/json', origin };
const base = origin;

const hash = await hashPassword('Keycard-demo-1');
const argon: number[] = [];
for (let i = 0; i < 10; i++) {
  const start = performance.now();
  await verifyPassword(hash, 'Keycard-demo-1');
  argon.push(performance.now() - start);
}

const loginTimes: number[] = [];
const exchangeTimes: number[] = [];
let next = 0;
const started = performance.now();
async function worker(): Promise<void> {
  while (next++ < logins) {
    let start = performance.now();
    const login = await loopbackFetch(`${base}/api/login`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        email: 'demo@grand-hotel.test',
        password: 'Keycard-demo-1',
        state: 'bench-state-0123456789',
      }),
    });
    loginTimes.push(performance.now() - start);
    if (!login.ok) throw new Error(`login answered ${login.status}`);
    const { code } = (await login.json()) as { code: string };
    start = performance.now();
    const exchange = await loopbackFetch(`${base}/api/authenticate`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ code, tenantCode: 'grand-hotel' }),
    });
    exchangeTimes.push(performance.now() - start);
    if (!exchange.ok) throw new Error(`authenticate answered ${exchange.status}`);
  }
}
await Promise.all(Array.from({ length: concurrency }, worker));
const seconds = (performance.now() - started) / 1000;

console.log(summary('argon2id verify (in process)', argon));
console.log(summary('POST /api/login', loginTimes));
console.log(summary('POST /api/authenticate', exchangeTimes));
console.log(`throughput: ${(logins / seconds).toFixed(1)} complete logins/s at concurrency ${concurrency}`);
await keycard.close();
