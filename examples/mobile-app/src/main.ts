import { createMobileApp } from './app.ts';

function readPort(name: string, fallback: number): number {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`${name} must be a port number`);
  return port;
}

try {
  const app = await createMobileApp({
    port: readPort('MOBILE_APP_PORT', 3003),
    host: process.env.MOBILE_APP_HOST || undefined,
  });
  console.log(`Keycard example device app listening on ${app.url}`);

  const shutDown = (): void => {
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('mobile-app: shutdown failed', error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', shutDown);
  process.once('SIGTERM', shutDown);
} catch (error) {
  console.error(`mobile-app: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
