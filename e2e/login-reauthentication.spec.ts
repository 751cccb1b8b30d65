import { createHash, randomBytes } from 'node:crypto';
import type { DemoApp } from '@keycard/demo-app/app';
import { loopbackFetch } from '@keycard/demo-app/loopback-fetch';
import { en } from '@keycard/texts';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible, newContext } from './support/browser.ts';
import type { Keycard } from './support/keycard.ts';
import {
  continueAfterRecoveryCodes,
  createTestUser,
  expectHeading,
  password,
  registerTotp,
  signIn,
} from './support/mfa.ts';
import { useSignInStack } from './support/stack.ts';

const notice = en.login.notices.reauthenticate;

interface AppRequest {
  url: string;
  state: string;
  verifier: string;
}

/**
 * An app's own authorization request (PKCE, as an OIDC client builds it), with the extra
 * parameters under test (prompt=login, max_age). The demo app does not send those, so the
 * request is made here, for the demo app's client and its registered callback.
 */
function appRequest(
  keycard: Keycard,
  demoApp: DemoApp,
  tenant: string,
  extra: Record<string, string>,
): AppRequest {
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(16).toString('base64url');
  const url = new URL(`${keycard.origin(tenant)}/oidc/auth`);
  url.search = new URLSearchParams({
    client_id: 'demo-app',
    redirect_uri: `${demoApp.url}/callback`,
    response_type: 'code',
    scope: 'openid email',
    state,
    nonce: randomBytes(16).toString('base64url'),
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    ...extra,
  }).toString();
  return { url: url.href, state, verifier };
}

