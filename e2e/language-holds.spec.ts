import type { Locale } from '@keycard/contract';
import { loadTexts } from '@keycard/texts';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../apps/server/src/features/accounts/user.repository.ts';
import { expectAccessible, launchBrowser, newContext } from './support/browser.ts';
import { type Keycard, startKeycard } from './support/keycard.ts';
import { linkIn, waitForMail } from './support/outbox.ts';

const shots = '/tmp/language-holds-shots';

/**
 * Issue 19 item 14: a mail link's langCode never overrides a language picked in this browser's
 * menu; without a menu choice, the link's langCode still wins over Accept-Language.
 */
describe('the language menu holds against a mail link (Chromium)', () => {
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

  async function freshPage(width: number, acceptLanguage: string): Promise<Page> {
    const page = await (await newContext(browser, { locale: acceptLanguage })).newPage();
    await page.setViewportSize({ width, height: 900 });
    return page;
  }

  const lang = (page: Page) => page.evaluate(() => document.documentElement.lang);

  /** The reset page a link opened, in a language: its heading, its menu, no axe violation. */
  async function expectResetPageIn(page: Page, locale: Locale, label: string) {
    const texts = await loadTexts(locale);
    await expect.poll(() => lang(page)).toBe(locale);
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).innerText(), { timeout: 15_000 })
      .toBe(texts.lifecycle.resetUpdate.heading);
    expect(await page.locator('.kc-language select').inputValue()).toBe(locale);
    await expectAccessible(page, label);
  }

  for (const [menu, link, accept, width] of [
    ['it', 'fr', 'de-DE', 375],
    ['th', 'es', 'pt-PT', 1280],
    ['de', 'id', 'en-GB', 375],
  ] as const) {
    it(`keeps ${menu} picked in the menu over a ${link} link; without it the link beats ${accept} (${width} px)`, async () => {
      // The mail: asked for on a page in the link's language (the person's language then).
      const email = `holds-${menu}-${link}-${Date.now().toString(36)}@seaside.test`;
      await createUser(keycard.services.db, {
        tenantCode: 'seaside',
        email,
        type: 'staff',
        locale: link,
        status: 'active',
        password: 'Language-holds-1',
      });
      const asker = await freshPage(width, 'en-GB');
      await asker.goto(`${keycard.origin('seaside')}/reset-password/?langCode=${link}`);
      await asker.locator('[data-kc-first-paint]').waitFor({ state: 'detached' });
      await asker.locator('input[type="email"]').fill(email);
      await asker.locator('form button[type="submit"]').click();
      await asker.waitForURL(/\/reset-password\/sent/);
      await asker.context().close();
      const href = linkIn(await waitForMail(keycard, email, 'account.reset'));
      expect(new URL(href).searchParams.get('langCode')).toBe(link);

      // This browser picked a language in the menu earlier: the link opens in it.
      const chooser = await freshPage(width, accept);
      await chooser.goto(`${keycard.origin('seaside')}/login`);
      await chooser.locator('[data-kc-first-paint]').waitFor({ state: 'detached' });
      await chooser.locator('.kc-language select').selectOption(menu);
      await expect.poll(() => lang(chooser)).toBe(menu);
      await chooser.goto(href);
      await expectResetPageIn(chooser, menu, `link in ${link} after the menu's ${menu} (${width})`);
      await chooser.screenshot({ path: `${shots}/menu-${menu}-link-${link}-${width}.png`, fullPage: true });
      // And it stays: the link did not replace the browser's language.
      await chooser.reload();
      await expectResetPageIn(chooser, menu, `reloaded (${menu}, ${width})`);
      await chooser.goto(`${keycard.origin('seaside')}/login`);
      await expect.poll(() => lang(chooser)).toBe(menu);
      await chooser.context().close();

      // A browser that never used the menu: the link's language, over Accept-Language.
      const fresh = await freshPage(width, accept);
      await fresh.goto(href);
      await expectResetPageIn(fresh, link, `link in ${link}, no menu choice (${width})`);
      await fresh.screenshot({ path: `${shots}/no-menu-link-${link}-${width}.png`, fullPage: true });
      await fresh.context().close();
    });
  }
});
