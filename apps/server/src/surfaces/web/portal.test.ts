import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portalRoutes } from './portal.ts';

describe('the portal pages', () => {
  let app: FastifyInstance;
  let dist: string;
  beforeAll(async () => {
    dist = mkdtempSync(path.join(tmpdir(), 'keycard-portal-'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>portal</title>');
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'assets', 'app-1234.js'), 'export {}');
    // The build writes compressed copies beside each asset (apps/portal/vite.config.ts).
    writeFileSync(path.join(dist, 'assets', 'app-1234.js.br'), brotliCompressSync('export {}'));
    app = Fastify();
    await app.register(portalRoutes, { distDir: dist });
  });
  afterAll(async () => {
    await app.close();
    rmSync(dist, { recursive: true, force: true });
  });

  const get = (url: string) => app.inject({ method: 'GET', url });

  it('serves the page for every portal route, a partner link ending in a JWT included', async () => {
    const jwt = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';
    for (const url of ['/login', '/login/password', `/partners/demo-partner/sso/${jwt}`, '/error/']) {
      const answer = await get(url);
      expect(answer.statusCode, url).toBe(200);
      expect(answer.headers['content-type'], url).toContain('text/html');
      expect(answer.body, url).toContain('<title>portal</title>');
    }
  });

  it("sends an asset's Brotli copy to a browser that takes it, the file itself to others", async () => {
    const br = await app.inject({
      method: 'GET',
      url: '/assets/app-1234.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe('export {}');
    const plain = await app.inject({ method: 'GET', url: '/assets/app-1234.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('export {}');
  });

  it('answers an unknown page with the page and 404, a missing file with a JSON 404', async () => {
    const page = await get('/no-such-page');
    expect(page.statusCode).toBe(404);
    expect(page.headers['content-type']).toContain('text/html');
    for (const url of ['/assets/missing-0000.js', '/favicon.ico', '/partners/x/sso/a.b.c/extra.js']) {
      const file = await get(url);
      expect(file.statusCode, url).toBe(404);
      expect(file.json(), url).toMatchObject({ code: 'common.not_found' });
    }
    expect((await get('/assets/app-1234.js')).statusCode).toBe(200);
  });
});
