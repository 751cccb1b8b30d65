import { operatorTenantCode } from '@keycard/contract/admin';
import { apiErrorSchema } from '@keycard/contract/error-catalogue';
import { en } from '@keycard/texts';
import { en as consoleEn } from '@keycard/texts/console/en';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launchBrowser, newContext } from './support/browser.ts';
import {
  adminOrigin,
  createOwner,
  type OperatorLogin,
  runKeycardCli,
  signInFirstTime,
} from './support/console.ts';
import { type Keycard, startKeycard } from './support/keycard.ts';
import { expectHeading } from './support/mfa.ts';

const first = { email: 'first@ops.example', password: 'Operator-first-77' };
const second = { email: 'second@ops.example', password: 'Operator-second-77' };
/** Low, so the test can fill the address's failed-token allowance in a few requests. */
const failedTokensPerMinute = 10;

/**
 * Who may use the console, in Chromium: sign-out leaves no draft for the next operator in the
 * tab; an operator removed while signed in (the account stays, so the provider's session
 * holds) gets one new sign-in at most and then a screen that says the account cannot use the
 * console, not an endless round trip that uses up the address's failed-token allowance; a
 * request limit is said in words and never answered with a sign-in.
 */
describe('console access (Chromium)', () => {
  let keycard: Keycard;
  let browser: Browser;
  let page: Page;
  let admin: string;
  /** Every authorization request the tab makes, counted from wherever a test starts. */
  let authorizations = 0;
  const meStatuses: number[] = [];

  const cli = (args: string[]) => runKeycardCli(keycard, args);
  const firstSignIn = (operator: OperatorLogin) => signInFirstTime(page, keycard, operator);

  const consoleStorageKeys = () =>
    page.evaluate(() => Object.keys(sessionStorage).filter((key) => key.startsWith('keycard-console:')));

  async function openTheme(): Promise<void> {
    await page.getByRole('link', { name: 'grand-hotel' }).click();
    await page
      .getByRole('navigation', { name: consoleEn.tenant.sectionsLabel })
      .getByRole('link', { name: consoleEn.tenant.sections.theme })
      .click();
    await page.getByRole('heading', { name: consoleEn.theme.heading, level: 2 }).waitFor();
  }

  beforeAll(async () => {
    keycard = await startKeycard({
      env: {
        LOGIN_IP_LIMIT_PER_MINUTE: '1000',
        ADMIN_AUTH_FAILURES_PER_MINUTE: String(failedTokensPerMinute),
      },
    });
    browser = await launchBrowser();
    admin = adminOrigin(keycard);
    await createOwner(keycard, first);
    await createOwner(keycard, second);
    await keycard.services.tenants.refresh();
    page = await (await newContext(browser)).newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/oidc/auth') authorizations += 1;
    });
    page.on('response', (response) => {
      if (new URL(response.url()).pathname === '/admin/api/v1/me') meStatuses.push(response.status());
    });
  });
  afterAll(async () => {
    await browser?.close();
    await keycard?.close();
  });

  it('leaves no unpublished draft behind at sign-out for the next operator in the tab', async () => {
    await page.goto(`${admin}/console/`);
    await firstSignIn(first);
    await openTheme();
    const name = page.getByLabel(consoleEn.theme.name);
    await name.fill('Draft of the first operator');
    await expect
      .poll(consoleStorageKeys)
      .toContainEqual(expect.stringMatching(/^keycard-console:theme-draft:.*grand-hotel$/));

    // Leaving with an unsaved draft asks (the browser's own question); the operator confirms.
    const accept = (dialog: { accept: () => Promise<void> }) => void dialog.accept();
    page.on('dialog', accept);
    await page.getByRole('button', { name: consoleEn.app.signOut }).click();
    // The console says the operator signed out (issue 19) and signs in again when asked.
    await page.getByRole('button', { name: consoleEn.shell.signInAgain }).click({ timeout: 15_000 });
    await page.waitForURL(/\/login\?iid=/, { timeout: 15_000 });
    page.off('dialog', accept);
    await expectHeading(page, en.login.email.heading);
    // Only the new sign-in's own state is left in the tab.
    expect(await consoleStorageKeys()).toEqual(['keycard-console:sign-in']);

    await firstSignIn(second);
    await openTheme();
    const published = (await keycard.services.tenants.byCode('grand-hotel'))?.theme.name;
    expect(published).toBeTruthy();
    await expect.poll(() => name.inputValue()).toBe(published);
    expect(await page.getByText(consoleEn.theme.unsaved).count()).toBe(0);
    expect(await page.getByRole('status').filter({ hasText: consoleEn.theme.restored }).count()).toBe(0);
  });

  it('tells an operator removed while signed in that the account cannot use the console, after one sign-in at most', async () => {
    const user = await keycard.services.db
      .selectFrom('users')
      .select('id')
      .where('tenant_code', '=', operatorTenantCode)
      .where('email', '=', second.email)
      .executeTakeFirstOrThrow();
    const operator = await keycard.services.db
      .selectFrom('operators')
      .select('id')
      .where('subject', '=', user.id)
      .executeTakeFirstOrThrow();
    // The person keeps the account, so the provider's session still holds and would hand out
    // a new code and token at once.
    expect((await cli(['operators', 'remove', '--id', operator.id])).code).toBe(0);

    authorizations = 0;
    meStatuses.length = 0;
    await page.getByRole('link', { name: consoleEn.app.nav.audit }).click();
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).innerText(), { timeout: 15_000 })
      .toBe(consoleEn.noAccess.heading);
    expect(await page.getByText(consoleEn.noAccess.explanation).count()).toBe(1);
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
    // It stays there: no further round trips through the provider.
    await page.waitForTimeout(3000);
    expect(authorizations).toBeGreaterThanOrEqual(1);
    expect(authorizations).toBeLessThanOrEqual(2);
    expect(meStatuses).not.toContain(429);
    expect(await page.getByRole('link', { name: consoleEn.app.nav.audit }).count()).toBe(0);

    await page.setViewportSize({ width: 1280, height: 900 });
    await expectAccessible(page, 'no access at 1280 px');
    await page.setViewportSize({ width: 375, height: 800 });
    await expectAccessible(page, 'no access at 375 px');
    await page.setViewportSize({ width: 1280, height: 900 });

    // Sign out ends the provider's session: the next sign-in asks for the address again.
    await page.getByRole('button', { name: consoleEn.app.signOut }).click();
    // The console says the operator signed out (issue 19) and signs in again when asked.
    await page.getByRole('button', { name: consoleEn.shell.signInAgain }).click({ timeout: 15_000 });
    await page.waitForURL(/\/login\?iid=/, { timeout: 15_000 });
    await expectHeading(page, en.login.email.heading);
  });

  it('says a request limit in words and offers nothing, without signing in again', async () => {
    await page.getByLabel(en.login.email.label, { exact: true }).fill(second.email);
    await page.getByRole('button', { name: en.login.email.submit }).click();
    await page.getByLabel(en.login.password.label, { exact: true }).fill(second.password);
    // The address's failed-token allowance is used up (by anyone behind it): the removed
    // operator's token is answered 429, not 401.
    const answers = await page.evaluate(async (count) => {
      const seen: Array<{ status: number; body: unknown }> = [];
      for (let i = 0; i < count; i++) {
        const response = await fetch('/admin/api/v1/me', {
          headers: { authorization: 'Bearer not-a-token' },
        });
        seen.push({ status: response.status, body: await response.json() });
        if (response.status === 429) break;
      }
      return seen;
    }, failedTokensPerMinute + 2);
    for (const answer of answers) apiErrorSchema.parse(answer.body);
    expect(answers.at(-1)).toMatchObject({ status: 429, body: { code: 'admin.rate_limited' } });
    // The allowance drains continuously (a slot every few seconds): the server's clock is held
    // while the sign-in runs, so it stays used up however long a loaded machine takes.
    keycard.clock.hold();
    try {
      meStatuses.length = 0;
      await page.getByRole('button', { name: en.login.password.submit }).click();
      // The device is trusted since the first sign-in: no second factor now.
      await page.waitForURL(`${admin}/console/`);
      authorizations = 0;
      const problem = page.locator('.session-problem').getByRole('alert');
      await expect.poll(() => problem.innerText()).toBe(consoleEn.errors.admin.rate_limited);
      await page.waitForTimeout(3000);
      expect(authorizations).toBe(0);
      expect(meStatuses).toEqual([429]);
      expect(page.url()).toBe(`${admin}/console/`);
      // Who the operator is stays unknown, so nothing is offered.
      expect(await page.getByRole('link', { name: consoleEn.app.nav.audit }).count()).toBe(0);
      expect(await page.getByText(consoleEn.app.signedInAs.split('{{')[0] ?? '').count()).toBe(0);
      await page.getByRole('button', { name: consoleEn.app.tryAgain }).waitFor();
    } finally {
      keycard.clock.release();
    }
  });
});
