import { mkdirSync } from 'node:fs';
import { loopbackFetch } from '@keycard/demo-app/loopback-fetch';
import { en } from '@keycard/texts';
import { en as consoleEn } from '@keycard/texts/console/en';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { runCli } from '../../apps/server/src/surfaces/cli/cli.ts';
import { launchBrowser, newContext } from './browser.ts';
import { type Keycard, startKeycard } from './keycard.ts';
import { continueAfterRecoveryCodes, registerTotp } from './mfa.ts';

/** The admin console's helpers for browser tests: owners made on the command line, their first sign-in. */

export interface OperatorLogin {
  email: string;
  password: string;
}

/** The operator host of a test server. */
export const adminOrigin = (keycard: Keycard) => `http://admin.localhost:${keycard.port}`;

/** A console text with its {{placeholders}} filled. */
export const fillText = (text: string, values: Record<string, string | number>) =>
  text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name]));

/** Runs `keycard …` against the test server's database and configuration. */
export async function runKeycardCli(
  keycard: Keycard,
  args: string[],
): Promise<{ code: number; out: string }> {
  const out: string[] = [];
  const code = await runCli(args, {
    out: (line) => out.push(line),
    err: () => undefined,
    database: keycard.services.database,
    config: keycard.services.config,
    now: () => keycard.clock.now(),
  });
  return { code, out: out.join('\n') };
}

/** `keycard operators create-owner`, and the printed activation link followed with a password. */
export async function createOwner(keycard: Keycard, owner: OperatorLogin): Promise<void> {
  const admin = adminOrigin(keycard);
  const created = await runKeycardCli(keycard, ['operators', 'create-owner', '--email', owner.email]);
  expect(created.code).toBe(0);
  const link = new URL(created.out.trim());
  expect(link.origin).toBe(admin);
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
}

/** Waits until the console says who is signed in, with which role. */
export const expectSignedInAs = (page: Page, email: string, role: keyof typeof consoleEn.roles = 'owner') =>
  expect
    .poll(() =>
      page
        .getByText(fillText(consoleEn.app.signedInAs, { name: email, role: consoleEn.roles[role] }))
        .count(),
    )
    .toBe(1);

/**
 * An operator's first sign-in, from the operator tenant's login page: the password, then a new
 * authenticator app (the tenant requires a second factor), declining the passkey offer a
 * password sign-in may get (issue 18), and back in the console.
 */
export async function signInFirstTime(page: Page, keycard: Keycard, operator: OperatorLogin): Promise<void> {
  await page.waitForURL(/\/login\?iid=/);
  await page.getByLabel(en.login.email.label, { exact: true }).fill(operator.email);
  await page.getByRole('button', { name: en.login.email.submit }).click();
  await page.getByLabel(en.login.password.label, { exact: true }).fill(operator.password);
  await page.getByRole('button', { name: en.login.password.submit }).click();
  await registerTotp(page, keycard);
  await continueAfterRecoveryCodes(page);
  const notNow = page.getByRole('button', { name: en.passkeys.offer.notNow });
  const inConsole = page.waitForURL(`${adminOrigin(keycard)}/console/`);
  await Promise.race([notNow.click().catch(() => undefined), inConsole]);
  await inConsole;
  await expectSignedInAs(page, operator.email);
}

/** What a console test works with: Keycard, Chromium, one page, and the operator host. */
export interface ConsoleStack {
  keycard: Keycard;
  browser: Browser;
  page: Page;
  admin: string;
}

/**
 * Keycard with an owner made on the command line (not signed in yet), Chromium and one page at
 * 1280 × 900, for the console tests of one describe block: started before them, closed after
 * them. `ready` is handed the parts once they are up; `shots` is made if given.
 */
export function useConsoleStack(
  owner: OperatorLogin,
  ready: (stack: ConsoleStack) => void,
  options: { shots?: string } = {},
): void {
  let keycard: Keycard | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    if (options.shots) mkdirSync(options.shots, { recursive: true });
    keycard = await startKeycard({ env: { LOGIN_IP_LIMIT_PER_MINUTE: '1000' } });
    browser = await launchBrowser();
    await createOwner(keycard, owner);
    await keycard.services.tenants.refresh();
    const page = await (await newContext(browser)).newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    ready({ keycard, browser, page, admin: adminOrigin(keycard) });
  });
  afterAll(async () => {
    await browser?.close();
    await keycard?.close();
  });
}
