import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { renderAppPage } from './page.ts';

export interface MobileAppOptions {
  /** Port to listen on; 0 picks a free one. Default 3003. */
  port?: number;
  /** Interface to listen on. Default 127.0.0.1. */
  host?: string;
}

export interface MobileApp {
  server: Server;
  /** http://localhost:<port>: the origin Keycard must list in MOBILE_APP_ORIGINS. */
  url: string;
  close(): Promise<void>;
}

// The demo app's style, then this app's additions: one sheet, as the shared document shell links it.
const styleSheet = [
  readFileSync(new URL('../../demo-app/src/style.css', import.meta.url), 'utf8'),
  readFileSync(new URL('./style.css', import.meta.url), 'utf8'),
].join('\n');

const securityHeaders = {
  // GraphQL calls and the websocket go straight to whichever tenant the enrolment link named.
  'content-security-policy':
    "default-src 'self'; connect-src 'self' http: https: ws: wss:; img-src 'self' blob: data:; media-src 'self' blob: mediastream:; style-src 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'permissions-policy': 'camera=(self)',
};

/**
 * The browser code, bundled once at start-up into memory: TypeScript in src/client with
 * graphql-ws inlined, so the app needs no build step of its own. The QR reader (jsqr is most of
 * the weight) is split off and loaded only when someone reads a QR code. Answers the files by
 * their URL path: /app.js and its chunks.
 */
async function bundleClient(): Promise<Map<string, string>> {
  const outdir = fileURLToPath(new URL('./client-bundle', import.meta.url));
  const result = await build({
    entryPoints: { app: fileURLToPath(new URL('./client/main.ts', import.meta.url)) },
    bundle: true,
    splitting: true,
    write: false,
    outdir,
    format: 'esm',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const files = new Map<string, string>();
  for (const output of result.outputFiles) files.set(`/${path.relative(outdir, output.path)}`, output.text);
  if (!files.has('/app.js')) throw new Error('esbuild produced no /app.js');
  return files;
}

function send(response: ServerResponse, status: number, type: string, body: string): void {
  response.writeHead(status, { ...securityHeaders, 'content-type': type, 'cache-control': 'no-store' });
  response.end(body);
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** A static page and its script: everything else (keys, tokens, GraphQL) happens in the browser. */
export async function createMobileApp(options: MobileAppOptions = {}): Promise<MobileApp> {
  const scripts = await bundleClient();
  const page = renderAppPage();
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    const { pathname } = new URL(request.url ?? '/', 'http://mobile-app.invalid');
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    if (method !== 'GET') return send(response, 405, 'text/plain; charset=utf-8', 'Method not allowed');
    if (pathname === '/') return send(response, 200, 'text/html; charset=utf-8', page);
    const script = scripts.get(pathname);
    if (script !== undefined) return send(response, 200, 'text/javascript; charset=utf-8', script);
    if (pathname === '/style.css') return send(response, 200, 'text/css; charset=utf-8', styleSheet);
    if (pathname === '/healthz') return send(response, 200, 'text/plain; charset=utf-8', 'ok');
    if (pathname === '/favicon.ico') {
      response.writeHead(204, securityHeaders);
      response.end();
      return;
    }
    send(response, 404, 'text/plain; charset=utf-8', 'Not found');
  });
  await listen(server, options.port ?? 3003, options.host ?? '127.0.0.1');
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: `http://localhost:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
