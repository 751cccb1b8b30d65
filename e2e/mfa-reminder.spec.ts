import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launchBrowser, newContext } from './support/browser.ts';
import { type Keycard, startKeycard } from './support/keycard.ts';
import {
  createTestUser,
  expectHeading,
  setTenantSettings,
  signIn,
  stubDefaultRedirect,
} from './support/mfa.ts';

const DAY = 24 * 60 * 60 * 1000;
const appHome = /^http:\/\/localhost:3001\/(\?user-device-token=[\w-]+)?$/;

describe('MFA recommended: reminder, benefits and postponing (Chromium)', () => {
  let keycard: Keycard;
  let browser: Browser;

  beforeAll(async () => {
    keycard = await startKeycard();
    browser = await launchBrowser();
    // grand-hotel recommends MFA; it becomes mandatory in ten days.
    await setTenantSettings(keycard, 'grand-hotel', {
      mfa: {
        mode: 'recommended',
        mandatoryFrom: keycard.clock.now() + 10 * DAY - 60_000,
        trustedDeviceDays: 60,
      },
    });
  });
  afterAll(async () => {
    await browser?.close();
    await keycard?.close();
  });

  async function freshPage(): Promise<Page> {
    const page = await (await newContext(browser)).newPage();
    await stubDefaultRedirect(page);
    return page;
  }

  async function signInToReminder(page: Page, email: string) {
    await page.goto(`${keycard.origin('grand-hotel')}/login`);
    await signIn(page, email);
    await page.waitForURL(`${keycard.origin('grand-hotel')}/mfa`);
    await expectHeading(page, 'Protect your account with two-step verification');
  }

  it('shows the reminder with days left and benefits; dismissing asks first, and the reminder returns at next login', async () => {
    const email = await createTestUser(keycard, 'grand-hotel');
    const page = await freshPage();
    await signInToReminder(page, email);
    await expect.poll(() => page.title()).toBe('Set up two-step verification | Grand Hotel Group');
    expect(await page.getByText('Two-step verification becomes mandatory in 10 days.').isVisible()).toBe(
      true,
    );
    const benefits = page.getByRole('region', { name: 'Why it is worth it' });
    expect(await benefits.getByRole('listitem').allInnerTexts()).toEqual([
      'Setting it up takes only a few minutes.',
      'On a trusted device you only need a code every 60 days.',
      'No smartphone? A landline works too: we call you and read out the code.',
    ]);
    await expectAccessible(page, 'reminder');

    const later = page.getByRole('button', { name: 'Remind me later' });
    await later.click();
    const dialog = page.getByRole('dialog', { name: 'Set up two-step verification later?' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await expectAccessible(page, 'reminder confirmation dialog');
    // Escape cancels and gives focus back to the button that opened the dialog.
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.isVisible()).toBe(false);
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Remind me later');
    expect(page.url()).toBe(`${keycard.origin('grand-hotel')}/mfa`);

    await later.click();
    await page.getByRole('button', { name: 'Yes, remind me later' }).click();
    await page.waitForURL(appHome);

    // The next login shows it again.
    await page.goto(`${keycard.origin('grand-hotel')}/logout`);
    await page.waitForURL(/\/login\?loggedOut=true/);
    await signIn(page, email);
    await page.waitForURL(`${keycard.origin('grand-hotel')}/mfa`);
    await expectHeading(page, 'Protect your account with two-step verification');
    await page.context().close();
  });

  it('offers skipping with days left on the method screen while MFA is not mandatory', async () => {
    const email = await createTestUser(keycard, 'grand-hotel');
    const page = await freshPage();
    await signInToReminder(page, email);
    await page.getByRole('button', { name: 'Set up now' }).click();
    await expectHeading(page, 'Set up two-step verification');
    await expectAccessible(page, 'choose a method (recommended)');
    await page.getByRole('button', { name: 'Skip for now (10 days left)' }).click();
    await page.getByRole('button', { name: 'Yes, remind me later' }).click();
    await page.waitForURL(appHome);
    await page.context().close();
  });

  it('requires registration once the mandatory date has passed: no reminder, no skip', async () => {
    const email = await createTestUser(keycard, 'grand-hotel');
    keycard.clock.advance(10 * DAY);
    try {
      const page = await freshPage();
      await page.goto(`${keycard.origin('grand-hotel')}/login`);
      await signIn(page, email);
      await page.waitForURL(`${keycard.origin('grand-hotel')}/mfa`);
      await expectHeading(page, 'Set up two-step verification');
      expect(
        await page
          .getByText('Your organisation requires two-step verification before you can continue.')
          .isVisible(),
      ).toBe(true);
      expect(await page.getByRole('button', { name: /Skip for now/ }).count()).toBe(0);
      await page.context().close();
    } finally {
      keycard.clock.advance(-10 * DAY);
    }
  });

  it('keeps password-only sign-in where MFA is off (seaside)', async () => {
    const page = await freshPage();
    await page.goto(`${keycard.origin('seaside')}/login`);
    await signIn(page, 'demo@seaside.test');
    await page.waitForURL(appHome);
    await page.context().close();
  });
});
