import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launchBrowser, newContext, stubDemoAppHome } from './support/browser.ts';
import { type Keycard, startKeycard } from './support/keycard.ts';
import { loginWithPassword } from './support/login.ts';
import { followMailOnOutboxPage, keycardCli, linkIn, waitForMail } from './support/outbox.ts';

const newPassword = 'Harbour-lights-42';
const DAY = 24 * 60 * 60 * 1000;

describe('invitation and activation (Chromium)', () => {
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

  async function invite(email: string, locale = 'en') {
    const { stdout } = await keycardCli(
      keycard,
      'invite',
      '--tenant',
      'grand-hotel',
      '--email',
      email,
      '--type',
      'staff',
      '--locale',
      locale,
    );
    expect(stdout).toContain(`Invited ${email}`);
  }

  const errorOf = (page: Page, label: string) =>
    page.evaluate((name) => {
      const input = Array.from(document.querySelectorAll('label')).find(
        (l) => l.textContent === name,
      )?.control;
      const id = input?.getAttribute('aria-describedby');
      return id ? (document.getElementById(id)?.textContent ?? null) : null;
    }, label);

  it('invite → mail → activate (with the password rules) → account-created login → signed in', async () => {
    const email = 'ana.invited@grand-hotel.test';
    await invite(email);
    const mail = await waitForMail(keycard, email, 'account.activation');
    expect(mail.content.subject).toBe('Activate your Grand Hotel Group account');

    const page = await freshPage();
    await followMailOnOutboxPage(page, keycard, mail);
    await page.waitForURL(/\/activate\/\?token=/);
    await expect.poll(() => page.title()).toBe('Activate your account | Grand Hotel Group');
    await expect
      .poll(() => page.getByText(`Choose a password and a secret question for ${email}.`).isVisible())
      .toBe(true);
    await expectAccessible(page, 'activation form');

    // Nothing filled in: every field is required, and focus goes to the first.
    await page.getByRole('button', { name: 'Activate account' }).click();
    await expect.poll(() => errorOf(page, 'New password')).toBe('This field is required');
    await expect.poll(() => errorOf(page, 'Secret question')).toBe('This field is required');
    await expect.poll(() => errorOf(page, 'Secret answer')).toBe('This field is required');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('new-password');

    const passwordField = page.getByLabel('New password', { exact: true });
    const confirmField = page.getByLabel('Confirm new password', { exact: true });
    await passwordField.fill('short');
    await confirmField.fill(newPassword);
    await confirmField.blur();
    await expect
      .poll(() => errorOf(page, 'New password'))
      .toBe('It must contain uppercase and lowercase letters, a number and be at least 8 characters long');
    await expect.poll(() => errorOf(page, 'Confirm new password')).toBe("These passwords don't match");
    await expectAccessible(page, 'activation form with errors');
    // Fixing the password re-validates the confirmation too.
    await passwordField.fill(newPassword);
    await expect.poll(() => errorOf(page, 'Confirm new password')).toBeNull();
    await expect.poll(() => errorOf(page, 'New password')).toBeNull();
    // Changing the confirmation re-validates it against the password.
    await confirmField.fill(`${newPassword}x`);
    await expect.poll(() => errorOf(page, 'Confirm new password')).toBe("These passwords don't match");
    await confirmField.fill(newPassword);

    const question = page.getByLabel('Secret question', { exact: true });
    const options = await question.locator('option').allInnerTexts();
    expect(options).toEqual([
      'Choose a question',
      "What is your mother's maiden name?",
      "What is your father's middle name?",
      'In which town were you born?',
      'Where did you travel on your first trip abroad?',
      'What was the name of your first school?',
      'What was the name of your first pet?',
    ]);
    await question.selectOption('first-pet-name');
    await page.getByLabel('Secret answer', { exact: true }).fill('Rex');
    await page.getByRole('button', { name: 'Activate account' }).click();

    await page.waitForURL(/\/login\?activateSuccess=true&newSession=true/);
    await expect.poll(() => page.title()).toBe('Account created | Grand Hotel Group');
    await expect
      .poll(() => page.getByRole('status').first().innerText())
      .toBe('Your account has been created. Log in to get started.');
    await expectAccessible(page, 'login after activation');

    await loginWithPassword(page, email, newPassword);
    await page.waitForURL('http://localhost:3001/');
    await page.context().close();
  });

  it('sends a used link to the activate-expired page', async () => {
    const email = 'used.link@grand-hotel.test';
    await invite(email);
    const link = linkIn(await waitForMail(keycard, email, 'account.activation'));
    const page = await freshPage();
    await page.goto(link);
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm new password', { exact: true }).fill(newPassword);
    await page.getByLabel('Secret question', { exact: true }).selectOption('first-school');
    await page.getByLabel('Secret answer', { exact: true }).fill('Hillside');
    await page.getByRole('button', { name: 'Activate account' }).click();
    await page.waitForURL(/\/login\?activateSuccess/);

    await page.goto(link);
    await page.waitForURL(`${keycard.origin()}/error/activate-expired/`);
    await expect.poll(() => page.title()).toBe('Activation link expired | Grand Hotel Group');
    await page.context().close();
  });

  it('an expired link: re-enter the e-mail, a new link is sent, and it works', async () => {
    const email = 'late.starter@grand-hotel.test';
    await invite(email);
    const link = linkIn(await waitForMail(keycard, email, 'account.activation'));
    keycard.clock.advance(7 * DAY + 60_000);
    const page = await freshPage();
    try {
      await page.goto(link);
      await page.waitForURL(`${keycard.origin()}/error/activate-expired/`);
      await expect
        .poll(() => page.getByRole('heading', { level: 1 }).innerText())
        .toBe('This activation link has expired');
      await expectAccessible(page, 'activate expired');

      await page.getByRole('button', { name: 'Send a new link' }).click();
      await expect.poll(() => page.getByRole('alert').innerText()).toBe('This field is required');
      await page.getByLabel('E-mail', { exact: true }).fill(email);
      await page.getByRole('button', { name: 'Send a new link' }).click();

      await page.waitForURL(`${keycard.origin()}/activate/sent/`);
      await expect.poll(() => page.title()).toBe('Activation e-mail sent | Grand Hotel Group');
      expect(await page.getByRole('link', { name: 'Contact support' }).getAttribute('href')).toBe(
        'https://help.grand-hotel.example/support',
      );
      await expectAccessible(page, 'activation sent');

      const fresh = await waitForMail(keycard, email, 'account.activation', 2);
      await page.goto(linkIn(fresh));
      await expect
        .poll(() => page.getByRole('heading', { level: 1 }).innerText())
        .toBe('Activate your account');
    } finally {
      keycard.clock.advance(-(7 * DAY + 60_000));
      await page.context().close();
    }
  });

  it('asks a signed-in person to log out first, in a dialog that cannot be dismissed', async () => {
    const email = 'dialog.case@grand-hotel.test';
    await invite(email);
    const link = linkIn(await waitForMail(keycard, email, 'account.activation'));
    const page = await freshPage();
    await page.goto(`${keycard.origin()}/login`);
    await loginWithPassword(page, 'demo@grand-hotel.test', 'Keycard-demo-1');
    await page.waitForURL('http://localhost:3001/');

    await page.goto(link);
    const dialog = page.getByRole('alertdialog', { name: 'Log out first' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    expect(await dialog.getAttribute('aria-modal')).toBe('true');
    expect(
      await dialog.getByText('You are logged in. To use this link, you must log out first.').isVisible(),
    ).toBe(true);
    const focused = () => page.evaluate(() => document.activeElement?.textContent);
    await expect.poll(focused).toBe('Log out');
    await expectAccessible(page, 'session dialog on activation');

    await page.keyboard.press('Escape');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Shift+Tab');
    expect(await dialog.isVisible()).toBe(true);
    expect(await focused()).toBe('Log out');
    // The page behind cannot be reached.
    expect(await page.evaluate(() => document.getElementById('root')?.hasAttribute('inert'))).toBe(true);

    await dialog.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(link);
    await expect.poll(() => page.getByLabel('New password', { exact: true }).isVisible()).toBe(true);
    expect(await page.getByRole('alertdialog').count()).toBe(0);
    expect(await page.evaluate(() => fetch('/api/session').then((r) => r.json()))).toEqual({ exists: false });
    await page.context().close();
  });

  it('speaks the invited user language, from the mail to the form', async () => {
    const email = 'jonas@grand-hotel.test';
    await invite(email, 'de');
    const mail = await waitForMail(keycard, email, 'account.activation');
    expect(mail.content.subject).toBe('Aktivieren Sie Ihr Konto bei Grand Hotel Group');
    const page = await freshPage();
    await page.goto(linkIn(mail));
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Konto aktivieren');
    await expect.poll(() => page.title()).toBe('Konto aktivieren | Grand Hotel Group');
    await page.getByLabel('Neues Passwort', { exact: true }).fill(newPassword);
    await page.getByLabel('Neues Passwort bestätigen', { exact: true }).fill('Anders-123');
    await page.getByRole('button', { name: 'Konto aktivieren' }).click();
    await expect
      .poll(() => errorOf(page, 'Neues Passwort bestätigen'))
      .toBe('Die Passwörter stimmen nicht überein');
    await expectAccessible(page, 'German activation form');
    await page.context().close();
  });
});
