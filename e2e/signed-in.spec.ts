import { loadTexts, type Texts } from '@keycard/texts';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launchBrowser, newContext } from './support/browser.ts';
import { type Keycard, startKeycard } from './support/keycard.ts';
import { createTestUser, expectHeading, signIn } from './support/mfa.ts';

/**
 * Issue 19, item 13: signed in means signed in. A sign-in no app asked for, on a tenant that
 * names no default app, ends on "You are signed in" (account, log out); /login with a live
 * session says who is signed in, from its first paint.
 */
describe('signed in means signed in (Chromium)', () => {
  let keycard: Keycard;
  let browser: Browser;

  beforeAll(async () => {
    keycard = await startKeycard({ env: { LOGIN_IP_LIMIT_PER_MINUTE: '1000' } });
    // A tenant with no default app: a direct sign-in has nowhere else to go.
    await keycard.services.db
      .updateTable('tenants')
      .set({ default_redirect_uri: '' })
      .where('code', '=', 'seaside')
      .execute();
    keycard.services.tenants.invalidate();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await keycard?.close();
  });

  for (const [locale, width] of [
    ['en', 1280],
    ['de', 375],
    ['th', 375],
    ['pt', 1280],
  ] as const) {
    it(`lands on the signed-in page, then /login names the session (${locale}, ${width} px)`, async () => {
      const texts: Texts = await loadTexts(locale);
      const email = await createTestUser(keycard, 'seaside', 'staff');
      const context = await newContext(browser, { locale });
      const page = await context.newPage();
      await page.setViewportSize({ width, height: 900 });
      const origin = keycard.origin('seaside');

      await page.goto(`${origin}/login?langCode=${locale}`);
      await signIn(page, email, texts);
      await page.waitForURL(/\/signed-in$/);
      await expectHeading(page, texts.account.landing.heading);
      await expect.poll(() => page.getByText(email, { exact: false }).first().isVisible()).toBe(true);
      await expectAccessible(page, `signed-in landing (${locale}, ${width} px)`);
      await page.screenshot({ path: `/tmp/signed-in-landing-${locale}-${width}.png`, fullPage: true });
      await page.getByRole('link', { name: texts.account.landing.manage }).click();
      await page.waitForURL(/\/account$/);
      await expectHeading(page, texts.account.page.heading);

      // The login page, loaded anew, says who is signed in before its script runs.
      const notice = texts.login.signedIn.notice.replace('{{email}}', email);
      const firstPaint = await page.evaluate(
        (url) => fetch(url, { credentials: 'same-origin' }).then((response) => response.text()),
        `/login?langCode=${locale}`,
      );
      expect(firstPaint).toContain(`<div class="kc-live-session">`);
      expect(firstPaint).toContain(email);
      await page.goto(`${origin}/login?langCode=${locale}`);
      await page.locator('[data-kc-first-paint]').waitFor({ state: 'detached' });
      await expect.poll(() => page.getByRole('status').filter({ hasText: email }).innerText()).toBe(notice);
      await expectAccessible(page, `login with a live session (${locale}, ${width} px)`);
      await page.screenshot({ path: `/tmp/signed-in-login-${locale}-${width}.png`, fullPage: true });
      // Continue: the usual hand-off, back on the landing.
      await page.getByRole('link', { name: texts.login.signedIn.continue, exact: true }).click();
      await page.waitForURL(/\/signed-in$/);
      await expectHeading(page, texts.account.landing.heading);

      // Log out from the notice: the login page no longer names anyone, nor after a reload.
      await page.goto(`${origin}/login?langCode=${locale}`);
      await page.getByRole('link', { name: texts.login.signedIn.logOut, exact: true }).click();
      await page.waitForURL(/loggedOut/);
      await expect.poll(() => page.getByText(texts.login.notices.loggedOut).isVisible()).toBe(true);
      expect(await page.getByText(notice).count()).toBe(0);
      await page.goto(`${origin}/login?langCode=${locale}`);
      await page.locator('[data-kc-first-paint]').waitFor({ state: 'detached' });
      expect(await page.locator('.kc-live-session').count()).toBe(0);
      await context.close();
    });
  }
});
