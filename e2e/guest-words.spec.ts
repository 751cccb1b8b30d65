import type { Locale } from '@keycard/contract';
import { en, loadTexts, type Texts } from '@keycard/texts';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createUser } from '../apps/server/src/features/accounts/user.repository.ts';
import { expectAccessible, launchBrowser, newContext } from './support/browser.ts';
import { type Keycard, startKeycard } from './support/keycard.ts';
import {
  continueAfterRecoveryCodes,
  createTestUser,
  enterCode,
  expectHeading,
  lastPhoneCode,
  password,
  setTenantSettings,
  signIn,
  stubDefaultRedirect,
} from './support/mfa.ts';
import { totpCode } from './support/totp.ts';

const DAY = 24 * 60 * 60 * 1000;
const shots = '/tmp/guest-shots';
const longEmail =
  'anna-lena.mueller-luedenscheidt-wattenscheid@zweigstelle-nordrhein-westfalen.grand-hotel.test';

/** WCAG 1.4.10: nothing scrolls sideways; answers the widest element when something does. */
async function expectNoSidewaysScroll(page: Page, name: string): Promise<void> {
  const overflow = await page.evaluate(() => {
    const width = window.innerWidth;
    if (document.documentElement.scrollWidth <= width) return null;
    const wide = [...document.querySelectorAll('body *')].find(
      (element) => element.getBoundingClientRect().right > width + 0.5,
    );
    return `${document.documentElement.scrollWidth} > ${width}: ${wide?.outerHTML.slice(0, 160)}`;
  });
  expect(overflow, `${name} scrolls sideways`).toBeNull();
}

/**
 * Where the lines of an element's text break: each break as the characters either side
 * ("…e|n…"), read from the rendered layout (a character lower than the one before starts a line).
 */
async function lineBreaks(page: Page, selector: string): Promise<string[]> {
  return page
    .locator(selector)
    .first()
    .evaluate((element) => {
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      const chars: { char: string; top: number }[] = [];
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        for (let index = 0; index < text.length; index++) {
          const range = document.createRange();
          range.setStart(node, index);
          range.setEnd(node, index + 1);
          const rect = range.getClientRects()[0];
          if (rect) chars.push({ char: text[index] ?? '', top: rect.top });
        }
      }
      const breaks: string[] = [];
      for (let index = 1; index < chars.length; index++) {
        const before = chars[index - 1];
        const after = chars[index];
        if (before && after && after.top > before.top + 2) breaks.push(`${before.char}|${after.char}`);
      }
      return breaks;
    });
}

/** "Trust this device": its state, and whether the very next element is the row with the submit button. */
async function trustBox(page: Page) {
  return page.locator('input[data-kc="trust-device"]').evaluate((input) => {
    const row = input.closest('.kc-checkbox')?.nextElementSibling;
    return {
      checked: (input as HTMLInputElement).checked,
      beforeSubmitRow: Boolean(row?.matches('.kc-mfa-actions') && row.querySelector('button[type="submit"]')),
      inForm: input.closest('form') !== null,
    };
  });
}

