import { type Locale, locales } from '@keycard/contract';
import { en, loadTexts, type Texts } from '@keycard/texts';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launchBrowser, newContext } from './support/browser.ts';
import { type Keycard, startKeycard } from './support/keycard.ts';
import {
  continueAfterRecoveryCodes,
  createTestUser,
  enterCode,
  expectHeading,
  lastPhoneCode,
  registerTotp,
  setTenantSettings,
  signIn,
  stubDefaultRedirect,
} from './support/mfa.ts';
import { nextTimeStep, totpCode } from './support/totp.ts';

const DAY = 24 * 60 * 60 * 1000;
const appHome = /^http:\/\/localhost:3001\/(\?user-device-token=[\w-]+)?$/;

/**
 * Every MFA screen renders in every interface language (langCode): each screen's heading is
 * the one of that language's catalogue (and not English, for the seven translations), the
 * page title is translated, and axe finds nothing on any of them.
 */
describe('MFA screens in all eight languages (Chromium)', () => {
  let keycard: Keycard;
  let browser: Browser;

  beforeAll(async () => {
    keycard = await startKeycard();
    browser = await launchBrowser();
    await setTenantSettings(keycard, 'grand-hotel', {
      mfa: { mode: 'recommended', mandatoryFrom: keycard.clock.now() + 30 * DAY, trustedDeviceDays: 60 },
    });
  });
  afterAll(async () => {
    await browser?.close();
    await keycard?.close();
  });

  async function freshPage(): Promise<Page> {
    const page = await (await newContext(browser, { locale: 'en-GB' })).newPage();
    await stubDefaultRedirect(page);
    return page;
  }

  it.each(locales.map((locale, index) => [locale, index] as const))(
    'renders every MFA screen in %s',
    async (locale: Locale, index: number) => {
      const texts: Texts = await loadTexts(locale);
      const seen: string[] = [];
      const screen = async (page: Page, name: string, expected: string) => {
        await expectHeading(page, expected);
        if (locale !== 'en') expect(expected, `${name} is translated`).not.toBe(headingInEnglish(name));
        seen.push(name);
        await expectAccessible(page, `${locale}: ${name}`);
      };
      const m = texts.mfa;
      const email = await createTestUser(keycard, 'grand-hotel');

      // Registration (recommended): method choice, its skip dialog, authenticator app steps 1–4.
      const page = await freshPage();
      await page.goto(`${keycard.origin('grand-hotel')}/login?langCode=${locale}`);
      await signIn(page, email, texts);
      await page.waitForURL(`${keycard.origin('grand-hotel')}/mfa`);
      await screen(page, 'choose', m.choose.heading);
      await expect.poll(() => page.title()).toBe(`${m.titles.setup} | Grand Hotel Group`);
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(locale);
      await page.locator('.kc-links .kc-back').click();
      const dialog = page.getByRole('dialog', { name: m.reminder.confirm.heading });
      await expect.poll(() => dialog.isVisible()).toBe(true);
      await expectAccessible(page, `${locale}: skip dialog`);
      await dialog.getByRole('button', { name: m.reminder.confirm.cancel }).click();
      const { secret } = await registerTotp(page, keycard, {
        texts,
        onScreen: async (name) => {
          seen.push(name);
          await expectAccessible(page, `${locale}: ${name}`);
        },
      });
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(m.totp.done.heading);
      await continueAfterRecoveryCodes(page, texts);
      await page.waitForURL(appHome);
      await page.context().close();

      // Sign-in code, reset (confirm, done), phone registration steps 1–3, manage.
      nextTimeStep(keycard);
      const next = await freshPage();
      await next.goto(`${keycard.origin('grand-hotel')}/login?langCode=${locale}`);
      await signIn(next, email, texts);
      await screen(next, 'verify', m.verify.heading);
      await expect.poll(() => next.title()).toBe(`${m.titles.verify} | Grand Hotel Group`);
      await next.getByRole('link', { name: m.verify.lostAccess }).click();
      await screen(next, 'reset', m.reset.heading);
      await next.getByLabel(m.common.codeLabel, { exact: true }).fill(await totpCode(keycard, secret));
      await next.getByRole('button', { name: m.reset.confirm }).click();
      await screen(next, 'reset done', m.reset.done.heading);
      await next.getByRole('link', { name: m.reset.done.setUpAgain }).click();
      await screen(next, 'choose again', m.choose.heading);
      await next.getByRole('button', { name: m.choose.phone }).click();
      await screen(next, 'phone step 1', m.phone.number.heading);
      const phone = `+4915122${String(300000 + index).padStart(6, '0')}`;
      await next.getByLabel(m.phone.number.countryCode, { exact: true }).selectOption('DE');
      await next.getByLabel(m.phone.number.phoneNumber, { exact: true }).fill(phone.slice(3));
      await next.getByRole('button', { name: m.phone.number.send }).click();
      await screen(next, 'phone step 2', m.phone.code.heading);
      await enterCode(next, (await lastPhoneCode(keycard, phone)).code, texts);
      await screen(next, 'phone step 3', m.phone.done.heading);
      await continueAfterRecoveryCodes(next, texts);
      await next.waitForURL(appHome);
      await next.goto(`${keycard.origin('grand-hotel')}/mfa?langCode=${locale}`);
      await screen(next, 'manage', m.manage.heading);
      await next.context().close();

      expect(seen).toEqual([
        'choose',
        'totp step 1',
        'totp step 2',
        'totp step 3',
        'totp step 4 (recovery codes)',
        'verify',
        'reset',
        'reset done',
        'choose again',
        'phone step 1',
        'phone step 2',
        'phone step 3',
        'manage',
      ]);
    },
  );
});

function headingInEnglish(name: string): string {
  const m = en.mfa;
  const headings: Record<string, string> = {
    choose: m.choose.heading,
    'choose again': m.choose.heading,
    verify: m.verify.heading,
    reset: m.reset.heading,
    'reset done': m.reset.done.heading,
    'phone step 1': m.phone.number.heading,
    'phone step 2': m.phone.code.heading,
    'phone step 3': m.phone.done.heading,
    manage: m.manage.heading,
  };
  return headings[name] ?? '';
}
