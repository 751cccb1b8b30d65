/**
 * Starts Keycard (port 3000 unless PORT says otherwise), the demo app (3001, DEMO_PORT), the
 * demo partner app (3002, PARTNER_PORT) and the example device app (3003, MOBILE_APP_PORT) side
 * by side, each in its own process, and stops them together. Once Keycard answers, it prints
 * where everything is, with the ports really in use, and how to create the first owner while
 * there is none.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const nodeArgs = ['--disable-warning=ExperimentalWarning'];
const port = process.env.PORT ?? '3000';
// What browsers reach: PUBLIC_PORT when a proxy sits in front, else the port Keycard listens on.
const publicPort = process.env.PUBLIC_PORT ?? port;
const demoPort = process.env.DEMO_PORT ?? '3001';
const partnerPort = process.env.PARTNER_PORT ?? '3002';
const devicePort = process.env.MOBILE_APP_PORT ?? '3003';
const adminDomain = process.env.ADMIN_DOMAIN ?? 'admin.localhost';
const seeded = process.env.SEED_DEMO !== 'false' && process.env.NODE_ENV !== 'production';

/**
 * Keycard itself starts with the tracing hook preloaded (it loads nothing unless
 * OTEL_EXPORTER_OTLP_ENDPOINT is set: docs/operations.md, Metrics and traces).
 */
const tracing = ['--import', path.join(root, 'apps/server/src/platform/observability/otel.ts')];

function run(name: string, script: string, env: Record<string, string>, extra: string[] = []): ChildProcess {
  const child = spawn(process.execPath, [...nodeArgs, ...extra, path.join(root, script)], {
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
  run('keycard', 'apps/server/src/main.ts', { PORT: port }, tracing),
  run('demo app', 'examples/demo-app/src/main.ts', { KEYCARD_PORT: publicPort, DEMO_PORT: demoPort }),
  run('partner app', 'examples/partner-app/src/main.ts', {
    KEYCARD_PORT: publicPort,
    PARTNER_PORT: partnerPort,
  }),
  run('device app', 'examples/mobile-app/src/main.ts', { MOBILE_APP_PORT: devicePort }),
];

function stop(code: number): void {
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 500).unref();
}

process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

/** Waits until Keycard answers its health check (a minute at most). */
async function keycardAnswers(): Promise<boolean> {
  for (let i = 0; i < 240 && !stopping; i++) {
    try {
      const answer = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (answer.ok) return true;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
}

/** Whether an owner exists, asked of the CLI with the server's environment (null: unknown). */
function ownerExists(): Promise<boolean | null> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...nodeArgs, path.join(root, 'apps/server/src/surfaces/cli/cli.ts'), 'operators', 'list'],
      { env: { ...process.env, PORT: port } },
      (error, stdout) =>
        resolve(error ? null : stdout.split('\n').some((line) => line.split('\t')[3] === 'owner')),
    );
  });
}

const origin = (host: string, onPort: string) => `http://${host}${onPort === '80' ? '' : `:${onPort}`}`;

void (async () => {
  if (!(await keycardAnswers())) return;
  const owner = await ownerExists();
  const lines = ['', '  Keycard is running.'];
  if (seeded) {
    lines.push(
      `    Grand Hotel Group  ${origin('grand-hotel.localhost', publicPort)}/login   demo@grand-hotel.test / Keycard-demo-1`,
      `    Seaside Resorts    ${origin('seaside.localhost', publicPort)}/login       demo@seaside.test / Keycard-demo-1`,
      `    Summit             ${origin('summit.localhost', publicPort)}/login        demo@summit.test / Keycard-demo-1 (sets up MFA)`,
      `    Demo app           ${origin('localhost', demoPort)}/`,
      `    Demo partner app   ${origin('localhost', partnerPort)}/   partner single sign-on into grand-hotel and summit`,
      `    Example device app ${origin('localhost', devicePort)}/   the partner mobile app in a browser: pair it at MFA setup`,
      `    Outbox (mail, SMS) ${origin('localhost', publicPort)}/_dev/outbox`,
    );
  }
  lines.push(`    Admin console      ${origin(adminDomain, publicPort)}/console/`);
  if (owner !== true) {
    lines.push(
      '',
      '  No owner yet: create the first one (it prints a one-time activation link):',
      '    npx keycard operators create-owner --email you@example.com',
    );
  }
  console.log(`${lines.join('\n')}\n`);
})();
