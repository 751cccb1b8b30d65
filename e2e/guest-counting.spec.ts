import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../apps/server/src/features/accounts/user.repository.ts';
import { expectAccessible, launchBrowser, newContext, stubDemoAppHome } from './support/browser.ts';
import { type Keycard, startKeycard } from './support/keycard.ts';
import { setTenantSettings } from './support/outbox.ts';

const password = 'Counting-days-1';
const MINUTE = 60_000;

/** Issue 19, item 16: a 7-day expiry set two minutes ago "expires in 7 days", in each language. */
describe('counting the days to a password expiry (Chromium)', () => {
  let keycard: Keycard;
  let browser: Browser;

  beforeAll(async () => {
    keycard = await startKeycard();
    await setTenantSettings(keycard, 'seaside', { passwordExpiryDays: 7, passwordWarningDays: 7 });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await keycard?.close();
  });

  /** Signs in by the fields' autocomplete roles, so it reads the same in every language. */
  async function signIn(page: Page, email: string): Promise<void> {
    await page.locator('input[autocomplete^="username"]').fill(email);
    await page.locator('button[type="submit"]').click();
    await page.locator('input[autocomplete="current-password"]').fill(password);
    await page.locator('button[type="submit"]').click();
  }

  for (const [locale, text, width] of [
    ['en', 'Your password expires in 7 days.', 375],
    ['de', 'Ihr Passwort läuft in 7 Tagen ab.', 1280],
    ['th', 'รหัสผ่านของคุณจะหมดอายุในอีก 7 วัน', 375],
    ['fr', 'Votre mot de passe expire dans 7 jours.', 1280],
  ] as const) {
    it(`says "in 7 days" for a 7-day password set two minutes ago (${locale}, ${width} px)`, async () => {
      const email = `counting-${locale}@seaside.test`;
      await createUser(
        keycard.services.db,
        { tenantCode: 'seaside', email, type: 'staff', locale, status: 'active', password },
        keycard.clock.now() - 2 * MINUTE,
      );
      const context = await newContext(browser, { locale });
      const page = await context.newPage();
      await page.setViewportSize({ width, height: 900 });
      await stubDemoAppHome(page);
      await page.goto(`${keycard.origin('seaside')}/login?langCode=${locale}`);
      await signIn(page, email);
      await page.waitForURL(/\/error\/password-will-expire\/\?/);
      expect(new URL(page.url()).searchParams.get('passwordExpiryInDays')).toBe('7');
      await expect.poll(() => page.getByText(text, { exact: true }).isVisible()).toBe(true);
      await expectAccessible(page, `expires in 7 days (${locale}, ${width} px)`);
      await page.screenshot({ path: `/tmp/guest-flow-expiry-${locale}-${width}.png`, fullPage: true });
      await context.close();
    });
  }
});
