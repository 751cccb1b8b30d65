import { performance } from 'node:perf_hooks';
import { loopbackFetch } from '@keycard/demo-app/loopback-fetch';
import * as client from 'openid-client';
import { Browser } from '../../apps/server/src/test/http-client.ts';

/** The demo app's registration (apps/server/src/surfaces/seed/demo.ts). */
export const demoApp = {
  clientId: 'demo-app',
  clientSecret: 'demo-app-secret',
  redirectUri: 'http://localhost:3001/callback',
};

/** The requests of one full sign-in, in order; each is timed on its own. */
export const steps = [
  'GET /oidc/auth',
  'POST /api/login',
  'POST /api/authenticate',
  'POST /api/authorize',
  'GET /oidc/auth/:uid (resume)',
  'POST /oidc/token',
] as const;
export type Step = (typeof steps)[number];

/**
 * The app's side, as an unmodified confidential client: discovery (once, as a real app
 * caches it), client_secret_basic at the token endpoint.
 */
export function discoverIssuer(origin: string): Promise<client.Configuration> {
  return client.discovery(
    new URL(`${origin}/oidc`),
    demoApp.clientId,
    undefined,
    client.ClientSecretBasic(demoApp.clientSecret),
    { execute: [client.allowInsecureRequests], [client.customFetch]: loopbackFetch },
  );
}

function expect(condition: unknown, what: string): asserts condition {
  if (!condition) throw new Error(`sign-in failed: ${what}`);
}

/**
 * One full sign-in of a fresh browser: the app's authorization request (code + PKCE, state,
 * nonce), the portal's password step, code exchange and authorize with the interaction id,
 * the browser's return to the provider, and the app's code exchange at the token endpoint
 * (which also checks the ID token: signature, issuer, audience, nonce). Answers each step's
 * latency in milliseconds, responses read to the end.
 */
export async function signIn(
  config: client.Configuration,
  input: { origin: string; tenant: string; email: string; password: string },
): Promise<Record<Step, number>> {
  const { origin, tenant, email, password } = input;
  const times = {} as Record<Step, number>;
  const browser = new Browser();
  let start = 0;
  const begin = () => {
    start = performance.now();
  };
  const end = (step: Step) => {
    times[step] = performance.now() - start;
  };

  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const authorizationUrl = client.buildAuthorizationUrl(config, {
    redirect_uri: demoApp.redirectUri,
    scope: 'openid email profile',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });

  begin();
  const auth = await browser.fetch(authorizationUrl.href);
  await auth.arrayBuffer();
  end('GET /oidc/auth');
  const loginLocation = auth.headers.get('location') ?? '';
  expect(
    auth.status === 303 && loginLocation.startsWith('/login?iid='),
    `/oidc/auth answered ${auth.status}`,
  );
  const iid = new URL(loginLocation, origin).searchParams.get('iid')!;

  begin();
  const login = await browser.fetch(`${origin}/api/login`, {
    method: 'POST',
    body: { email, password, state: 'bench-portal-state-0123456789' },
  });
  const { code } = (await login.json()) as { code: string };
  end('POST /api/login');
  expect(login.status === 200, `/api/login answered ${login.status}`);

  begin();
  const authenticate = await browser.fetch(`${origin}/api/authenticate`, {
    method: 'POST',
    body: { code, tenantCode: tenant },
  });
  await authenticate.arrayBuffer();
  end('POST /api/authenticate');
  expect(authenticate.status === 200, `/api/authenticate answered ${authenticate.status}`);

  begin();
  const authorize = await browser.fetch(`${origin}/api/authorize`, { method: 'POST', body: { iid } });
  const { location } = (await authorize.json()) as { location: string };
  end('POST /api/authorize');
  expect(authorize.status === 200, `/api/authorize answered ${authorize.status}`);

  begin();
  const resumed = await browser.fetch(location);
  await resumed.arrayBuffer();
  end('GET /oidc/auth/:uid (resume)');
  const callback = resumed.headers.get('location') ?? '';
  expect(
    resumed.status === 303 && callback.startsWith(`${demoApp.redirectUri}?`),
    `resume answered ${resumed.status}`,
  );

  begin();
  const tokens = await client.authorizationCodeGrant(config, new URL(callback), {
    pkceCodeVerifier: verifier,
    expectedState: state,
    expectedNonce: nonce,
  });
  end('POST /oidc/token');
  expect(tokens.claims()?.email === email, 'the ID token names another account');
  return times;
}
