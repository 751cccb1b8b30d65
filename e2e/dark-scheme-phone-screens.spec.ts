import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { en } from '@keycard/texts';
import type { Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { enableDarkScheme, expectDark as expectDarkIn } from './support/dark-scheme.ts';
import {
  continueAfterRecoveryCodes,
  createTestUser,
  enterCode,
  expectHeading,
  lastPhoneCode,
  signIn,
  stubDefaultRedirect,
} from './support/mfa.ts';
import { deny, openDeviceApp, pair, useMobileMfaStack, waitForChallenge } from './support/mobile-app.ts';

/**
 * The tenant's dark scheme on the MFA screens dark-scheme-screens.spec.ts does not draw: the
 * phone number's set-up with its country picker, the SMS and voice-call code entry, and the
 * mobile app's registration (with its QR code), waiting, number and failure screens. On each, in
 * Chromium asking for dark: axe finds nothing (colour contrast included), no panel is left
 * white, and screenshots at 375 and 1280 px are kept. Summit offers all of these methods.
 */
const shots = process.env.SCREENSHOT_DIR ?? mkdtempSync(path.join(tmpdir(), 'dark-scheme-phone-screens-'));
const expectDark = (page: Page, name: string) => expectDarkIn(page, name, shots);
const appHome = /^http:\/\/localhost:3001\/(\?user-device-token=[\w-]+)?$/;
const phone = en.mfa.phone;
const mobile = en.mfa.mobile;

/** WCAG contrast of two computed colours (`rgb(…)`), as axe computes it. */
function contrast(foreground: string, background: string): number {
  const luminance = (colour: string) => {
    const [r, g, b] = (colour.match(/[\d.]+/g) ?? []).slice(0, 3).map((part) => {
      const c = Number(part) / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
  };
  const [light, dark] = [luminance(foreground), luminance(background)].sort((a, b) => b - a);
  return ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05);
}

describe('the dark scheme on the phone and mobile-app MFA screens (Chromium)', () => {
  const stack = useMobileMfaStack({ env: { LOGIN_IP_LIMIT_PER_MINUTE: '1000' } });

  beforeAll(async () => {
    await enableDarkScheme(stack.keycard, 'summit');
  });
  // Back to the real time after each test: the device app's proofs carry its own clock, and the
  // server would refuse them as from the past.
  afterEach(() => {
    stack.keycard.clock.offset = 0;
  });

  async function darkPage(): Promise<Page> {
    const context = await stack.browser.newContext({
      locale: 'en-GB',
      viewport: { width: 1280, height: 900 },
    });
    const page = await context.newPage();
    await page.emulateMedia({ colorScheme: 'dark' });
    await stubDefaultRedirect(page);
    return page;
  }

  /** A new summit user, signed in on a dark page up to the method chooser. */
  async function toChooser(): Promise<{ email: string; page: Page }> {
    const email = await createTestUser(stack.keycard, 'summit');
    const page = await darkPage();
    await page.goto(`${stack.keycard.origin('summit')}/login`);
    await signIn(page, email);
    await expectHeading(page, en.mfa.choose.heading);
    return { email, page };
  }

  /** Signs the user in again on another dark page, past the resend interval, up to the code. */
  async function toCodeAtSignIn(email: string): Promise<Page> {
    stack.keycard.clock.advance(31_000);
    const page = await darkPage();
    await page.goto(`${stack.keycard.origin('summit')}/login`);
    await signIn(page, email);
    await expectHeading(page, en.mfa.verify.heading);
    return page;
  }

  it('draws the phone set-up with its country picker closed and open, and the SMS code entry dark', async () => {
    const { email, page } = await toChooser();
    await page.getByRole('button', { name: en.mfa.choose.phone }).click();
    await expectHeading(page, phone.number.heading);
    await expectDark(page, 'phone set-up');

    // The picker open: a search narrows the list, the select has the focus and shows it.
    const country = page.getByLabel(phone.number.countryCode, { exact: true });
    await page.getByLabel(phone.number.countrySearch, { exact: true }).fill('united');
    await expect
      .poll(() => page.locator('.kc-mfa-country [role="status"]').innerText())
      .toMatch(/^\d+ countries match\.$/);
    await country.focus();
    await page.keyboard.press('Alt+ArrowDown');
    expect(await country.locator('option').allInnerTexts()).toEqual(
      expect.arrayContaining(['United Kingdom +44', 'United States +1']),
    );
    // Chromium draws the open list from the select's and options' own colours: each reads.
    const colours = await country.evaluate((select) => {
      const own = getComputedStyle(select);
      return [...(select as HTMLSelectElement).options].map((option) => {
        const style = getComputedStyle(option);
        const transparent = /rgba\(.*,\s*0\)|transparent/.test(style.backgroundColor);
        return {
          option: option.textContent,
          colour: style.color,
          background: transparent ? own.backgroundColor : style.backgroundColor,
        };
      });
    });
    expect(colours.length).toBeGreaterThan(1);
    for (const { option, colour, background } of colours) {
      expect(contrast(colour, background), `${option}: ${colour} on ${background}`).toBeGreaterThanOrEqual(
        4.5,
      );
      expect(contrast(background, 'rgb(0, 0, 0)'), `${option}: a dark list`).toBeLessThan(3);
    }
    await expectDark(page, 'phone set-up, country picker open');
    await page.keyboard.press('Escape');

    // A number that cannot be one: the error on the dark card.
    await country.selectOption('GB');
    await page.getByLabel(phone.number.phoneNumber, { exact: true }).fill('12');
    await page.getByRole('button', { name: phone.number.send }).click();
    await expect.poll(() => page.getByRole('alert').innerText()).toBe('This number is invalid');
    await expectDark(page, 'phone set-up with an error');

    await page.getByLabel(phone.number.phoneNumber, { exact: true }).fill('07700 100300');
    await page.getByRole('button', { name: phone.number.send }).click();
    await expectHeading(page, phone.code.heading);
    await expectDark(page, 'sms code entry at set-up');
    const sent = await lastPhoneCode(stack.keycard, '+447700100300');
    await enterCode(page, sent.code === '000000' ? '111111' : '000000');
    await expect.poll(() => page.getByRole('alert').innerText()).toBe('Invalid code. Please try again.');
    await expectDark(page, 'sms code entry with an error');
    await enterCode(page, sent.code);
    await expectHeading(page, phone.done.heading);
    await continueAfterRecoveryCodes(page);
    await page.waitForURL(appHome);
    await page.context().close();

    const login = await toCodeAtSignIn(email);
    await expect
      .poll(() => login.getByText(/We sent a text message with a 6-digit code to \+44 •+00\./).isVisible())
      .toBe(true);
    await expectDark(login, 'sms code entry at sign-in');
    await login.context().close();
  });

  it('draws the voice-call set-up and its code entry at set-up and at sign-in dark', async () => {
    const { email, page } = await toChooser();
    await page.getByRole('button', { name: en.mfa.choose.phone }).click();
    await expectHeading(page, phone.number.heading);
    await page.getByLabel(phone.number.voice).check();
    expect(await page.getByText(phone.number.voiceHint).isVisible()).toBe(true);
    await page.getByLabel(phone.number.countryCode, { exact: true }).selectOption('DE');
    await page.getByLabel(phone.number.phoneNumber, { exact: true }).fill('030 2345679');
    await expectDark(page, 'phone set-up for a voice call');

    await page.getByRole('button', { name: phone.number.call }).click();
    await expectHeading(page, phone.code.heading);
    expect(await page.getByText(/^We are calling \+49 •+79 to read out a 6-digit code\.$/).isVisible()).toBe(
      true,
    );
    await expectDark(page, 'voice code entry at set-up');
    await enterCode(page, (await lastPhoneCode(stack.keycard, '+49302345679')).code);
    await expectHeading(page, phone.done.heading);
    await continueAfterRecoveryCodes(page);
    await page.waitForURL(appHome);
    await page.context().close();

    const login = await toCodeAtSignIn(email);
    await expect
      .poll(() => login.getByText(/We are calling \+49 •+79 to read out a 6-digit code\./).isVisible())
      .toBe(true);
    await expectDark(login, 'voice code entry at sign-in');
    await login.context().close();
  });

  it('draws the mobile app’s registration, QR code, number and failure screens dark', async () => {
    const { email, page } = await toChooser();
    await page.getByRole('button', { name: new RegExp(`^${mobile.choose.title}`) }).click();
    await expectHeading(page, mobile.register.heading);
    await expectDark(page, 'mobile app registration');

    await page.getByRole('button', { name: mobile.register.start, exact: true }).click();
    await expectHeading(page, mobile.waiting.heading);
    // The QR code is drawn once the enrolment is made, a moment after the heading.
    await page.getByRole('img', { name: mobile.waiting.qrAlt }).waitFor();
    expect(await page.locator('.kc-mfa-qr').count()).toBe(1);
    await expectDark(page, 'mobile app waiting with its QR code');
    await page.getByRole('button', { name: en.mfa.common.back, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: mobile.waiting.confirm.heading });
    await dialog.waitFor();
    await expectDark(page, 'mobile app stop-waiting dialog');
    await dialog.getByRole('button', { name: mobile.waiting.confirm.cancel, exact: true }).click();

    const uri = await page.getByLabel(mobile.waiting.uriLabel, { exact: true }).inputValue();
    const device = await openDeviceApp(stack.browser, stack.mobileApp);
    await pair(device.page, uri, 'Dark phone');
    await expectHeading(page, mobile.done.heading);
    await expectDark(page, 'mobile app set up');
    await continueAfterRecoveryCodes(page);
    await page.waitForURL(appHome);
    await page.context().close();

    // The next sign-in: the number to select, then a rejection on the phone.
    const login = await darkPage();
    await login.goto(`${stack.keycard.origin('summit')}/login`);
    await signIn(login, email);
    await expectHeading(login, mobile.verify.heading);
    await login.getByTestId('mfa-number').waitFor();
    // The number's box is edged in a colour that stands out from the dark card (WCAG 1.4.11).
    const box = await login.locator('.kc-mfa-number-box').evaluate((element) => {
      const card = element.closest('.kc-card');
      return {
        border: getComputedStyle(element).borderTopColor,
        card: card ? getComputedStyle(card).backgroundColor : '',
      };
    });
    expect(contrast(box.border, box.card), `${box.border} on ${box.card}`).toBeGreaterThanOrEqual(3);
    await expectDark(login, 'mobile app number to select');
    await waitForChallenge(device.page);
    await deny(device.page);
    await expectHeading(login, mobile.failure.rejectedHeading);
    expect(await login.getByText(mobile.failure.rejectedBody).isVisible()).toBe(true);
    await expectDark(login, 'mobile app sign-in rejected');
    await login.context().close();
    await device.context.close();
  });
});
