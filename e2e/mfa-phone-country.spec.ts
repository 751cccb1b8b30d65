import type { Locale } from '@keycard/contract';
import { loadTexts, type Texts } from '@keycard/texts';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launchBrowser, newContext } from './support/browser.ts';
import { type Keycard, startKeycard } from './support/keycard.ts';
import { createTestUser, expectHeading, lastPhoneCode, signIn, stubDefaultRedirect } from './support/mfa.ts';

const shots = '/tmp/guest-shots';

/**
 * Issue 19 item 18: the phone's country is picked from a list, named in the page's language with
 * its calling code, defaulted from the page's language and the browser's region, and found by
 * typing a name or a code.
 */
describe('the phone setup’s country picker (Chromium)', () => {
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

  /** A new account on summit (MFA required), signed in up to the phone setup's first step. */
  async function toPhoneSetup(browserLocale: string, language: Locale, width: number) {
    const texts: Texts = await loadTexts(language);
    const page = await (await newContext(browser, { locale: browserLocale })).newPage();
    await page.setViewportSize({ width, height: 800 });
    await stubDefaultRedirect(page);
    await page.goto(`${keycard.origin('summit')}/login?langCode=${language}`);
    await signIn(page, await createTestUser(keycard, 'summit'), texts);
    await expectHeading(page, texts.mfa.choose.heading);
    await page.getByRole('button', { name: texts.mfa.choose.phone }).click();
    await expectHeading(page, texts.mfa.phone.number.heading);
    return { page, texts, country: page.getByLabel(texts.mfa.phone.number.countryCode, { exact: true }) };
  }

  const chosen = (page: Page) =>
    page.locator('select[name="country"]').evaluate((select) => {
      const element = select as HTMLSelectElement;
      return `${element.value}: ${element.selectedOptions[0]?.textContent}`;
    });

  it.each([
    ['de-AT', 'de', 'AT: Österreich +43'],
    ['en-GB', 'en', 'GB: United Kingdom +44'],
    ['th', 'th', 'TH: ไทย +66'],
  ] as const)(
    'starts a %s browser on the %s page at its country',
    async (browserLocale, language, expected) => {
      for (const width of [320, 375, 1280]) {
        const { page } = await toPhoneSetup(browserLocale, language, width);
        await expect.poll(() => chosen(page)).toBe(expected);
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(
          true,
        );
        if (width !== 320) await expectAccessible(page, `phone setup, ${browserLocale}, ${width} px`);
        await page.screenshot({ path: `${shots}/country-${browserLocale}-${width}.png`, fullPage: true });
        await page.context().close();
      }
    },
  );

  it('finds a country by keyboard, by name or calling code, announces the matches, and sends with it', async () => {
    const { page, texts, country } = await toPhoneSetup('de-AT', 'de', 375);
    const search = page.getByLabel(texts.mfa.phone.number.countrySearch, { exact: true });
    const status = page.locator('.kc-mfa-country [role="status"]');
    await search.focus();
    await page.keyboard.type('schweiz');
    await expect.poll(() => chosen(page)).toBe('CH: Schweiz +41');
    await expect.poll(() => status.innerText()).toBe('1 Land passt.');
    await expectAccessible(page, 'country search with one match');
    await page.screenshot({ path: `${shots}/country-search-375.png`, fullPage: true });
    // Enter takes the first match and does not send the form.
    await page.keyboard.press('Enter');
    await expectHeading(page, texts.mfa.phone.number.heading);

    // By calling code, then a name with no match.
    await page.keyboard.press('Control+A');
    await page.keyboard.type('+43');
    await expect.poll(() => chosen(page)).toBe('AT: Österreich +43');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('vereinigte');
    await expect.poll(() => status.innerText()).toMatch(/^\d+ Länder passen\.$/);
    expect(await country.locator('option').allInnerTexts()).toEqual(
      expect.arrayContaining(['Vereinigtes Königreich +44', 'Vereinigte Staaten +1']),
    );
    await page.keyboard.press('Control+A');
    await page.keyboard.type('xyzzy');
    await expect.poll(() => status.innerText()).toBe(texts.mfa.phone.number.countryNone);

    // The select follows with the arrow keys; the chosen country is what is sent.
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    await country.focus();
    await country.selectOption('AT');
    await page.keyboard.press('ArrowDown');
    expect(await chosen(page)).not.toBe('AT: Österreich +43');
    await country.selectOption('AT');
    await page.getByLabel(texts.mfa.phone.number.phoneNumber, { exact: true }).fill('664 1234567');
    await page.getByRole('button', { name: texts.mfa.phone.number.send }).click();
    await expectHeading(page, texts.mfa.phone.code.heading);
    expect((await lastPhoneCode(keycard, '+436641234567')).code).toMatch(/^\d{6}$/);
    await page.context().close();
  });
});
