import { calculateJwkThumbprint, createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPartnerApp, type PartnerApp } from './app.ts';

const keycardPort = 3999;

describe('demo partner app: partner tokens', () => {
  let app: PartnerApp;
  beforeAll(async () => {
    app = await createPartnerApp({ port: 0, keycardPort });
  });
  afterAll(() => app.close());

  async function openPortal(tenant: string): Promise<Response> {
    return fetch(`${app.url}/portal/${tenant}`, { method: 'POST', redirect: 'manual' });
  }

  /** The partner token and the rest of the portal address a click sends the browser to. */
  async function portalAddress(tenant: string): Promise<{ url: URL; token: string }> {
    const response = await openPortal(tenant);
    expect(response.status).toBe(303);
    const url = new URL(response.headers.get('location')!);
    const match = /^\/partners\/demo-partner\/sso\/([\w-]+\.[\w-]+\.[\w-]+)$/.exec(url.pathname);
    expect(match, url.pathname).not.toBeNull();
    return { url, token: match![1]! };
  }

  it('offers every hotel with an "Open the hotel portal" button and names its signing key', async () => {
    const response = await fetch(`${app.url}/`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<h3 id="tenant-grand-hotel">Grand Hotel Group</h3>');
    expect(html).toContain('<h3 id="tenant-summit">Summit</h3>');
    expect(html.match(/<button type="submit">Open the hotel portal<\/button>/g)).toHaveLength(2);
    const jwks = (await (await fetch(app.jwksUri)).json()) as { keys: Array<{ kid: string }> };
    expect(html).toContain(`<code>${jwks.keys[0]!.kid}</code>`);
  });

  it('publishes one public ES256 key whose id is its thumbprint', async () => {
    const response = await fetch(app.jwksUri);
    expect(response.status).toBe(200);
    const { keys } = (await response.json()) as { keys: Array<Record<string, string>> };
    expect(keys).toHaveLength(1);
    const [key] = keys;
    expect(key).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    expect(key).not.toHaveProperty('d');
    expect(key!.kid).toBe(await calculateJwkThumbprint(key!));
  });

  it('sends the browser to the hotel portal with a fresh, signed partner token per click', async () => {
    const { url, token } = await portalAddress('grand-hotel');
    expect(url.origin).toBe(`http://grand-hotel.localhost:${keycardPort}`);
    expect(url.searchParams.get('redirectUri')).toBe(`${app.url}/handoff`);

    const { payload, protectedHeader } = await jwtVerify(token, createRemoteJWKSet(new URL(app.jwksUri)), {
      issuer: app.issuer,
      audience: `http://grand-hotel.localhost:${keycardPort}/oidc`,
      algorithms: ['ES256'],
    });
    expect(app.issuer).toBe(app.url);
    expect(protectedHeader.kid).toMatch(/^[\w-]{43}$/);
    expect(payload).toMatchObject({
      sub: 'booker-1001',
      email: 'demo@grand-hotel.test',
      email_verified: true,
      given_name: 'Dana',
      family_name: 'Demo',
      locale: 'en',
    });
    // One audience only: the token is worth nothing at another hotel.
    expect(payload.aud).toBe(`http://grand-hotel.localhost:${keycardPort}/oidc`);
    expect(payload.exp! - payload.iat!).toBe(300);
    expect(Math.abs(payload.iat! - Date.now() / 1000)).toBeLessThan(5);

    const again = await portalAddress('grand-hotel');
    const second = await jwtVerify(again.token, createRemoteJWKSet(new URL(app.jwksUri)));
    expect(second.payload.jti).toMatch(/^[\w-]{16,}$/);
    expect(second.payload.jti).not.toBe(payload.jti);
  });

  it('addresses each hotel with its own audience and user', async () => {
    const { url, token } = await portalAddress('summit');
    expect(url.origin).toBe(`http://summit.localhost:${keycardPort}`);
    const { payload } = await jwtVerify(token, createRemoteJWKSet(new URL(app.jwksUri)), {
      audience: `http://summit.localhost:${keycardPort}/oidc`,
    });
    expect(payload).toMatchObject({ sub: 'booker-1002', email: 'demo@summit.test' });
    expect(decodeProtectedHeader(token).alg).toBe('ES256');
  });

  it('makes a new key at every start (rotation)', async () => {
    const other = await createPartnerApp({ port: 0, keycardPort });
    try {
      const kidOf = async (jwksUri: string) =>
        ((await (await fetch(jwksUri)).json()) as { keys: Array<{ kid: string }> }).keys[0]!.kid;
      expect(await kidOf(other.jwksUri)).not.toBe(await kidOf(app.jwksUri));
    } finally {
      await other.close();
    }
  });

  it('refuses a hotel it does not partner with and a hand-off without a code', async () => {
    expect((await openPortal('seaside')).status).toBe(404);
    const handoff = await fetch(`${app.url}/handoff?tenantCode=grand-hotel`);
    expect(handoff.status).toBe(400);
    expect(await handoff.text()).toContain('<code data-error="code">invalid_request</code>');
  });

  it('sends a visitor without a session to the home page', async () => {
    const response = await fetch(`${app.url}/me`, { redirect: 'manual' });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/');
  });
});
