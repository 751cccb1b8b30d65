import { adminTenantSchema } from '@keycard/contract/admin';
import { loopbackFetch } from '@keycard/demo-app/loopback-fetch';
import { loadTexts } from '@keycard/texts';
import { en as consoleEn } from '@keycard/texts/console/en';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible, newContext } from './support/browser.ts';
import { fillText as fill, signInFirstTime, useConsoleStack } from './support/console.ts';
import type { Keycard } from './support/keycard.ts';
import { createTestUser, expectHeading, signIn } from './support/mfa.ts';

const owner = { email: 'owner@landing.example', password: 'Operator-owner-13' };

/**
 * Issue 19, item 13: a tenant made in the console without a default redirect URI (the field
 * is optional and says what empty means) sends a sign-in no app asked for to its own "You are
 * signed in" page; its details keep the field empty, and a value set there can be emptied again.
 */
describe('a new tenant without a default redirect (Chromium)', () => {
  let keycard: Keycard;
  let browser: Browser;
  let page: Page;
  let admin: string;

  useConsoleStack(owner, (stack) => ({ keycard, browser, page, admin } = stack));

  /** The console's own token, read from the API calls it makes (it lives in the page's memory only). */
  async function consoleToken(): Promise<string> {
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.url().includes('/admin/api/v1/') && Boolean(r.headers().authorization)),
      page.reload(),
    ]);
    return (request.headers().authorization ?? '').replace(/^Bearer /, '');
  }

  it('is created with the field left empty, and its sign-in lands on the signed-in page', async () => {
    await page.goto(`${admin}/console/`);
    await signInFirstTime(page, keycard, owner);
    await page.getByRole('link', { name: consoleEn.tenants.new }).click();
    const field = page.locator('#new-defaultRedirectUri');
    await field.waitFor();
    // Optional, and the hint says where people go without it.
    expect(await field.getAttribute('required')).toBeNull();
    const label = await page.locator('label[for="new-defaultRedirectUri"]').innerText();
    expect(label).toContain(consoleEn.common.optional);
    expect(await page.locator('#new-defaultRedirectUri-hint').innerText()).toBe(
      consoleEn.newTenant.defaultRedirectUriHint,
    );
    await page.locator('#new-code').fill('landing');
    await page.locator('#new-name').fill('Landing Lodges');
    await page.locator('#new-loginDomain').fill('landing.localhost');
    await expectAccessible(page, 'new tenant, default redirect left empty');
    await page.screenshot({ path: '/tmp/signed-in-new-tenant-form.png', fullPage: true });
    await page.getByRole('button', { name: consoleEn.newTenant.create }).click();
    await page
      .getByRole('heading', { name: fill(consoleEn.clients.secretHeading, { clientId: 'landing-app' }) })
      .waitFor();
    await page.getByRole('button', { name: consoleEn.clients.secretDone }).click();
    await page.waitForURL(`${admin}/console/tenants/landing/overview`);

    // The tenant's details: the field empty, optional, with its hint.
    const details = page.locator('#default-redirect');
    await details.waitFor();
    expect(await details.inputValue()).toBe('');
    expect(await details.getAttribute('required')).toBeNull();
    expect(await page.locator('#default-redirect-hint').innerText()).toBe(
      consoleEn.overview.defaultRedirectUriHint,
    );
    await expectAccessible(page, 'tenant details without a default redirect');
    await page.screenshot({ path: '/tmp/signed-in-new-tenant-details.png', fullPage: true });
    const stored = async () =>
      adminTenantSchema.parse(
        await (
          await loopbackFetch(`${admin}/admin/api/v1/tenants/landing`, {
            headers: { authorization: `Bearer ${await consoleToken()}` },
          })
        ).json(),
      );
    expect((await stored()).defaultRedirectUri).toBe('');

    // Set in the details, then emptied again: cleared, not refused.
    const save = page.getByRole('button', { name: consoleEn.overview.saveDetails });
    const saved = page.getByRole('status').filter({ hasText: consoleEn.common.saved });
    await details.fill('https://app.example.com/home');
    await save.click();
    await expect.poll(() => saved.count()).toBe(1);
    expect((await stored()).defaultRedirectUri).toBe('https://app.example.com/home');
    await page.locator('#default-redirect').fill('');
    await page.getByRole('button', { name: consoleEn.overview.saveDetails }).click();
    await expect.poll(() => saved.count()).toBe(1);
    const cleared = await stored();
    expect(cleared.defaultRedirectUri).toBe('');
    // The login client is registered for the tenant's own signed-in page.
    expect(cleared.clients[0]?.redirectUris).toEqual([`http://landing.localhost:${keycard.port}/signed-in`]);

    // A person of the new tenant signs in with no app asking: the signed-in page, no token in
    // the address bar, in two languages and widths.
    for (const [locale, width] of [
      ['en', 1280],
      ['fr', 375],
    ] as const) {
      const texts = await loadTexts(locale);
      const email = await createTestUser(keycard, 'landing', 'staff');
      const context = await newContext(browser, { locale });
      const guest = await context.newPage();
      await guest.setViewportSize({ width, height: 900 });
      await guest.goto(`http://landing.localhost:${keycard.port}/login?langCode=${locale}`);
      await signIn(guest, email, texts);
      await guest.waitForURL(`http://landing.localhost:${keycard.port}/signed-in`);
      await expectHeading(guest, texts.account.landing.heading);
      await expect.poll(() => guest.getByText(email, { exact: false }).first().isVisible()).toBe(true);
      expect(guest.url()).not.toContain('user-device-token');
      await expectAccessible(guest, `new tenant's signed-in page (${locale}, ${width} px)`);
      await guest.screenshot({ path: `/tmp/signed-in-new-tenant-${locale}-${width}.png`, fullPage: true });
      await context.close();
    }
  });
});