/** Redeems the code as the app would (client_secret_basic + PKCE) and answers the ID token's claims. */
async function redeemCode(
  keycard: Keycard,
  demoApp: DemoApp,
  tenant: string,
  request: AppRequest,
  code: string,
): Promise<{ email: string; auth_time: number }> {
  const response = await loopbackFetch(`${keycard.origin(tenant)}/oidc/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from('demo-app:demo-app-secret').toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: `${demoApp.url}/callback`,
      code_verifier: request.verifier,
    }).toString(),
  });
  expect(response.status).toBe(200);
  const { id_token } = (await response.json()) as { id_token: string };
  return JSON.parse(Buffer.from(id_token.split('.')[1]!, 'base64url').toString('utf8'));
}

/**
 * OIDC auth_time and the provider's request time are whole seconds, so a sign-in and a request
 * for one "no older than 0 s" in the same second count as simultaneous. Start the app's request
 * in the next second, as any real app's would be. (The server compares prompt=login at the
 * same whole-second precision, so it too is satisfied by a sign-in earlier in that second.)
 */
async function nextSecond(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 50));
}

/** The bodies of the POST /api/login requests this page makes, as sent. */
function recordLoginBodies(page: Page): Array<Record<string, unknown>> {
  const bodies: Array<Record<string, unknown>> = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/login') {
      bodies.push(request.postDataJSON() as Record<string, unknown>);
    }
  });
  return bodies;
}

describe('an app asks for a fresh sign-in: prompt=login and max_age (Chromium)', () => {
  const stack = useSignInStack({ env: { LOGIN_MAX_FAILURES: '3' } });

  /** Signs in through the demo app (its own OIDC request) and answers the page, at /me. */
  async function signedInAtDemoApp(tenant: string, tenantName: string, email: string): Promise<Page> {
    const page = await (await newContext(stack.browser)).newPage();
    await page.goto(`${stack.demoApp.url}/`);
    await page.getByRole('link', { name: `Sign in with ${tenantName}` }).click();
    await page.waitForURL(new RegExp(`^${stack.keycard.origin(tenant)}/login\\?iid=`));
    await signIn(page, email);
    await page.waitForURL(`${stack.demoApp.url}/me`);
    expect(await page.locator('[data-claim="email"]').innerText()).toBe(email);
    return page;
  }

  /** The password step of a reauthentication: the session's e-mail shown, the notice, no app yet. */
  async function expectReauthenticationStep(page: Page, tenant: string, email: string): Promise<void> {
    await page.waitForURL(
      new RegExp(`^${stack.keycard.origin(tenant)}/login/password\\?iid=[^&]+&reauth=true$`),
    );
    await expectHeading(page, en.login.password.heading);
    await expect.poll(() => page.getByRole('status').innerText()).toBe(notice);
    expect(await page.getByText(`Logging in as ${email}`).isVisible()).toBe(true);
    expect(await page.getByLabel('Password', { exact: true }).inputValue()).toBe('');
  }

  /** Submits the password and answers the app's callback parameters (checked against its state). */
  async function finishAtCallback(page: Page, request: AppRequest): Promise<string> {
    const landed = page.waitForURL((url) => url.href.startsWith(`${stack.demoApp.url}/callback?`));
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await landed;
    const callback = new URL(page.url());
    expect(callback.searchParams.get('error')).toBeNull();
    expect(callback.searchParams.get('state')).toBe(request.state);
    const code = callback.searchParams.get('code');
    expect(code).toMatch(/\S{20,}/);
    return code!;
  }

  it('max_age=0: asks the signed-in user for the password again, then gives the app a code with a fresh auth_time', async () => {
    const email = await createTestUser(stack.keycard, 'grand-hotel');
    const page = await signedInAtDemoApp('grand-hotel', 'Grand Hotel Group', email);
    const logins = recordLoginBodies(page);

    await nextSecond();
    const request = appRequest(stack.keycard, stack.demoApp, 'grand-hotel', { max_age: '0' });
    await page.goto(request.url);
    await expectReauthenticationStep(page, 'grand-hotel', email);
    await expect.poll(() => page.title()).toBe('Enter your password | Grand Hotel Group');
    await expectAccessible(page, 'reauthentication password step');
    await page.screenshot({ path: '/tmp/keycard-reauth-1280.png', fullPage: true });
    await page.setViewportSize({ width: 375, height: 812 });
    await page.screenshot({ path: '/tmp/keycard-reauth-375.png', fullPage: true });
    await expectAccessible(page, 'reauthentication password step (375 px)');
    await page.setViewportSize({ width: 1280, height: 720 });

    const askedAt = Math.floor(Date.now() / 1000);
    const code = await finishAtCallback(page, request);
    const claims = await redeemCode(stack.keycard, stack.demoApp, 'grand-hotel', request, code);
    expect(claims.email).toBe(email);
    expect(claims.auth_time).toBeGreaterThanOrEqual(askedAt);
    // No trusted device in this browser: the login carries no device token.
    expect(logins).toHaveLength(1);
    expect(logins[0]).not.toHaveProperty('userDeviceToken');
    await page.context().close();
  });

  it('prompt=login: stays on the login, also after changing the e-mail, until the password is entered', async () => {
    const email = await createTestUser(stack.keycard, 'grand-hotel');
    const page = await signedInAtDemoApp('grand-hotel', 'Grand Hotel Group', email);

    await nextSecond();
    const request = appRequest(stack.keycard, stack.demoApp, 'grand-hotel', { prompt: 'login' });
    await page.goto(request.url);
    await expectReauthenticationStep(page, 'grand-hotel', email);

    // 'Change e-mail' goes back to the e-mail step: the complete session must not carry the
    // browser on to the app there either.
    await page.getByRole('link', { name: 'Change e-mail' }).click();
    await page.waitForURL(
      new RegExp(`^${stack.keycard.origin('grand-hotel')}/login\\?iid=[^&]+&reauth=true$`),
    );
    await expectHeading(page, en.login.email.heading);
    await expect.poll(() => page.getByRole('status').innerText()).toBe(notice);
    await page.waitForTimeout(1500);
    expect(new URL(page.url()).pathname).toBe('/login');
    await expectAccessible(page, 'reauthentication e-mail step');

    await page.getByLabel('E-mail', { exact: true }).fill(email);
    await page.getByRole('button', { name: 'Next' }).click();
    await expectReauthenticationStep(page, 'grand-hotel', email);
    const askedAt = Math.floor(Date.now() / 1000);
    const code = await finishAtCallback(page, request);
    const claims = await redeemCode(stack.keycard, stack.demoApp, 'grand-hotel', request, code);
    expect(claims.auth_time).toBeGreaterThanOrEqual(askedAt);
    await page.context().close();
  });

  it('a trusted browser sends its device token with the password and is not locked out by guesses elsewhere', async () => {
    const email = await createTestUser(stack.keycard, 'summit');
    const page = await (await newContext(stack.browser)).newPage();
    await page.goto(`${stack.demoApp.url}/`);
    await page.getByRole('link', { name: 'Sign in with Summit' }).click();
    await page.waitForURL(new RegExp(`^${stack.keycard.origin('summit')}/login\\?iid=`));
    await signIn(page, email);
    await page.waitForURL(`${stack.keycard.origin('summit')}/mfa`);
    await registerTotp(page, stack.keycard);
    await continueAfterRecoveryCodes(page);
    await page.waitForURL(`${stack.demoApp.url}/me`);
    // The trusted device's token is the HttpOnly AUTH_X_DEVICE_ID cookie.
    const deviceToken = (await page.context().cookies(stack.keycard.origin('summit'))).find(
      (c) => c.name === 'AUTH_X_DEVICE_ID',
    )?.value;
    expect(deviceToken).toMatch(/^[\w-]{43}$/);

    // Someone else guesses at the address until it locks (LOGIN_MAX_FAILURES=3).
    const attacker = await (await newContext(stack.browser)).newPage();
    await attacker.goto(`${stack.keycard.origin('summit')}/login`);
    await attacker.getByLabel('E-mail', { exact: true }).fill(email);
    await attacker.getByRole('button', { name: 'Next' }).click();
    for (let i = 0; i < 3; i++) {
      await attacker.getByLabel('Password', { exact: true }).fill(`Wrong-password-${i}`);
      await attacker.getByRole('button', { name: 'Log in' }).click();
      if (i < 2) await expect.poll(() => attacker.getByRole('alert').count()).toBe(1);
    }
    await attacker.waitForURL(`${stack.keycard.origin('summit')}/error/account-disabled/`);
    await attacker.context().close();

    // The owner's app asks for a fresh sign-in: the trusted browser's login carries its cookie,
    // is counted apart from the locked address, and skips MFA on the trusted device.
    const logins = recordLoginBodies(page);
    await nextSecond();
    const request = appRequest(stack.keycard, stack.demoApp, 'summit', { max_age: '0' });
    await page.goto(request.url);
    await expectReauthenticationStep(page, 'summit', email);
    await finishAtCallback(page, request);
    expect(logins).toEqual([{ email, password, state: expect.any(String), iid: expect.any(String) }]);
    await page.context().close();
  });
});
