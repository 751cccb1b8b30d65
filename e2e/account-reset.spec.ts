import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../apps/server/src/features/accounts/user.repository.ts';
import { expectAccessible, launchBrowser, newContext, stubDemoAppHome } from './support/browser.ts';
import { type Keycard, startKeycard } from './support/keycard.ts';
import { loginWithPassword } from './support/login.ts';
import {
  browserSession,
  followMailOnOutboxPage,
  keycardCli,
  linkIn,
  mailsTo,
  waitForMail,
} from './support/outbox.ts';

const historyMessage = 'Your new password cannot be the same as your last four passwords.';

describe('forgotten password (Chromium)', () => {
  let keycard: Keycard;
  let browser: Browser;

  beforeAll(async () => {
    keycard = await startKeycard();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await keycard?.close();
  });

  async function freshPage(): Promise<Page> {
    const page = await (await newContext(browser)).newPage();
    await stubDemoAppHome(page);
    return page;
  }

  async function user(email: string, password: string) {
    await createUser(
      keycard.services.db,
      { tenantCode: 'grand-hotel', email, type: 'staff', locale: 'en', status: 'active', password },
      keycard.clock.now(),
    );
  }

  async function signedIn(email: string, password: string): Promise<Page> {
    const page = await freshPage();
    await page.goto(`${keycard.origin()}/login`);
    await loginWithPassword(page, email, password);
    await page.waitForURL('http://localhost:3001/');
    return page;
  }

  const sessionOf = (page: Page) =>
    browserSession(page.context(), keycard.origin()) as Promise<{ exists: boolean }>;

  async function requestResetInBrowser(page: Page, email: string) {
    await page.goto(`${keycard.origin()}/reset-password/`);
    await page.getByLabel('E-mail', { exact: true }).fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
  }

  async function setNewPassword(page: Page, password: string) {
    await page.getByLabel('New password', { exact: true }).fill(password);
    await page.getByLabel('Confirm new password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Change password' }).click();
  }

  it('forgot password → mail → new password: the old one refused, the new one works, other sessions ended', async () => {
    const email = 'forgetful@grand-hotel.test';
    await user(email, 'Anchor-bay-2020');
    const otherDevice = await signedIn(email, 'Anchor-bay-2020');
    expect((await sessionOf(otherDevice)).exists).toBe(true);

    const page = await freshPage();
    await page.goto(`${keycard.origin()}/login`);
    await page.getByLabel('E-mail', { exact: true }).fill(email);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.waitForURL(/\/reset-password\/\?email=/);
    await expect.poll(() => page.title()).toBe('Reset your password | Grand Hotel Group');
    expect(await page.getByLabel('E-mail', { exact: true }).inputValue()).toBe(email);
    expect(await page.getByRole('link', { name: 'Back to login' }).getAttribute('href')).toBe('/login');
    await expectAccessible(page, 'reset request');
    await page.getByRole('button', { name: 'Send reset link' }).click();

    await page.waitForURL(`${keycard.origin()}/reset-password/sent`);
    await expect.poll(() => page.title()).toBe('Reset e-mail sent | Grand Hotel Group');
    expect(await page.getByText(`If an account exists for ${email}`).isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Trouble logging in?' }).getAttribute('href')).toBe(
      'https://help.grand-hotel.example/login-help',
    );
    await expectAccessible(page, 'reset sent');
    const first = await waitForMail(keycard, email, 'account.reset');
    await page.getByRole('button', { name: 'Send the e-mail again' }).click();
    await expect
      .poll(() => page.getByRole('status').first().innerText())
      .toBe('We have sent the e-mail again.');
    const second = await waitForMail(keycard, email, 'account.reset', 2);
    expect(second.content.subject).toBe('Reset your Grand Hotel Group password');

    await followMailOnOutboxPage(page, keycard, second);
    await page.waitForURL(/\/reset-password\/update\?token=.*&email=/);
    await expect.poll(() => page.title()).toBe('Set a new password | Grand Hotel Group');
    await expect.poll(() => page.getByText(`Choose a new password for ${email}.`).isVisible()).toBe(true);
    await expectAccessible(page, 'reset update');

    await setNewPassword(page, 'Anchor-bay-2020');
    await expect.poll(() => page.getByRole('alert').first().innerText()).toBe(historyMessage);
    await expectAccessible(page, 'reset update refused');
    await setNewPassword(page, 'Lighthouse-keeper-7');
    await page.waitForURL(/\/login\?resetPassword=true&newSession=true/);
    await expect
      .poll(() => page.getByRole('status').first().innerText())
      .toBe('Your password has been changed. Log in with your new password.');
    await expectAccessible(page, 'login after reset');

    await loginWithPassword(page, email, 'Anchor-bay-2020');
    await expect
      .poll(() => page.getByRole('alert').innerText())
      .toBe('Invalid e-mail or password. Try again.');
    await page.getByLabel('Password', { exact: true }).fill('Lighthouse-keeper-7');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL('http://localhost:3001/');

    expect(await sessionOf(otherDevice)).toEqual({ exists: false });

    await page.context().close();
    await otherDevice.context().close();

    // The first mail's link was retired by the reset: it lands on the expired notice.
    const later = await freshPage();
    await later.goto(linkIn(first));
    await later.waitForURL(/\/reset-password\/\?tokenExpired=true/);
    await later.context().close();
  });

  it('refuses each of the last four passwords and accepts a new one', async () => {
    const email = 'creature.of.habit@grand-hotel.test';
    const passwords = ['Habit-one-11', 'Habit-two-22', 'Habit-three-33', 'Habit-four-44'];
    await user(email, passwords[0]!);
    const page = await freshPage();
    for (const [index, next] of passwords.slice(1).entries()) {
      await requestResetInBrowser(page, email);
      await page.waitForURL(/\/reset-password\/sent/);
      await page.goto(linkIn(await waitForMail(keycard, email, 'account.reset', index + 1)));
      await setNewPassword(page, next);
      await page.waitForURL(/\/login\?resetPassword=true/);
    }
    await requestResetInBrowser(page, email);
    await page.waitForURL(/\/reset-password\/sent/);
    await page.goto(linkIn(await waitForMail(keycard, email, 'account.reset', 4)));
    for (const reused of passwords) {
      await setNewPassword(page, reused);
      await expect.poll(() => page.getByRole('alert').first().innerText()).toBe(historyMessage);
    }
    await setNewPassword(page, 'Habit-five-55');
    await page.waitForURL(/\/login\?resetPassword=true/);
    await page.context().close();
  });

  it('sends an expired link back to the reset page with the expired notice', async () => {
    const email = 'slowpoke@grand-hotel.test';
    await user(email, 'Slow-and-steady-1');
    const page = await freshPage();
    await requestResetInBrowser(page, email);
    await page.waitForURL(/\/reset-password\/sent/);
    const link = linkIn(await waitForMail(keycard, email, 'account.reset'));
    keycard.clock.advance(61 * 60_000);
    try {
      await page.goto(link);
      await page.waitForURL(/\/reset-password\/\?tokenExpired=true/);
      await expect
        .poll(() => page.getByRole('alert').first().innerText())
        .toBe('That reset password link has expired. Request a new one.');
      expect(await page.getByLabel('E-mail', { exact: true }).inputValue()).toBe(email);
      await expectAccessible(page, 'reset page with expired notice');
    } finally {
      keycard.clock.advance(-61 * 60_000);
      await page.context().close();
    }
  });

  it('sends a not-yet-activated account its activation mail instead, and an unknown one to the same sent page', async () => {
    const pending = 'not.yet@grand-hotel.test';
    await keycardCli(keycard, 'invite', '--tenant', 'grand-hotel', '--email', pending, '--type', 'staff');
    const page = await freshPage();
    await requestResetInBrowser(page, pending);
    await page.waitForURL(`${keycard.origin()}/activate/sent/`);
    await waitForMail(keycard, pending, 'account.activation', 2);

    await requestResetInBrowser(page, 'nobody.here@grand-hotel.test');
    await page.waitForURL(`${keycard.origin()}/reset-password/sent`);
    expect(await mailsTo(keycard, 'nobody.here@grand-hotel.test')).toEqual([]);
    await page.context().close();
  });

  it('validates the e-mail, and needs both token and email on the update page', async () => {
    const page = await freshPage();
    await page.goto(`${keycard.origin()}/reset-password/`);
    await page.getByLabel('E-mail', { exact: true }).fill('not-an-email');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect
      .poll(() => page.getByRole('alert').innerText())
      .toBe("This doesn't appear to be a valid e-mail");
    await page.goto(`${keycard.origin()}/reset-password/update?token=abc`);
    await page.waitForURL(`${keycard.origin()}/error/`);
    await page.context().close();
  });

  it('asks a signed-in person to log out before setting a new password', async () => {
    const email = 'two.hats@grand-hotel.test';
    await user(email, 'Two-hats-2024');
    const page = await signedIn('demo@grand-hotel.test', 'Keycard-demo-1');
    await requestResetInBrowser(page, email);
    await page.waitForURL(/\/reset-password\/sent/);
    const link = linkIn(await waitForMail(keycard, email, 'account.reset'));
    await page.goto(link);
    const dialog = page.getByRole('alertdialog', { name: 'Log out first' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Log out');
    await page.keyboard.press('Escape');
    expect(await dialog.isVisible()).toBe(true);
    await expectAccessible(page, 'session dialog on reset update');
    await dialog.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(link);
    await expect.poll(() => page.getByLabel('New password', { exact: true }).isVisible()).toBe(true);
    await page.context().close();
  });
});
