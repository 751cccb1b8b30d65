import { loopbackFetch } from '@keycard/demo-app/loopback-fetch';
import * as client from 'openid-client';
import type { Engine } from '../platform/db/database.ts';
import { buildTestApp, freePort, type TestApp } from './helper.ts';
import type { Browser } from './http-client.ts';

export const demoRedirectUri = 'http://localhost:3001/callback';

/** A test app listening on a free port, so its issuers (which name the port) are real URLs. */
export async function listeningTestApp(
  engine: Engine,
  options: { env?: Record<string, string>; portalDist?: string } = {},
): Promise<{ t: TestApp; origin: (tenant: string) => string }> {
  const port = await freePort();
  const t = await buildTestApp(engine, {
    env: { ...options.env, PORT: String(port) },
    ...(options.portalDist ? { portalDist: options.portalDist } : {}),
  });
  await t.app.listen({ port, host: '127.0.0.1' });
  return { t, origin: (tenant) => `http://${tenant}.localhost:${port}` };
}

/** openid-client discovery of a tenant's issuer, as the demo app (a confidential client). */
export function discoverIssuer(origin: string): Promise<client.Configuration> {
  return client.discovery(new URL(`${origin}/oidc`), 'demo-app', 'demo-app-secret', undefined, {
    execute: [client.allowInsecureRequests],
    [client.customFetch]: loopbackFetch,
  });
}

/** Sends the browser to /oidc/auth with code + PKCE, state and nonce; answers what it needs later. */
export async function startAuthorization(
  config: client.Configuration,
  browser: Browser,
  extra: Record<string, string> = {},
) {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: demoRedirectUri,
    scope: 'openid email profile',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ...extra,
  });
  const response = await browser.fetch(url.href);
  return { response, verifier, state, nonce, location: response.headers.get('location') ?? '' };
}
