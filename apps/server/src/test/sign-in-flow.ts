import type { UserIdentity } from '@keycard/contract';
import * as client from 'openid-client';
import { generate } from 'otplib';
import { expect } from 'vitest';
import { demo } from './helper.ts';
import type { Browser, Fetcher } from './http-client.ts';
import { demoRedirectUri, startAuthorization } from './oidc.ts';

/**
 * The portal's and the demo app's parts of a sign-in, over real HTTP, for tests that attack
 * the sign-in: each step as the portal's pages or the app's back end make it.
 */

export const demoClient = { id: 'demo-app', secret: 'demo-app-secret' };

/**
 * The password step in a browser: POST /api/login (for the app request `iid`, as the portal
 * says when it has one), then /api/authenticate with its code.
 */
export async function passwordStep(
  browser: Browser,
  origin: string,
  tenant: string,
  email: string,
  password = demo.password,
  options: { iid?: string } = {},
): Promise<UserIdentity> {
  const login = await browser.fetch(`${origin}/api/login`, {
    method: 'POST',
    body: { email, password, state: 'state-0123456789abcdef', ...options },
  });
  expect(login.status, 'the password step').toBe(200);
  const { code } = (await login.json()) as { code: string };
  const authenticate = await browser.fetch(`${origin}/api/authenticate`, {
    method: 'POST',
    body: { code, tenantCode: tenant },
  });
  expect(authenticate.status, 'the code exchange').toBe(200);
  return (await authenticate.json()) as UserIdentity;
}

/** The TOTP code of a secret at `nowMs` (the server's clock). */
export function totpCode(secret: string, nowMs: number): Promise<string> {
  return generate({ secret, epoch: Math.floor(nowMs / 1000) });
}

/** Registers an authenticator app in a signed-in browser; answers its secret and recovery codes. */
export async function registerTotp(
  browser: Browser,
  origin: string,
  nowMs: number,
): Promise<{ secret: string; recoveryCodes: string[] }> {
  const start = await browser.fetch(`${origin}/api/mfa/register-totp`, { method: 'POST', body: {} });
  expect(start.status, 'register-totp').toBe(200);
  const { secret } = (await start.json()) as { secret: string };
  const confirm = await browser.fetch(`${origin}/api/mfa/verify`, {
    method: 'POST',
    body: { code: await totpCode(secret, nowMs), deliveryType: 'totp' },
  });
  expect(confirm.status, 'the first TOTP code').toBe(200);
  const { recoveryCodes } = (await confirm.json()) as { recoveryCodes: string[] };
  return { secret, recoveryCodes };
}

/**
 * Where an authorization request ends for a browser whose Keycard session is complete: the
 * app's callback directly (single sign-on), or after the portal finishes the provider's
 * interaction (POST /api/authorize {iid}) and the browser resumes it.
 */
export async function callbackOf(browser: Browser, origin: string, location: string): Promise<URL> {
  if (location.startsWith(`${demoRedirectUri}?`)) return new URL(location);
  expect(location, 'an interaction of the provider').toMatch(/^\/login\?iid=/);
  const iid = new URL(location, origin).searchParams.get('iid');
  const authorize = await browser.fetch(`${origin}/api/authorize`, { method: 'POST', body: { iid } });
  expect(authorize.status, `POST /api/authorize: ${await authorize.clone().text()}`).toBe(200);
  const { location: resume } = (await authorize.json()) as { location: string };
  const resumed = await browser.fetch(resume);
  const callback = resumed.headers.get('location') ?? '';
  expect(callback.startsWith(`${demoRedirectUri}?`), `resumed to ${callback}`).toBe(true);
  return new URL(callback);
}

/** POST /oidc/token as the demo app's back end (client_secret_basic), through one instance. */
export function tokenRequest(
  fetcher: Fetcher,
  origin: string,
  params: Record<string, string>,
): Promise<Response> {
  const credentials = Buffer.from(`${demoClient.id}:${demoClient.secret}`).toString('base64');
  return fetcher(`${origin}/oidc/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${credentials}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams(params).toString(),
  });
}

/** The refresh-token grant: answers the status and the OAuth error or the new tokens. */
export async function refresh(
  fetcher: Fetcher,
  origin: string,
  refreshToken: string,
): Promise<{ status: number; error?: string; access_token?: string; refresh_token?: string }> {
  const response = await tokenRequest(fetcher, origin, {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
  });
  return { status: response.status, ...((await response.json()) as object) };
}

/** GET /oidc/me (userinfo) with a bearer access token: 200 while the token is alive. */
export async function userinfoStatus(fetcher: Fetcher, origin: string, accessToken: string): Promise<number> {
  const response = await fetcher(`${origin}/oidc/me`, {
    headers: { authorization: `Bearer ${accessToken}` },
  });
  await response.arrayBuffer();
  return response.status;
}

/** GET /api/session in a browser: whether its Keycard session still exists. */
export async function sessionExists(browser: Browser, origin: string): Promise<boolean> {
  const response = await browser.fetch(`${origin}/api/session`);
  return ((await response.json()) as { exists: boolean }).exists;
}

/**
 * An app's whole authorization for a browser whose Keycard session is complete: the request
 * (code + PKCE, with `params`), the callback, and the code exchange, as openid-client does it.
 */
export async function appSignIn(
  config: client.Configuration,
  browser: Browser,
  origin: string,
  params: Record<string, string> = {},
) {
  const start = await startAuthorization(config, browser, params);
  const callback = await callbackOf(browser, origin, start.location);
  return client.authorizationCodeGrant(config, callback, {
    pkceCodeVerifier: start.verifier,
    expectedState: start.state,
    expectedNonce: start.nonce,
  });
}
