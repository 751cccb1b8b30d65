import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../apps/server/src/features/accounts/user.repository.ts';
import { issueDeviceToken } from '../apps/server/src/features/factors/device.service.ts';
import { expectAccessible, launchBrowser, newContext, stubDemoAppHome } from './support/browser.ts';
import { type Keycard, startKeycard } from './support/keycard.ts';
import { loginWithPassword } from './support/login.ts';

const password = 'Trusted-device-1';

/**
 * Issue 19, item 13: SPEC §4's user-device-token goes to apps only; a sign-in that ends on
 * one of the portal's own pages never shows it in the address bar or its history.
 */
describe('the device token stays out of the portal’s address bar (Chromium)', () => {
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

  /** A browser this account trusts (its device cookie), on the sign-in page with `query`. */
  async function trustedBrowser(email: string, width: number) {
    const user = await createUser(keycard.services.db, {
      tenantCode: 'seaside',
      email,
      type: 'staff',
      locale: 'en',
      status: 'active',
      password,
    });
    const tenant = (await keycard.services.tenants.byCode('seaside'))!;
    const { token } = await issueDeviceToken(keycard.services.db, tenant, user.id, keycard.clock.now());
    const context = await newContext(browser);
    const origin = keycard.origin('seaside');
    await context.addCookies([{ name: 'AUTH_X_DEVICE_ID', value: token, url: origin }]);
    const page = await context.newPage();
    await page.setViewportSize({ width, height: 900 });
    await stubDemoAppHome(page);
    return { context, page, origin };
  }

  it('ends on the account page without user-device-token, in the bar or the history (375 px)', async () => {
    const { context, page, origin } = await trustedBrowser('trusted-own@seaside.test', 375);
    const seen: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) seen.push(frame.url());
    });
    await page.goto(`${origin}/login?${new URLSearchParams({ redirectUri: `${origin}/account` })}`);
    await loginWithPassword(page, 'trusted-own@seaside.test', password);
    await page.waitForURL(new RegExp(`^${origin}/account`));
    await expect.poll(() => page.getByRole('heading', { level: 1 }).isVisible()).toBe(true);
    expect(page.url()).not.toContain('user-device-token');
    expect(seen.filter((url) => url.includes('user-device-token'))).toEqual([]);
    await expectAccessible(page, 'account page after a trusted sign-in');
    await page.screenshot({ path: '/tmp/guest-flow-device-account-375.png', fullPage: true });
    await context.close();
  });

  it('still hands an app its user-device-token (SPEC §4), at 1280 px', async () => {
    const { context, page, origin } = await trustedBrowser('trusted-app@seaside.test', 1280);
    await page.goto(`${origin}/login`);
    await loginWithPassword(page, 'trusted-app@seaside.test', password);
    await page.waitForURL(/^http:\/\/localhost:3001\//);
    expect(new URL(page.url()).searchParams.get('user-device-token')).toMatch(/^[\w-]{20,}$/);
    await context.close();
  });
});
