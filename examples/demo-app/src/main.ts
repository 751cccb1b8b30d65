import { createDemoApp } from './app.ts';
import { parseTenantSlugs } from './tenants.ts';

function readPort(name: string, fallback: number): number {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`${name} must be a port number`);
  return port;
}

function readScheme(): 'http' | 'https' {
  const value = process.env.KEYCARD_SCHEME ?? 'http';
  if (value !== 'http' && value !== 'https') throw new Error('KEYCARD_SCHEME must be http or https');
  return value;
}

try {
  const app = await createDemoApp({
    port: readPort('DEMO_PORT', 3001),
    host: process.env.DEMO_HOST || undefined,
    keycardPort: readPort('KEYCARD_PORT', 3000),
    keycardScheme: readScheme(),
    tenants: parseTenantSlugs(process.env.DEMO_TENANTS),
    redirectBase: process.env.DEMO_REDIRECT_BASE || undefined,
  });
  console.log(`Keycard demo app listening on ${app.url}`);

  const shutDown = (): void => {
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('demo-app: shutdown failed', error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', shutDown);
  process.once('SIGTERM', shutDown);
} catch (error) {
  console.error(`demo-app: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
