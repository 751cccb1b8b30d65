import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../apps/server/src/features/accounts/user.repository.ts';
import { expectAccessible, launchBrowser, newContext } from './support/browser.ts';
import { type Keycard, startKeycard } from './support/keycard.ts';
import { linkIn, waitForMail } from './support/outbox.ts';

/**
 * Issue 19, item 14: a mail asked for in the portal is in the language the page was in — the
 * menu's choice too — with its link, not in the account's stored language.
 */
describe('a requested mail keeps the page language (Chromium)', () => {
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

  for (const [stored, chosen, width, subject] of [
    ['th', 'de', 375, /Passwort/],
    ['de', 'es', 1280, /contraseña/i],
  ] as const) {
    it(`a reset asked for in ${chosen} (menu) for a ${stored} account comes in ${chosen} (${width} px)`, async () => {
      const email = `mail-language-${chosen}@seaside.test`;
      await createUser(keycard.services.db, {
        tenantCode: 'seaside',
        email,
        type: 'staff',
        locale: stored,
        status: 'active',
        password: 'Mail-language-1',
      });
      const context = await newContext(browser);
      const page = await context.newPage();
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${keycard.origin('seaside')}/reset-password/`);
      // The English page; the person picks their language in the menu under it.
      await page.locator('.kc-language select').selectOption(chosen);
      await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(chosen);
      await page.locator('input[type="email"]').fill(email);
      await page.locator('form button[type="submit"]').click();
      await page.waitForURL(/\/reset-password\/sent/);
      await expectAccessible(page, `reset sent (${chosen}, ${width} px)`);
      await page.screenshot({ path: `/tmp/guest-flow-mail-${chosen}-${width}.png`, fullPage: true });

      const mail = await waitForMail(keycard, email, 'account.reset');
      expect(mail.content.subject).toMatch(subject);
      const link = new URL(linkIn(mail));
      expect(link.searchParams.get('langCode')).toBe(chosen);
      // The link opens the page in that language.
      await page.goto(link.href);
      await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(chosen);
      await context.close();
    });
  }
});
