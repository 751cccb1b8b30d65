/**
 * Starts Keycard (port 3000 unless PORT says otherwise), the demo app (port 3001), the demo
 * partner app (port 3002) and the example device app (port 3003) side by side, each in its own
 * process, and stops them together.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const nodeArgs = ['--disable-warning=ExperimentalWarning'];
const port = process.env.PORT ?? '3000';
const adminDomain = process.env.ADMIN_DOMAIN ?? 'admin.localhost';

function run(name: string, script: string, env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, [...nodeArgs, path.join(root, script)], {
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  child.on('exit', (code, signal) => {
    if (!stopping) {
      console.error(`${name} stopped (${signal ?? code}); stopping everything`);
      stop(code ?? 1);
    }
  });
  return child;
}

let stopping = false;
const children = [
  run('keycard', 'apps/server/src/main.ts', { PORT: port }),
  run('demo app', 'examples/demo-app/src/main.ts', { KEYCARD_PORT: port }),
  run('partner app', 'examples/partner-app/src/main.ts', { KEYCARD_PORT: port }),
  run('device app', 'examples/mobile-app/src/main.ts', {}),
];

function stop(code: number): void {
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 500).unref();
}

process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

setTimeout(() => {
  console.log(`
  Keycard is running.
    Grand Hotel Group  http://grand-hotel.localhost:${port}/login   demo@grand-hotel.test / Keycard-demo-1
    Seaside Resorts    http://seaside.localhost:${port}/login       demo@seaside.test / Keycard-demo-1
    Demo app           http://localhost:3001/
    Demo partner app   http://localhost:3002/   partner single sign-on into grand-hotel and summit
    Example device app http://localhost:3003/   the partner mobile app in a browser: pair it at MFA setup
    Outbox (mail, SMS) http://localhost:${port}/_dev/outbox
    Admin console      http://${adminDomain}:${port}/console/   (create an owner: npx keycard operators create-owner --email you@example.com)
`);
}, 1500).unref();
