import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { loopbackFetch } from '@keycard/demo-app/loopback-fetch';
import { en as consoleEn } from '@keycard/texts/console/en';
import * as client from 'openid-client';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launchBrowser, newContext } from './support/browser.ts';
import { adminOrigin, expectSignedInAs, fillText as fill } from './support/console.ts';
import { type Keycard, startKeycard } from './support/keycard.ts';
import { loginWithPassword } from './support/login.ts';
import { continueAfterRecoveryCodes, registerTotp } from './support/mfa.ts';
import { linkIn, waitForMail } from './support/outbox.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const shots = process.env.CONSOLE_SHOTS ?? path.join(tmpdir(), 'console-shots');
const owner = { email: 'integrator@lakeside.example', password: 'Integrator-owner-77' };
const guest = { email: 'guest@lakeside.test', password: 'Guest-password-42' };
/** The integrator's own app: a port nothing listens on; the browser's visit there is caught. */
const appOrigin = 'http://localhost:4999';

/**
 * Issue 19, "Done means": the integrator's first hour, from a fresh data directory on a port
 * that is not 3000. The owner is created with the real `keycard` command in another process,
 * given no PORT (it must find the server's); the console shows the new tenant's issuer and
 * sign-in page; a client is made there; an invited guest accepts; and an unmodified OIDC
 * client (openid-client, configured only from what the console showed) signs the guest in.
 */
/**
 * After a password sign-in the portal may offer a passkey first (issue 18): the integrator says
 * "Not now" when it does, and goes on to where the sign-in was going.
 */
async function passOffer(page: Page, arrived: () => boolean): Promise<void> {
  const notNow = page.getByRole('button', { name: 'Not now' });
  await expect
    .poll(
      async () => {
        if (arrived()) return true;
        if (await notNow.isVisible().catch(() => false)) await notNow.click().catch(() => undefined);
        return arrived();
      },
      { timeout: 20_000 },
    )
    .toBe(true);
}

/** The owner's first sign-in: password, a new authenticator app, and back in the console. */
async function signInFirstTime(page: Page, keycard: Keycard, operator: typeof owner): Promise<void> {
  await page.waitForURL(/\/login\?iid=/);
  await loginWithPassword(page, operator.email, operator.password);
  await registerTotp(page, keycard);
  await continueAfterRecoveryCodes(page);
  await passOffer(page, () => page.url() === `${adminOrigin(keycard)}/console/`);
  await expectSignedInAs(page, operator.email);
}

