import type { DemoApp } from '@keycard/demo-app/app';
import { en } from '@keycard/texts';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { announcements, expectAccessible, launchBrowser, newContext } from './support/browser.ts';
import { startDemoApp } from './support/demo-app.ts';
import { type Keycard, startKeycard } from './support/keycard.ts';
import { createTestUser, password, signIn, stubDefaultRedirect } from './support/mfa.ts';
import { browserSession } from './support/outbox.ts';

const tenant = 'grand-hotel';
const account = en.account;

/** Presses Tab until the element has focus (a person reaching it by keyboard), at most 80 times. */
async function tabTo(
  page: Page,
  name: string | RegExp,
  role: 'button' | 'textbox' = 'button',
): Promise<void> {
  const target =
    role === 'textbox' ? page.getByLabel(name, { exact: true }) : page.getByRole(role, { name, exact: true });
  for (let presses = 0; presses < 80; presses++) {
    if (await target.evaluate((element) => element === document.activeElement).catch(() => false)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${String(name)}`);
}

/** After a password sign-in the hand-off may offer a passkey once: "Not now" goes on. */
async function passOffer(page: Page, target?: string): Promise<void> {
  const notNow = page.getByRole('button', { name: en.passkeys.offer.notNow, exact: true });
  const arrived = () => (target ? page.url() === target : new URL(page.url()).pathname === '/account');
  await expect.poll(async () => (await notNow.isVisible()) || arrived(), { timeout: 15_000 }).toBe(true);
  if (await notNow.isVisible()) await notNow.click();
  if (target) await page.waitForURL(target);
}

describe('account page (Chromium)', () => {
  let keycard: Keycard;
  let browser: Browser;
  let demoApp: DemoApp;

  beforeAll(async () => {
    keycard = await startKeycard({ env: { LOGIN_IP_LIMIT_PER_MINUTE: '1000' } });
    demoApp = await startDemoApp(keycard);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await demoApp?.close();
    await keycard?.close();
  });

  async function signedIn(email: string, options: { locale?: string; width?: number } = {}): Promise<Page> {
    const context = await newContext(browser, options.locale ? { locale: options.locale } : {});
    const page = await context.newPage();
    await page.setViewportSize({ width: options.width ?? 1280, height: 900 });
    await stubDefaultRedirect(page);
    await page.goto(`${keycard.origin(tenant)}/account`);
    // Not signed in: the login, which brings the browser back here.
    await page.waitForURL(/\/login\?redirectUri=/);
    await signIn(page, email);
    await passOffer(page);
    await page.waitForURL(`${keycard.origin(tenant)}/account`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe(account.page.heading);
    return page;
  }

  it('sends a visitor to the login and back, and draws the page accessibly at 1280 and 375 px', async () => {
    const email = await createTestUser(keycard, tenant);
    const page = await signedIn(email);
    await expect.poll(() => page.title()).toBe(`${account.titles.account} | Grand Hotel Group`);
    await expect.poll(() => page.getByText(`Signed in as ${email}`).isVisible()).toBe(true);
    await expect
      .poll(() => page.getByRole('heading', { level: 3, name: account.sessions.browsersHeading }).isVisible())
      .toBe(true);
    // This sign-in is in the recent activity, with the browser and address it came from.
    await expect
      .poll(() =>
        page.getByRole('listitem').filter({ hasText: account.activity.kinds.signInPassword }).count(),
      )
      .toBeGreaterThan(0);
    await expectAccessible(page, 'account page en 1280');
    await page.screenshot({ path: '/tmp/account-page-en-1280.png', fullPage: true });
    await page.setViewportSize({ width: 375, height: 800 });
    // Nothing wider than the screen at 375 px.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await expectAccessible(page, 'account page en 375');
    await page.screenshot({ path: '/tmp/account-page-en-375.png', fullPage: true });
    await page.context().close();
  });

  it('changes the password by keyboard; the old one stops working, the new one signs in', async () => {
    const email = await createTestUser(keycard, tenant);
    const page = await signedIn(email);
    await tabTo(page, account.password.change);
    await page.keyboard.press('Enter');
    // The form opens with focus in its first field.
    await expect
      .poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name))
      .toBe('current-password');
    await page.keyboard.type(password);
    await tabTo(page, en.lifecycle.passwordForm.password, 'textbox');
    // A password used before is refused at its field.
    await page.keyboard.type(password);
    await tabTo(page, en.lifecycle.passwordForm.confirmPassword, 'textbox');
    await page.keyboard.type(password);
    await page.keyboard.press('Enter');
    await expect.poll(() => announcements(page)).toContain(en.lifecycle.passwordForm.errors.history);
    await expectAccessible(page, 'password history refusal');

    const fresh = 'Brand-new-pass-42';
    await page.getByLabel(en.lifecycle.passwordForm.password, { exact: true }).fill(fresh);
    await page.getByLabel(en.lifecycle.passwordForm.confirmPassword, { exact: true }).fill(fresh);
    await page.getByLabel(en.lifecycle.passwordForm.confirmPassword, { exact: true }).press('Enter');
    await expect.poll(() => announcements(page)).toContain(account.password.changed);
    // Focus went to the section, whose status says what happened.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent))
      .toBe(account.password.heading);
    await expect
      .poll(() =>
        page.getByRole('listitem').filter({ hasText: account.activity.kinds.passwordChanged }).count(),
      )
      .toBe(1);

    const other = await (await newContext(browser)).newPage();
    await stubDefaultRedirect(other);
    await other.goto(`${keycard.origin(tenant)}/login`);
    await signIn(other, email);
    await expect.poll(() => other.getByText(en.login.errors.invalidCredentials).isVisible()).toBe(true);
    await other.getByLabel(en.login.password.label, { exact: true }).fill(fresh);
    await other.getByRole('button', { name: en.login.password.submit }).click();
    await passOffer(other, 'http://localhost:3001/');
    await other.context().close();
    await page.context().close();
  });

  it('signs another browser out: that browser loses its session, this one keeps it', async () => {
    const email = await createTestUser(keycard, tenant);
    const elsewhere = await signedIn(email);
    const page = await signedIn(email);
    const rows = page.getByRole('button', { name: /^Sign out of / });
    await expect.poll(() => rows.count()).toBe(1);
    await rows.first().focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('alertdialog', { name: account.sessions.confirmOne.heading });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    // The safe choice has focus: Escape closes it and nothing happens.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent))
      .toBe(account.page.cancel);
    await expectAccessible(page, 'sign-out confirmation');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(await browserSession(elsewhere.context(), keycard.origin(tenant))).toMatchObject({ exists: true });

    await rows.first().focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await expect.poll(() => announcements(page)).toContainEqual(expect.stringMatching(/^Signed out of /));
    await expect.poll(() => rows.count()).toBe(0);
    expect(await browserSession(elsewhere.context(), keycard.origin(tenant))).toEqual({ exists: false });
    expect(await browserSession(page.context(), keycard.origin(tenant))).toMatchObject({ exists: true });
    // The other browser's page, on its next call, goes to the login.
    await elsewhere.reload();
    await elsewhere.waitForURL(/\/login\?redirectUri=/);
    await elsewhere.context().close();
    await page.context().close();
  });

  it('shows a failed sign-in in the recent activity', async () => {
    const email = await createTestUser(keycard, tenant);
    const wrong = await (await newContext(browser)).newPage();
    await wrong.goto(`${keycard.origin(tenant)}/login`);
    await wrong.getByLabel(en.login.email.label, { exact: true }).fill(email);
    await wrong.getByRole('button', { name: en.login.email.submit }).click();
    await wrong.getByLabel(en.login.password.label, { exact: true }).fill('Not-the-password-1');
    await wrong.getByRole('button', { name: en.login.password.submit }).click();
    await expect.poll(() => wrong.getByText(en.login.errors.invalidCredentials).isVisible()).toBe(true);
    await wrong.context().close();

    const page = await signedIn(email);
    const failed = page.getByRole('listitem').filter({ hasText: account.activity.kinds.signInFailed });
    await expect.poll(() => failed.count()).toBe(1);
    // With its time in the page's language, and where it came from.
    expect(await failed.locator('time').count()).toBe(1);
    expect(await failed.innerText()).toMatch(/address (127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)/);
    await page.context().close();
  });

  it('asks to confirm it is you when the sign-in is old, then does the change', async () => {
    const email = await createTestUser(keycard, tenant);
    const elsewhere = await signedIn(email);
    const page = await signedIn(email);
    // Six minutes later the sign-in is no longer recent.
    keycard.clock.advance(6 * 60_000);
    await page.getByRole('button', { name: account.sessions.signOutOthers }).click();
    await page
      .getByRole('alertdialog')
      .getByRole('button', { name: account.sessions.confirmOthers.confirm, exact: true })
      .click();
    const prompt = page.getByRole('dialog', { name: account.reproof.heading });
    await expect.poll(() => prompt.isVisible()).toBe(true);
    // It starts in its password field.
    await expect
      .poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name))
      .toBe('password');
    await expectAccessible(page, 'confirm it is you');
    await page.screenshot({ path: '/tmp/account-page-reproof-1280.png' });
    await page.keyboard.type('Wrong-password-9');
    await page.keyboard.press('Enter');
    await expect.poll(() => prompt.getByText(account.errors.wrongPassword).isVisible()).toBe(true);
    expect(await browserSession(elsewhere.context(), keycard.origin(tenant))).toMatchObject({ exists: true });

    await prompt.getByLabel(account.reproof.password, { exact: true }).fill(password);
    await page.keyboard.press('Enter');
    await expect.poll(() => prompt.isVisible()).toBe(false);
    await expect.poll(() => announcements(page)).toContain('Signed out of 1 other session.');
    expect(await browserSession(elsewhere.context(), keycard.origin(tenant))).toEqual({ exists: false });
    await elsewhere.context().close();
    await page.context().close();
  });

  it("lists the app it signed in to, and signs out of it: the app's grant is gone", async () => {
    const email = await createTestUser(keycard, tenant);
    const page = await (await newContext(browser)).newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${demoApp.url}/`);
    await page.getByRole('link', { name: 'Sign in with Grand Hotel Group' }).click();
    await page.waitForURL(/\/login\?iid=/);
    await signIn(page, email);
    await passOffer(page, `${demoApp.url}/me`);
    const user = await keycard.services.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    const grants = async () =>
      (
        await keycard.services.db
          .selectFrom('oidc_payloads')
          .select('id')
          .where('account_id', '=', user.id)
          .where('model', '=', 'Grant')
          .execute()
      ).length;
    expect(await grants()).toBeGreaterThan(0);

    await page.goto(`${keycard.origin(tenant)}/account`);
    const apps = page.getByRole('region', { name: account.apps.heading });
    const signOut = apps.getByRole('button', { name: /^Sign out of / });
    await expect.poll(() => signOut.count()).toBe(1);
    expect(await apps.innerText()).toMatch(/Last used on /);
    await signOut.click();
    await page.getByRole('alertdialog').getByRole('button', { name: account.apps.confirm.confirm }).click();
    await expect
      .poll(() => announcements(page))
      .toContainEqual(expect.stringMatching(/^Signed out of .+\.$/));
    await expect.poll(() => apps.getByText(account.apps.none).isVisible()).toBe(true);
    expect(await grants()).toBe(0);
    await page.context().close();
  });

  it('a password change on an old sign-in: confirm it is you, and the same change is made', async () => {
    const email = await createTestUser(keycard, tenant);
    const page = await signedIn(email);
    keycard.clock.advance(6 * 60_000);
    await page.getByRole('button', { name: account.password.change }).click();
    await page.getByLabel(account.password.current, { exact: true }).fill(password);
    await page.getByLabel(en.lifecycle.passwordForm.password, { exact: true }).fill('After-confirming-5');
    await page
      .getByLabel(en.lifecycle.passwordForm.confirmPassword, { exact: true })
      .fill('After-confirming-5');
    await page.getByRole('button', { name: account.password.submit }).click();
    const prompt = page.getByRole('dialog', { name: account.reproof.heading });
    await expect.poll(() => prompt.isVisible()).toBe(true);
    await prompt.getByLabel(account.reproof.password, { exact: true }).fill(password);
    await page.keyboard.press('Enter');
    // The change the person asked for is made once it is confirmed; the form closes.
    await expect.poll(() => announcements(page)).toContain(account.password.changed);
    await expect.poll(() => page.getByLabel(account.password.current, { exact: true }).count()).toBe(0);
    await page.context().close();
  });
});
