import { createPartnerApp } from './app.ts';

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

function readTenants(): string[] | undefined {
  const slugs = (process.env.PARTNER_TENANTS ?? '')
    .split(',')
    .map((slug) => slug.trim().toLowerCase())
    .filter((slug) => slug !== '');
  return slugs.length > 0 ? slugs : undefined;
}

try {
  const port = readPort('PARTNER_PORT', 3002);
  const app = await createPartnerApp({
    port,
    host: process.env.PARTNER_HOST || undefined,
    keycardPort: readPort('KEYCARD_PORT', 3000),
    keycardScheme: readScheme(),
    tenants: readTenants(),
    publicBase: process.env.PARTNER_PUBLIC_BASE || `http://localhost:${port}`,
    issuer: process.env.PARTNER_ISSUER || undefined,
  });
  console.log(`Keycard demo partner app listening on ${app.url} (issuer ${app.issuer})`);

  const shutDown = (): void => {
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('partner-app: shutdown failed', error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', shutDown);
  process.once('SIGTERM', shutDown);
} catch (error) {
  console.error(`partner-app: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