describe('the integrator’s first hour (Chromium)', () => {
  let keycard: Keycard;
  let browser: Browser;
  let page: Page;
  let admin: string;
  const shown: { issuer?: string; signIn?: string; jwks?: string; secret?: string } = {};

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    keycard = await startKeycard({ env: { LOGIN_IP_LIMIT_PER_MINUTE: '1000' } });
    expect(keycard.port).not.toBe(3000);
    browser = await launchBrowser();
    admin = adminOrigin(keycard);
    page = await (await newContext(browser)).newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
  });
  afterAll(async () => {
    await browser?.close();
    await keycard?.close();
  });

  const heading = () => page.getByRole('heading', { level: 1 }).innerText();
  const shot = (name: string) =>
    page.screenshot({ path: path.join(shots, `first-hour-${name}.png`), fullPage: true });

  it('creates the owner with the keycard command, which finds the server’s port by itself', async () => {
    // Another shell: the same DATA_DIR, no PORT or PUBLIC_PORT.
    const { PORT: _port, PUBLIC_PORT: _public, ...rest } = process.env;
    const env = { ...rest, DATA_DIR: keycard.services.config.dataDir, NODE_ENV: 'test' };
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [
        '--disable-warning=ExperimentalWarning',
        path.join(root, 'apps/server/src/surfaces/cli/cli.ts'),
        'operators',
        'create-owner',
        '--email',
        owner.email,
      ],
      { env, cwd: root },
    );
    const link = new URL(stdout.trim());
    expect(link.origin).toBe(admin);
    expect(stderr).toContain(`${admin}/console/`);
    const activation = await loopbackFetch(`${admin}/api/user/activate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: admin },
      body: JSON.stringify({
        token: link.searchParams.get('token'),
        password: owner.password,
        secretQuestion: 'first-pet-name',
        secretAnswer: 'Rex',
      }),
    });
    expect(activation.status).toBe(200);
    await keycard.services.tenants.refresh();
  });

  it('signs in to the console and creates a tenant with its theme', async () => {
    await page.goto(`${admin}/console/`);
    await signInFirstTime(page, keycard, owner);
    await page.getByRole('link', { name: consoleEn.tenants.new }).click();
    await expect.poll(heading).toBe(consoleEn.newTenant.heading);
    const field = (name: keyof typeof consoleEn.newTenant) =>
      page.getByLabel(consoleEn.newTenant[name], { exact: false }).first();
    await field('code').fill('lakeside');
    await field('name').fill('Lakeside Lodges');
    await field('loginDomain').fill('lakeside.localhost');
    await field('defaultRedirectUri').fill(`${appOrigin}/`);
    await page
      .getByLabel(fill(consoleEn.theme.colourHex, { name: consoleEn.theme.colours.primaryBackground }))
      .fill('#0b5d3b');
    await page.getByRole('button', { name: consoleEn.newTenant.create }).click();
    await page.getByRole('button', { name: consoleEn.clients.secretDone }).click();
    await expect.poll(heading).toBe(fill(consoleEn.tenant.heading, { code: 'lakeside' }));
  });

  it('shows the tenant’s issuer, discovery, JWKS and sign-in addresses, which answer as shown', async () => {
    const endpoints = page.getByRole('region', { name: consoleEn.endpoints.heading });
    const value = (name: 'issuer' | 'discovery' | 'jwks' | 'signIn') =>
      endpoints
        .locator('.endpoint')
        .filter({ has: page.getByText(consoleEn.endpoints[name], { exact: true }) })
        .locator('code')
        .innerText();
    const origin = keycard.origin('lakeside');
    shown.issuer = await value('issuer');
    shown.signIn = await value('signIn');
    shown.jwks = await value('jwks');
    expect(shown.issuer).toBe(`${origin}/oidc`);
    expect(shown.signIn).toBe(`${origin}/login`);
    const discovery = await loopbackFetch(await value('discovery'));
    const document = (await discovery.json()) as { issuer: string; jwks_uri: string };
    expect(document.issuer).toBe(shown.issuer);
    expect(document.jwks_uri).toBe(shown.jwks);
    const open = endpoints.getByRole('link', { name: new RegExp(consoleEn.endpoints.open) });
    expect(await open.getAttribute('href')).toBe(shown.signIn);
    // The sign-in page it opens draws the new tenant's name.
    const [signInPage] = await Promise.all([page.context().waitForEvent('page'), open.click()]);
    await signInPage.waitForLoadState();
    await expect.poll(() => signInPage.title()).toContain('Lakeside Lodges');
    await signInPage.close();
    await expectAccessible(page, 'tenant overview with endpoints');
    await shot('overview');
  });

  it('creates a client for the integrator’s app, its secret shown once', async () => {
    await page.getByRole('link', { name: consoleEn.tenant.sections.clients }).click();
    const form = page.getByRole('form', { name: consoleEn.clients.createHeading });
    await form.getByLabel(consoleEn.clients.clientId, { exact: true }).fill('lakeside-web');
    await form.getByLabel(consoleEn.clients.redirectUris, { exact: true }).fill(`${appOrigin}/callback`);
    await form.getByRole('button', { name: consoleEn.clients.create }).click();
    const secret = page.getByLabel(consoleEn.clients.secretLabel);
    await secret.waitFor();
    shown.secret = await secret.inputValue();
    expect(shown.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await page.getByRole('button', { name: consoleEn.clients.secretDone }).click();
  });

  it('invites a guest, who accepts the invitation', async () => {
    await page.getByRole('link', { name: consoleEn.tenant.sections.users }).click();
    const form = page.getByRole('form', { name: consoleEn.users.inviteHeading });
    await form.getByLabel(consoleEn.users.email).fill(guest.email);
    await form.getByRole('button', { name: consoleEn.users.invite }).click();
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: guest.email }).count())
      .toBeGreaterThan(0);

    const link = linkIn(await waitForMail(keycard, guest.email, 'account.activation'));
    expect(new URL(link).origin).toBe(keycard.origin('lakeside'));
    const guestPage = await (await newContext(browser)).newPage();
    await guestPage.goto(link);
    await guestPage.getByLabel('New password', { exact: true }).fill(guest.password);
    await guestPage.getByLabel('Confirm new password', { exact: true }).fill(guest.password);
    await guestPage.getByLabel('Secret question', { exact: true }).selectOption('first-pet-name');
    await guestPage.getByLabel('Secret answer', { exact: true }).fill('Rex');
    await guestPage.getByRole('button', { name: 'Activate account' }).click();
    await guestPage.waitForURL(/\/login\?activateSuccess=true/);
    await guestPage.context().close();
  });

  it('signs the guest in to an unmodified OIDC app configured from what the console showed', async () => {
    const issuer = shown.issuer;
    const secret = shown.secret;
    if (!issuer || !secret) throw new Error('the console did not show the issuer and the secret');
    const configuration = await client.discovery(
      new URL(issuer),
      'lakeside-web',
      secret,
      client.ClientSecretBasic(secret),
      { [client.customFetch]: loopbackFetch, execute: [client.allowInsecureRequests] },
    );
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: `${appOrigin}/callback`,
      scope: 'openid email',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    });

    const guestPage = await (await newContext(browser)).newPage();
    let callback: string | undefined;
    await guestPage.route(`${appOrigin}/**`, async (route) => {
      callback = route.request().url();
      await route.fulfill({
        contentType: 'text/html',
        body: '<!doctype html><title>Lakeside app</title><h1>App</h1>',
      });
    });
    await guestPage.goto(url.href);
    await expect.poll(() => guestPage.title()).toContain('Lakeside Lodges');
    await loginWithPassword(guestPage, guest.email, guest.password);
    await passOffer(guestPage, () => callback !== undefined);
    const tokens = await client.authorizationCodeGrant(configuration, new URL(callback ?? ''), {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    const claims = tokens.claims();
    expect(claims?.iss).toBe(issuer);
    expect(claims?.aud).toBe('lakeside-web');
    const info = await client.fetchUserInfo(configuration, tokens.access_token, claims?.sub ?? '');
    expect(info.email).toBe(guest.email);
    await guestPage.context().close();
  });

  it('shows the whole first hour in the audit log, by name and in words', async () => {
    await page.getByRole('link', { name: consoleEn.app.nav.audit }).click();
    const table = page.getByRole('table', { name: consoleEn.auditLog.caption });
    await table.waitFor();
    const text = await table.innerText();
    expect(text).toContain(consoleEn.auditLog.actions.client.create);
    expect(text).toContain(consoleEn.auditLog.actions.user.invite);
    expect(text).toContain(owner.email);
    expect(text).toContain(guest.email);
    await expectAccessible(page, 'audit log after the first hour');
    await shot('audit');
  });
});