describe('words and layout at 320 px, counts, promises and the trust box (Chromium)', () => {
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
  beforeEach(async () => {
    await setTenantSettings(keycard, 'grand-hotel', {
      mfa: { mode: 'recommended', mandatoryFrom: keycard.clock.now() + DAY, trustedDeviceDays: 1 },
    });
  });

  async function freshPage(width = 320, locale = 'en-GB'): Promise<Page> {
    const context = await newContext(browser, { locale });
    const page = await context.newPage();
    await page.setViewportSize({ width, height: 720 });
    await stubDefaultRedirect(page);
    return page;
  }

  it.each(['de', 'id', 'th', 'fr'] as const)(
    'nothing scrolls sideways at 320 px in %s',
    async (locale: Locale) => {
      const texts: Texts = await loadTexts(locale);
      const m = texts.mfa;
      const origin = keycard.origin('grand-hotel');
      const page = await freshPage();
      const check = async (name: string) => {
        await expectNoSidewaysScroll(page, `${locale}: ${name}`);
        await page.screenshot({ path: `${shots}/words-${locale}-${name}-320.png`, fullPage: true });
      };

      // The password step with a long address (hyphens in it), and the error page.
      await page.goto(`${origin}/login?langCode=${locale}`);
      await check('login');
      await page.getByLabel(texts.login.email.label, { exact: true }).fill(longEmail);
      await page.getByRole('button', { name: texts.login.email.submit }).click();
      await expect.poll(() => page.getByLabel(texts.login.password.label, { exact: true }).count()).toBe(1);
      await check('password-step');
      await page.goto(`${origin}/error/?langCode=${locale}`);
      await page.waitForLoadState('networkidle');
      await check('error');

      // The MFA screens: chooser ("1 day"), phone setup, authenticator-app setup.
      const email = await createTestUser(keycard, 'grand-hotel');
      await page.goto(`${origin}/login?langCode=${locale}`);
      await signIn(page, email, texts);
      await expectHeading(page, m.choose.heading);
      const days = page.locator('.kc-mfa-days');
      expect(await days.innerText()).toBe(m.reminder.lastDay);
      await check('chooser');
      await page.getByRole('button', { name: m.choose.phone }).click();
      await expectHeading(page, m.phone.number.heading);
      await check('phone-setup');
      await page.getByRole('button', { name: m.common.back, exact: true }).click();
      await page.getByRole('button', { name: m.choose.app }).click();
      await expectHeading(page, m.totp.download.heading);
      await page.getByRole('button', { name: m.common.next, exact: true }).click();
      await expectHeading(page, m.totp.scan.heading);
      await check('totp-scan');
      await page.getByRole('button', { name: m.common.next, exact: true }).click();
      await expectHeading(page, m.totp.code.heading);
      await check('totp-code');
      await page.context().close();
    },
    120_000,
  );

  it('keeps the password step with a long address within the screen at 320, 375 and 1280 px', async () => {
    for (const width of [320, 375, 1280]) {
      const page = await freshPage(width);
      await page.goto(`${keycard.origin('grand-hotel')}/login`);
      await page.getByLabel(en.login.email.label, { exact: true }).fill(longEmail);
      await page.getByRole('button', { name: en.login.email.submit }).click();
      await expect.poll(() => page.getByLabel(en.login.password.label, { exact: true }).count()).toBe(1);
      await expectNoSidewaysScroll(page, `password step at ${width}`);
      await expectAccessible(page, `password step with a long address at ${width}`);
      await page.screenshot({ path: `${shots}/words-password-step-${width}.png`, fullPage: true });
      await page.context().close();
    }
  });

  it('wraps a long address on the authenticator-app screen after "@" or a dot, never at a hyphen', async () => {
    // Every part between "@" and dots fits a line, so no part needs a last-resort break.
    const email = `anna-lena.mueller-luedenscheidt.${Date.now().toString(36)}@grand-hotel-nordrhein.example-hotels.test`;
    await createUser(keycard.services.db, {
      tenantCode: 'grand-hotel',
      email,
      type: 'property',
      locale: 'en',
      status: 'active',
      password,
      emailVerified: true,
    });
    for (const width of [320, 375]) {
      const page = await freshPage(width);
      await page.goto(`${keycard.origin('grand-hotel')}/login`);
      await signIn(page, email);
      await page.getByRole('button', { name: en.mfa.choose.app }).click();
      await page.getByRole('button', { name: en.mfa.common.next, exact: true }).click();
      await expectHeading(page, en.mfa.totp.scan.heading);
      const breaks = await lineBreaks(page, '.kc-mfa-hint .kc-email');
      expect(breaks.length, `the address wraps at ${width} px`).toBeGreaterThan(0);
      for (const at of breaks) {
        expect(at, `a break at ${width} px`).not.toContain('-');
        expect(at, `a break at ${width} px`).toMatch(/^[@.]\|/);
      }
      await expectNoSidewaysScroll(page, `totp scan with a long address at ${width}`);
      await page.screenshot({ path: `${shots}/words-long-address-totp-${width}.png`, fullPage: true });
      await page.context().close();
    }
  });

  it('wraps an address in every sentence that names it after "@" or a dot, never at a hyphen', async () => {
    const email = `anna-lena.mueller-luedenscheidt.${Date.now().toString(36)}@grand-hotel-nordrhein.example-hotels.test`;
    /** The breaks of the address in the sentence that names it: after "@" or a dot only. */
    const expectWrappedWell = async (page: Page, selector: string, where: string) => {
      const breaks = await lineBreaks(page, selector);
      expect(breaks.length, `the address wraps (${where})`).toBeGreaterThan(0);
      for (const at of breaks) expect(at, `a break (${where})`).toMatch(/^[@.]\|/);
    };
    for (const width of [320, 375]) {
      // The password step names the address it signs in.
      const page = await freshPage(width);
      await page.goto(`${keycard.origin('grand-hotel')}/login`);
      await page.getByLabel(en.login.email.label, { exact: true }).fill(email);
      await page.getByRole('button', { name: en.login.email.submit }).click();
      await expect.poll(() => page.getByLabel(en.login.password.label, { exact: true }).count()).toBe(1);
      await expectWrappedWell(page, '.kc-identity .kc-email', `password step at ${width} px`);
      // The reset mail's confirmation names the address it was sent to (known or not).
      await page.goto(`${keycard.origin('grand-hotel')}/reset-password`);
      await page.getByLabel(en.lifecycle.resetRequest.email, { exact: true }).fill(email);
      await page.getByRole('button', { name: en.lifecycle.resetRequest.submit }).click();
      await expectHeading(page, en.lifecycle.resetSent.heading);
      await expectWrappedWell(page, 'main p .kc-email', `reset sent at ${width} px`);
      await expectNoSidewaysScroll(page, `reset sent with a long address at ${width}`);
      await page.screenshot({ path: `${shots}/words-long-address-reset-${width}.png`, fullPage: true });
      await page.context().close();
    }
  });

  it('promises no phone or landline where the tenant offers only an authenticator app', async () => {
    await setTenantSettings(keycard, 'grand-hotel', {
      mfa: {
        mode: 'recommended',
        mandatoryFrom: keycard.clock.now() + 10 * DAY,
        trustedDeviceDays: 60,
        methods: ['totp'],
      },
    });
    const email = await createTestUser(keycard, 'grand-hotel');
    const page = await freshPage(375);
    await page.goto(`${keycard.origin('grand-hotel')}/login`);
    await signIn(page, email);
    await expectHeading(page, en.mfa.choose.heading);
    const benefits = page.getByRole('region', { name: en.mfa.benefits.heading });
    expect(await benefits.getByRole('listitem').allInnerTexts()).toEqual([
      en.mfa.benefits.minutes,
      en.mfa.benefits.trusted.other.replace('{{count}}', '60'),
    ]);
    const body = await page.locator('body').innerText();
    expect(body).not.toContain(en.mfa.benefits.landline);
    expect(body).not.toMatch(/landline|voice call|call you/i);
    await expectAccessible(page, 'chooser, authenticator app only');
    await page.screenshot({ path: `${shots}/words-totp-only-chooser-375.png`, fullPage: true });
    await expectHeading(page, en.mfa.choose.heading);
    expect(await page.getByRole('button', { name: en.mfa.choose.phone }).count()).toBe(0);
    expect(await page.locator('body').innerText()).not.toMatch(/landline|voice call|text message/i);
    await page.context().close();

    // Text messages without voice: the phone choice and set-up promise no call.
    await setTenantSettings(keycard, 'grand-hotel', {
      mfa: {
        mode: 'recommended',
        mandatoryFrom: keycard.clock.now() + 10 * DAY,
        trustedDeviceDays: 60,
        methods: ['totp', 'sms'],
      },
    });
    const sms = await freshPage(375);
    await sms.goto(`${keycard.origin('grand-hotel')}/login`);
    await signIn(sms, await createTestUser(keycard, 'grand-hotel'));
    await expectHeading(sms, en.mfa.choose.heading);
    expect(await sms.locator('body').innerText()).not.toMatch(/landline|voice call|call you/i);
    await expectHeading(sms, en.mfa.choose.heading);
    expect(await sms.locator('body').innerText()).not.toMatch(/landline|voice call|call/i);
    await sms.getByRole('button', { name: en.mfa.choose.phoneSms }).click();
    await expectHeading(sms, en.mfa.phone.number.heading);
    expect(await sms.getByLabel(en.mfa.phone.number.voice).count()).toBe(0);
    expect(await sms.getByRole('button', { name: en.mfa.phone.number.send }).isVisible()).toBe(true);
    await expectAccessible(sms, 'phone set-up, text messages only');
    await sms.context().close();

    // With voice offered, the landline line is back.
    await setTenantSettings(keycard, 'grand-hotel', {
      mfa: {
        mode: 'recommended',
        mandatoryFrom: keycard.clock.now() + 10 * DAY,
        trustedDeviceDays: 60,
        methods: ['totp', 'sms', 'voice'],
      },
    });
    const other = await freshPage(375);
    await other.goto(`${keycard.origin('grand-hotel')}/login`);
    await signIn(other, await createTestUser(keycard, 'grand-hotel'));
    await expectHeading(other, en.mfa.choose.heading);
    expect(await other.getByText(en.mfa.benefits.landline).isVisible()).toBe(true);
    await other.context().close();
  });

  it('leaves "Trust this device" unticked, just before the submit row, in set-up and verify flows alike', async () => {
    await setTenantSettings(keycard, 'grand-hotel', {
      mfa: { mode: 'recommended', mandatoryFrom: keycard.clock.now() + 10 * DAY, trustedDeviceDays: 60 },
    });
    const expected = { checked: false, beforeSubmitRow: true, inForm: true };
    const email = await createTestUser(keycard, 'grand-hotel');
    const page = await freshPage(375);
    await page.goto(`${keycard.origin('grand-hotel')}/login`);
    await signIn(page, email);

    // Set-up by authenticator app, step 3.
    await page.getByRole('button', { name: en.mfa.choose.app }).click();
    await page.getByRole('button', { name: en.mfa.common.next, exact: true }).click();
    await expectHeading(page, en.mfa.totp.scan.heading);
    const secret = (await page.getByLabel(en.mfa.totp.scan.keyLabel, { exact: true }).inputValue()).replace(
      /\s+/g,
      '',
    );
    await page.getByRole('button', { name: en.mfa.common.next, exact: true }).click();
    await expectHeading(page, en.mfa.totp.code.heading);
    expect(await trustBox(page)).toEqual(expected);
    await page.screenshot({ path: `${shots}/words-trust-totp-setup-375.png`, fullPage: true });
    await enterCode(page, await totpCode(keycard, secret));
    await continueAfterRecoveryCodes(page);
    await page.context().close();

    // Verify at the next sign-in: code, then recovery code.
    const next = await freshPage(375);
    await next.goto(`${keycard.origin('grand-hotel')}/login`);
    await signIn(next, email);
    await expectHeading(next, en.mfa.verify.heading);
    expect(await trustBox(next)).toEqual(expected);
    await next.screenshot({ path: `${shots}/words-trust-verify-375.png`, fullPage: true });
    const useRecovery = next.locator('[data-kc="use-recovery"]');
    expect(await useRecovery.innerText()).toBe(en.mfa.verify.useRecovery);
    // First in the links under the form.
    expect(await useRecovery.evaluate((link) => link.parentElement?.firstElementChild === link)).toBe(true);
    await useRecovery.click();
    expect(await trustBox(next)).toEqual(expected);
    await next.context().close();

    // Set-up by phone, step 2 (a second account).
    const phoneUser = await createTestUser(keycard, 'grand-hotel');
    const phone = await freshPage(375);
    await phone.goto(`${keycard.origin('grand-hotel')}/login`);
    await signIn(phone, phoneUser);
    await phone.getByRole('button', { name: en.mfa.choose.phone }).click();
    await phone.getByLabel(en.mfa.phone.number.countryCode, { exact: true }).selectOption('DE');
    const number = `151${String(20_000_000 + Math.floor(Math.random() * 9_999_999))}`;
    await phone.getByLabel(en.mfa.phone.number.phoneNumber, { exact: true }).fill(number);
    await phone.getByRole('button', { name: en.mfa.phone.number.send }).click();
    await expectHeading(phone, en.mfa.phone.code.heading);
    expect(await trustBox(phone)).toEqual(expected);
    await phone.screenshot({ path: `${shots}/words-trust-phone-setup-375.png`, fullPage: true });
    expect((await lastPhoneCode(keycard, `+49${number}`)).code).toMatch(/^\d{6}$/);
    await phone.context().close();
  });
});
