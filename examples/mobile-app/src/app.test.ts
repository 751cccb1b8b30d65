import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMobileApp, type MobileApp } from './app.ts';

describe('example device app: the static page and its script', () => {
  let app: MobileApp;
  beforeAll(async () => {
    app = await createMobileApp({ port: 0 });
  });
  afterAll(() => app.close());

  it('serves the page with a label for every field and a CSP that lets it reach any tenant', async () => {
    const response = await fetch(`${app.url}/`);
    expect(response.status).toBe(200);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain('connect-src');
    expect(csp).toContain("frame-ancestors 'none'");
    const html = await response.text();
    for (const id of ['enrolment-uri', 'device-name', 'qr-file'])
      expect(html).toMatch(new RegExp(`<label for="${id}">[^<]+</label>`));
    expect(html).toContain('<p id="app-error" class="error" role="alert"></p>');
    expect(html).toContain('<script type="module" src="/app.js"></script>');
  });

  it('serves the bundled browser code with graphql-ws inlined and the shared style', async () => {
    const script = await fetch(`${app.url}/app.js`);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const code = await script.text();
    expect(code).toContain('graphql-transport-ws');
    expect(code).not.toMatch(/from\s*["']graphql-ws["']/);
    const style = await (await fetch(`${app.url}/style.css`)).text();
    expect(style).toContain('button.number');
    expect(style).toContain('.claims dt');
  });

  it('answers unknown paths 404 and other methods 405', async () => {
    expect((await fetch(`${app.url}/nope`)).status).toBe(404);
    expect((await fetch(`${app.url}/`, { method: 'POST' })).status).toBe(405);
  });
});
