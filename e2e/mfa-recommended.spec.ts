import type { Locale } from '@keycard/contract';
import { en, format, loadTexts, type Texts } from '@keycard/texts';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launchBrowser, newContext } from './support/browser.ts';
import { type Keycard, startKeycard } from './support/keycard.ts';
import {
  createTestUser,
  expectHeading,
  lastPhoneCode,
  setTenantSettings,
  signIn,
  stubDefaultRedirect,
} from './support/mfa.ts';

const DAY = 24 * 60 * 60 * 1000;
const appHome = /^http:\/\/localhost:3001\/(\?user-device-token=[\w-]+)?$/;
const shots = '/tmp/mfa-recommended-shots';

/**
 * Issue 19 item 12: a recommended registration opens on the same neutral method choice as a
 * required one (with its skip and the days left), and a tenant that never set up a device app
 * (no mfa.methods) offers no partner app there.
 */
describe('MFA recommended: the same method choice as required, with skip (Chromium)', () => {
  let keycard: Keycard;
  let browser: Browser;
  const recommended = () => ({
    mode: 'recommended' as const,
    mandatoryFrom: keycard.clock.now() + 10 * DAY - 60_000,
    trustedDeviceDays: 60,
  });

  beforeAll(async () => {
    keycard = await startKeycard();
    browser = await launchBrowser();
    // grand-hotel recommends MFA, mandatory in ten days; it names no factors (no device app).
    await setTenantSettings(keycard, 'grand-hotel', { mfa: recommended() });
  });
  afterAll(async () => {
    await browser?.close();
    await keycard?.close();
  });

  async function freshPage(width: number, locale = 'en-GB'): Promise<Page> {
    const page = await (await newContext(browser, { locale })).newPage();
    await page.setViewportSize({ width, height: 900 });
    await stubDefaultRedirect(page);
    return page;
  }

  async function signInTo(page: Page, email: string, locale: Locale, texts: Texts) {
    await page.goto(`${keycard.origin('grand-hotel')}/login?langCode=${locale}`);
    await signIn(page, email, texts);
    await page.waitForURL(`${keycard.origin('grand-hotel')}/mfa`);
  }

  /** The options of the method choice, as their titles. */
  const options = (page: Page) => page.locator('.kc-mfa-option-title').allInnerTexts();

  for (const [locale, width] of [
    ['en', 1280],
    ['de', 375],
    ['th', 375],
    ['fr', 1280],
  ] as const) {
    it(`opens the method choice with skip and days left, no partner app (${locale}, ${width} px)`, async () => {
      const texts = await loadTexts(locale);
      const m = texts.mfa;
      const email = await createTestUser(keycard, 'grand-hotel');
      const page = await freshPage(width);
      await signInTo(page, email, locale, texts);
      await expectHeading(page, m.choose.heading);
      await expect.poll(() => page.title()).toBe(`${m.titles.setup} | Grand Hotel Group`);
      expect(await page.locator('.kc-mfa-days').innerText()).toBe(
        format(m.reminder.daysLeft.other, { count: 10 }),
      );
      // A tenant without a device app: the authenticator app and the phone, nothing else.
      expect(await options(page)).toEqual([m.choose.app, m.choose.phone]);
      expect(await page.locator('body').innerText()).not.toContain(m.mobile.choose.title);
      // Not the "required" notice: this is the recommended state.
      expect(await page.getByText(m.choose.required).count()).toBe(0);
      await expectAccessible(page, `recommended choice (${locale}, ${width})`);
      await page.screenshot({ path: `${shots}/recommended-choice-${locale}-${width}.png`, fullPage: true });

      const skip = page.getByRole('button', { name: format(m.choose.skipDays.other, { count: 10 }) });
      await skip.click();
      const dialog = page.getByRole('dialog', { name: m.reminder.confirm.heading });
      await expect.poll(() => dialog.isVisible()).toBe(true);
      await expectAccessible(page, `skip dialog (${locale}, ${width})`);
      await page.screenshot({ path: `${shots}/recommended-skip-${locale}-${width}.png`, fullPage: true });
      // Escape cancels and gives focus back to the skip button.
      await page.keyboard.press('Escape');
      await expect.poll(() => dialog.isVisible()).toBe(false);
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.textContent))
        .toBe(format(m.choose.skipDays.other, { count: 10 }));
      await skip.click();
      await dialog.getByRole('button', { name: m.reminder.confirm.confirm, exact: true }).click();
      await page.waitForURL(appHome);
      await page.context().close();
    });
  }

  it('asks again at the next sign-in, on the same choice', async () => {
    const email = await createTestUser(keycard, 'grand-hotel');
    const page = await freshPage(375);
    await signInTo(page, email, 'en', en);
    await expectHeading(page, en.mfa.choose.heading);
    await page.getByRole('button', { name: 'Skip for now (10 days left)' }).click();
    await page.getByRole('button', { name: en.mfa.reminder.confirm.confirm, exact: true }).click();
    await page.waitForURL(appHome);
    await page.goto(`${keycard.origin('grand-hotel')}/logout`);
    await page.waitForURL(/\/login\?loggedOut=true/);
    await signIn(page, email);
    await page.waitForURL(`${keycard.origin('grand-hotel')}/mfa`);
    await expectHeading(page, en.mfa.choose.heading);
    await page.context().close();
  });

  it('shows the same choice once MFA is required, without skip', async () => {
    const email = await createTestUser(keycard, 'grand-hotel');
    const optional = await freshPage(1280);
    const italian = await loadTexts('it');
    await signInTo(optional, email, 'it', italian);
    // Read once the choice is drawn, not while the page is still on its way there.
    await expectHeading(optional, italian.mfa.choose.heading);
    const recommendedOptions = await options(optional);
    expect(recommendedOptions).toEqual([italian.mfa.choose.app, italian.mfa.choose.phone]);
    await optional.context().close();
    keycard.clock.advance(10 * DAY);
    try {
      const texts = await loadTexts('it');
      const page = await freshPage(1280);
      await signInTo(page, email, 'it', texts);
      await expectHeading(page, texts.mfa.choose.heading);
      expect(await options(page)).toEqual(recommendedOptions);
      expect(await page.getByText(texts.mfa.choose.required).isVisible()).toBe(true);
      expect(await page.locator('.kc-links .kc-back').count()).toBe(0);
      await expectAccessible(page, 'required choice (it, 1280)');
      await page.screenshot({ path: `${shots}/required-choice-it-1280.png`, fullPage: true });
      await page.context().close();
    } finally {
      keycard.clock.advance(-10 * DAY);
    }
  });

  it('offers the partner app once the tenant lists it (its device app is set up)', async () => {
    await setTenantSettings(keycard, 'grand-hotel', {
      mfa: { ...recommended(), methods: ['totp', 'smmobile'] },
    });
    try {
      const texts = await loadTexts('es');
      const email = await createTestUser(keycard, 'grand-hotel');
      const page = await freshPage(375);
      await signInTo(page, email, 'es', texts);
      await expectHeading(page, texts.mfa.choose.heading);
      expect(await options(page)).toEqual([texts.mfa.choose.app, texts.mfa.mobile.choose.title]);
      await expectAccessible(page, 'choice with the partner app (es, 375)');
      await page.screenshot({ path: `${shots}/recommended-choice-mobile-es-375.png`, fullPage: true });
      await page.context().close();
    } finally {
      await setTenantSettings(keycard, 'grand-hotel', { mfa: recommended() });
    }
  });

  it('sends the set-up text in the language picked in the menu, not the account one', async () => {
    const email = await createTestUser(keycard, 'grand-hotel');
    const page = await freshPage(375);
    await signInTo(page, email, 'en', en);
    await expectHeading(page, en.mfa.choose.heading);
    await page.locator('.kc-language select').selectOption('pt');
    const pt = await loadTexts('pt');
    await expectHeading(page, pt.mfa.choose.heading);
    await page.getByRole('button', { name: pt.mfa.choose.phone }).click();
    await page.getByLabel(pt.mfa.phone.number.countryCode, { exact: true }).selectOption('DE');
    const number = `151${String(30_000_000 + Math.floor(Math.random() * 9_999_999))}`;
    await page.getByLabel(pt.mfa.phone.number.phoneNumber, { exact: true }).fill(number);
    await page.getByRole('button', { name: pt.mfa.phone.number.send }).click();
    await expectHeading(page, pt.mfa.phone.code.heading);
    const sms = await lastPhoneCode(keycard, `+49${number}`);
    expect(sms.text).toContain(
      format(pt.mfa.messages.sms, { code: sms.code, name: 'Grand Hotel Group', minutes: 10 }),
    );
    await expectAccessible(page, 'phone code step (pt, 375)');
    await page.screenshot({ path: `${shots}/recommended-phone-code-pt-375.png`, fullPage: true });
    await page.context().close();
  });
});
