import { en } from '@keycard/texts';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../apps/server/src/features/accounts/user.repository.ts';
import { announcements, expectAccessible, launchBrowser, newContext } from './support/browser.ts';
import { type Keycard, startKeycard } from './support/keycard.ts';
import {
  continueAfterRecoveryCodes,
  createTestUser,
  registerTotp,
  setTenantSettings,
  signIn,
  stubDefaultRedirect,
} from './support/mfa.ts';
import { mailsTo } from './support/outbox.ts';
import { nextTimeStep, totpCode } from './support/totp.ts';

const DAY = 24 * 60 * 60 * 1000;
const password = 'Keycard-demo-1';
const fresh = 'Changed-in-place-7';
const appHome = 'http://localhost:3001/';

/** After a password sign-in the hand-off may offer a passkey once: "Not now" goes on. */
async function passOfferTo(page: Page, url: string): Promise<void> {
  const notNow = page.getByRole('button', { name: en.passkeys.offer.notNow, exact: true });
  await expect
    .poll(async () => (await notNow.isVisible()) || page.url() === url, { timeout: 15_000 })
    .toBe(true);
  if (await notNow.isVisible()) await notNow.click();
  await page.waitForURL(url);
}

async function fillChange(page: Page, current: string, next: string): Promise<void> {
  await page.getByLabel(en.account.password.current, { exact: true }).fill(current);
  await page.getByLabel(en.lifecycle.passwordForm.password, { exact: true }).fill(next);
  await page.getByLabel(en.lifecycle.passwordForm.confirmPassword, { exact: true }).fill(next);
  await page.getByRole('button', { name: en.account.expiry.submit }).click();
}

describe('expired and expiring passwords changed in place (Chromium)', () => {
  let keycard: Keycard;
  let browser: Browser;

  beforeAll(async () => {
    keycard = await startKeycard({ env: { LOGIN_IP_LIMIT_PER_MINUTE: '1000' } });
    // Seaside and Summit: passwords live 90 days; the warning starts 14 days before.
    await setTenantSettings(keycard, 'seaside', { passwordExpiryDays: 90, passwordWarningDays: 14 });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await keycard?.close();
  });

  async function freshPage(width = 1280): Promise<Page> {
    const page = await (await newContext(browser)).newPage();
    await page.setViewportSize({ width, height: 900 });
    await stubDefaultRedirect(page);
    return page;
  }

  async function userExpiringIn(email: string, daysLeft: number, tenantCode = 'seaside') {
    const changedAt = keycard.clock.now() - (90 - daysLeft) * DAY + (daysLeft >= 0 ? 2 * 3_600_000 : 0);
    await createUser(
      keycard.services.db,
      { tenantCode, email, type: 'staff', locale: 'en', status: 'active', password, emailVerified: true },
      changedAt,
    );
  }

  it('an expired password: changed right there, and the sign-in goes on to the app — no mail', async () => {
    const email = 'expired.in-place@seaside.test';
    await userExpiringIn(email, -3);
    const page = await freshPage(375);
    await page.goto(`${keycard.origin('seaside')}/login`);
    await signIn(page, email);
    await page.waitForURL(`${keycard.origin('seaside')}/error/password-expired/`);
    await expect.poll(() => page.getByText(en.account.expiry.expiredIntro).isVisible()).toBe(true);
    // The screen starts in its first field, the current password.
    await expect
      .poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name))
      .toBe('current-password');
    await expectAccessible(page, 'expired password, change in place (375)');
    await page.screenshot({ path: '/tmp/account-expired-375.png', fullPage: true });

    // A wrong current password is refused at its field; nothing changes.
    await fillChange(page, 'Not-my-password-1', fresh);
    await expect.poll(() => announcements(page)).toContain(en.account.errors.currentPassword);
    await expectAccessible(page, 'expired password, wrong current password');
    // The same password again is refused by the history rule, at the new password.
    await fillChange(page, password, password);
    await expect.poll(() => announcements(page)).toContain(en.lifecycle.passwordForm.errors.history);

    await fillChange(page, password, fresh);
    await passOfferTo(page, appHome);
    expect((await mailsTo(keycard, email)).filter((mail) => mail.template === 'account.reset')).toEqual([]);

    // The new password signs in with no expiry page; the old one no longer does.
    const again = await freshPage();
    await again.goto(`${keycard.origin('seaside')}/login`);
    await signIn(again, email);
    await expect.poll(() => again.getByText(en.login.errors.invalidCredentials).isVisible()).toBe(true);
    await again.getByLabel(en.login.password.label, { exact: true }).fill(fresh);
    await again.getByRole('button', { name: en.login.password.submit }).click();
    await passOfferTo(again, appHome);
    await again.context().close();
    await page.context().close();
  });

  it("a password about to expire: changed right there, then on to the app; 'reset later' is still there", async () => {
    const email = 'expiring.in-place@seaside.test';
    await userExpiringIn(email, 4);
    const page = await freshPage();
    await page.goto(`${keycard.origin('seaside')}/login`);
    await signIn(page, email);
    await page.waitForURL(/\/error\/password-will-expire\/\?/);
    await expect.poll(() => page.getByText('Your password expires in 4 days.').isVisible()).toBe(true);
    expect(
      await page.getByRole('button', { name: en.lifecycle.passwordWillExpire.resetLater }).isVisible(),
    ).toBe(true);
    await expectAccessible(page, 'password will expire, change in place (1280)');
    await page.screenshot({ path: '/tmp/account-will-expire-1280.png', fullPage: true });
    await fillChange(page, password, fresh);
    await passOfferTo(page, appHome);
    await page.context().close();
  });

  it('an expired password on an account with an authenticator app: the code too, then on to the app', async () => {
    await setTenantSettings(keycard, 'summit', {
      passwordExpiryDays: 90,
      passwordWarningDays: 14,
      mfa: { mode: 'required', mandatoryFrom: null, trustedDeviceDays: 60, methods: ['totp', 'sms'] },
    });
    const email = await createTestUser(keycard, 'summit');
    const setup = await freshPage();
    await setup.goto(`${keycard.origin('summit')}/login`);
    await signIn(setup, email);
    const { secret } = await registerTotp(setup, keycard, { trust: false });
    await continueAfterRecoveryCodes(setup);
    await setup.context().close();
    // The password was set 100 days ago.
    await keycard.services.db
      .updateTable('users')
      .set({ password_changed_at: keycard.clock.now() - 100 * DAY })
      .where('email', '=', email)
      .execute();

    const page = await freshPage();
    await page.goto(`${keycard.origin('summit')}/login`);
    await signIn(page, email);
    await page.waitForURL(`${keycard.origin('summit')}/error/password-expired/`);
    await fillChange(page, password, fresh);
    // The password alone is not enough to change it: the second step is asked in place.
    const prompt = page.getByRole('dialog', { name: en.account.reproof.heading });
    await expect.poll(() => prompt.isVisible()).toBe(true);
    await expect.poll(() => prompt.getByText(en.account.reproof.totpIntro).isVisible()).toBe(true);
    await expectAccessible(page, 'expired password, the factor asked');
    nextTimeStep(keycard);
    await prompt.getByLabel(en.account.reproof.code, { exact: true }).fill(await totpCode(keycard, secret));
    await page.keyboard.press('Enter');
    await passOfferTo(page, appHome);
    await page.context().close();
  });
});
