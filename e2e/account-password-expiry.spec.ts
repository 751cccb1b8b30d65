import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../apps/server/src/features/accounts/user.repository.ts';
import { expectAccessible, launchBrowser, newContext, stubDemoAppHome } from './support/browser.ts';
import { type Keycard, startKeycard } from './support/keycard.ts';
import { loginWithPassword } from './support/login.ts';
import { setTenantSettings } from './support/outbox.ts';

const DAY = 24 * 60 * 60 * 1000;
const password = 'Ageing-password-1';

describe('password expiry (Chromium)', () => {
  let keycard: Keycard;
  let browser: Browser;

  beforeAll(async () => {
    keycard = await startKeycard();
    // Seaside: passwords live 90 days; the warning starts 14 days before.
    await setTenantSettings(keycard, 'seaside', { passwordExpiryDays: 90, passwordWarningDays: 14 });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await keycard?.close();
  });

  async function freshPage(): Promise<Page> {
    const page = await (await newContext(browser)).newPage();
    await stubDemoAppHome(page);
    return page;
  }

  /** A user whose password was set so that it expires in `daysLeft` days (negative: expired). */
  async function userExpiringIn(email: string, daysLeft: number) {
    const changedAt = keycard.clock.now() - (90 - daysLeft) * DAY + (daysLeft >= 0 ? 2 * 3_600_000 : 0);
    await createUser(
      keycard.services.db,
      { tenantCode: 'seaside', email, type: 'staff', locale: 'en', status: 'active', password },
      changedAt,
    );
  }

  async function signIn(email: string, query = ''): Promise<Page> {
    const page = await freshPage();
    await page.goto(`${keycard.origin('seaside')}/login${query}`);
    await loginWithPassword(page, email, password);
    return page;
  }

  for (const [days, text] of [
    [0, 'Your password expires today.'],
    [1, 'Your password expires tomorrow.'],
    [10, 'Your password expires in 10 days.'],
  ] as const) {
    it(`warns that the password expires ${days === 0 ? 'today' : days === 1 ? 'tomorrow' : `in ${days} days`}, and 'reset later' continues the sign-in`, async () => {
      const email = `expires-in-${days}@seaside.test`;
      await userExpiringIn(email, days);
      const page = await signIn(email);
      await page.waitForURL(/\/error\/password-will-expire\/\?/);
      const url = new URL(page.url());
      expect(url.searchParams.get('passwordExpiryInDays')).toBe(String(days));
      expect(url.searchParams.get('redirectUri')).toBe('http://localhost:3001/');
      await expect.poll(() => page.title()).toBe('Password expires soon | Seaside Resorts');
      await expect.poll(() => page.getByText(text).isVisible()).toBe(true);
      await expectAccessible(page, `password expires in ${days}`);

      await page.getByRole('button', { name: 'Reset later' }).click();
      await page.waitForURL('http://localhost:3001/');
      await page.context().close();
    });
  }

  it("'reset later' continues to the redirect the page was given, and never to an unregistered one", async () => {
    const email = 'given.redirect@seaside.test';
    await userExpiringIn(email, 6);
    const page = await signIn(email);
    await page.waitForURL(/\/error\/password-will-expire\/\?/);
    const warning = (redirectUri: string) =>
      `${keycard.origin('seaside')}/error/password-will-expire/?${new URLSearchParams({ passwordExpiryInDays: '6', redirectUri })}`;

    // An address registered for the tenant (the demo app's callback), not the default home.
    await page.goto(warning('http://localhost:3001/callback'));
    await expect.poll(() => page.getByText('Your password expires in 6 days.').isVisible()).toBe(true);
    await expectAccessible(page, 'password expires, with a redirect');
    await page.getByRole('button', { name: 'Reset later' }).click();
    await page.waitForURL(/^http:\/\/localhost:3001\/callback(\?.*)?$/);
    await page.context().close();

    // Another browser, an address the tenant never registered: the page does not follow it.
    const other = await signIn(email);
    await other.waitForURL(/\/error\/password-will-expire\/\?/);
    const elsewhere: string[] = [];
    await other.route('https://evil.example/**', (route) => {
      elsewhere.push(route.request().url());
      return route.fulfill({ body: 'evil' });
    });
    await other.goto(warning('https://evil.example/phish'));
    await other.getByRole('button', { name: 'Reset later' }).click();
    await other.waitForURL(`${keycard.origin('seaside')}/error/`);
    expect(elsewhere).toEqual([]);
    await other.context().close();
  });

  it('says it in Thai too, where there are no plural forms', async () => {
    const email = 'thai.reader@seaside.test';
    await userExpiringIn(email, 3);
    const page = await freshPage();
    await page.goto(`${keycard.origin('seaside')}/login?langCode=th`);
    await page.getByLabel('อีเมล', { exact: true }).fill(email);
    await page.getByRole('button', { name: 'ถัดไป' }).click();
    await page.getByLabel('รหัสผ่าน', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'เข้าสู่ระบบ' }).click();
    await page.waitForURL(/\/error\/password-will-expire\//);
    await expect.poll(() => page.getByText('รหัสผ่านของคุณจะหมดอายุในอีก 3 วัน').isVisible()).toBe(true);
    await expectAccessible(page, 'Thai password warning');
    await page.context().close();
  });

  // Changing the password right on the expiry pages (no mail) is in account-page-expiry.spec.ts.
  it("an expired password: the expired page, in the tenant's words, and no app until it is changed", async () => {
    const email = 'long.expired@seaside.test';
    await userExpiringIn(email, -1);
    const page = await signIn(email);
    await page.waitForURL(`${keycard.origin('seaside')}/error/password-expired/`);
    await expect.poll(() => page.title()).toBe('Password expired | Seaside Resorts');
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).innerText())
      .toBe('Your password has expired');
    expect(await page.getByRole('link', { name: 'Contact support' }).getAttribute('href')).toBe(
      'https://help.seaside.example/support',
    );
    await expectAccessible(page, 'password expired');
    // The session cannot reach any app while the password is expired.
    const authorize = await page.evaluate(() =>
      fetch('/api/authorize', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      }).then((r) => r.status),
    );
    expect(authorize).toBe(403);
    await page.context().close();
  });

  it('sends a will-expire address without a day count to the unknown error page', async () => {
    const page = await freshPage();
    await page.goto(`${keycard.origin('seaside')}/error/password-will-expire/?passwordExpiryInDays=soon`);
    await page.waitForURL(`${keycard.origin('seaside')}/error/`);
    await page.context().close();
  });
});
