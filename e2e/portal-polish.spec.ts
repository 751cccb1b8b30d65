import { en } from '@keycard/texts';
import type { Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible, newContext } from './support/browser.ts';
import { createTestUser, signIn } from './support/mfa.ts';
import { useSignInStack } from './support/stack.ts';

describe('portal polish (Chromium)', () => {
  const stack = useSignInStack({ env: { LOGIN_IP_LIMIT_PER_MINUTE: '1000' } });

  it('starts each step in its first field, with the logo in the card and links in the brand colour', async () => {
    const page = await (await newContext(stack.browser)).newPage();
    await page.goto(`${stack.keycard.origin('grand-hotel')}/login`);
    const email = page.getByLabel('E-mail', { exact: true });
    await expect.poll(() => email.evaluate((el) => el === document.activeElement)).toBe(true);
    // The logo is inside the card, in its brand band on the primary colour.
    const logo = page.getByRole('img', { name: 'Grand Hotel Group logo' });
    expect(await logo.evaluate((el) => el.closest('.kc-card') !== null)).toBe(true);
    expect(await page.locator('.kc-card-brand').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(
      'rgb(31, 58, 95)',
    );

    await email.fill('demo@grand-hotel.test');
    await page.keyboard.press('Enter');
    const password = page.getByLabel('Password', { exact: true });
    await expect.poll(() => password.evaluate((el) => el === document.activeElement)).toBe(true);
    // Links take the tenant's primary colour (it reads on the card).
    const forgot = page.getByRole('link', { name: en.login.password.forgot });
    expect(await forgot.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(31, 58, 95)');
    await page.context().close();
  });

  it('shows the password with an eye inside the field: one name, its state pressed or not', async () => {
    const page = await (await newContext(stack.browser)).newPage();
    await page.setViewportSize({ width: 320, height: 640 });
    await page.goto(`${stack.keycard.origin('grand-hotel')}/login?langCode=de`);
    await page.getByLabel('E-Mail-Adresse', { exact: true }).fill('demo@grand-hotel.test');
    await page.keyboard.press('Enter');
    const password = page.getByLabel('Passwort', { exact: true });
    await password.fill('Secret-123');
    const toggle = page.getByRole('button', { name: 'Passwort anzeigen' });
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    // The field keeps its width at 320 px in German: the toggle sits inside it.
    const field = await password.boundingBox();
    expect(field?.width).toBeGreaterThan(200);
    const button = await toggle.boundingBox();
    expect(button && field && button.x >= field.x && button.x + button.width <= field.x + field.width).toBe(
      true,
    );
    await toggle.click();
    expect(await password.getAttribute('type')).toBe('text');
    expect(await page.getByRole('button', { name: 'Passwort anzeigen' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    await toggle.click();
    expect(await password.getAttribute('type')).toBe('password');
    await expectAccessible(page, 'password step with the eye toggle, 320 px, German');
    await page.context().close();
  });

  it('keeps a pending button labelled, busy and spinning until the answer comes', async () => {
    const page = await (await newContext(stack.browser)).newPage();
    await page.goto(`${stack.keycard.origin('grand-hotel')}/login`);
    await page.getByLabel('E-mail', { exact: true }).fill('demo@grand-hotel.test');
    await page.keyboard.press('Enter');
    const held: Route[] = [];
    await page.route('**/api/login', (route) => {
      held.push(route);
    });
    await page.getByLabel('Password', { exact: true }).fill('Wrong-password-1');
    const submit = page.getByRole('button', { name: en.login.password.submit });
    await submit.click();
    await expect.poll(() => held.length).toBe(1);
    expect(await submit.getAttribute('aria-busy')).toBe('true');
    expect(await submit.locator('.kc-spinner').count()).toBe(1);
    expect(await submit.innerText()).toBe(en.login.password.submit);
    await held[0]?.continue();
    await expect.poll(() => submit.getAttribute('aria-busy')).toBe('false');
    expect(await submit.locator('.kc-spinner').count()).toBe(0);
    await page.context().close();
  });

  it('changes the language from the menu, and keeps it for the next pages of this browser', async () => {
    const context = await newContext(stack.browser);
    const page = await context.newPage();
    await page.goto(`${stack.keycard.origin('seaside')}/login`);
    const menu = page.getByLabel('Language', { exact: true });
    expect(await menu.inputValue()).toBe('en');
    await menu.selectOption('fr');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Connexion');
    expect(await page.locator('html').getAttribute('lang')).toBe('fr');
    await expectAccessible(page, 'login in French after the menu');
    // Another page, loaded afresh: the server renders it in French.
    await page.goto(`${stack.keycard.origin('seaside')}/reset-password/`);
    expect(await page.locator('html').getAttribute('lang')).toBe('fr');
    expect(await page.getByLabel('Langue', { exact: true }).inputValue()).toBe('fr');
    await context.close();
  });

  it('shows the whole setup key, and an "open in authenticator app" link on a phone', async () => {
    const email = await createTestUser(stack.keycard, 'summit');
    const context = await stack.browser.newContext({
      locale: 'en-GB',
      viewport: { width: 320, height: 700 },
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    await page.goto(`${stack.keycard.origin('summit')}/login`);
    await signIn(page, email);
    await page.waitForURL(/\/mfa$/);
    await page.getByRole('button', { name: new RegExp(`^${en.mfa.choose.app}`) }).click();
    await page.getByRole('button', { name: en.mfa.common.next, exact: true }).click();
    const key = page.getByLabel(en.mfa.totp.scan.keyLabel, { exact: true });
    const value = await key.inputValue();
    expect(value.replace(/\s/g, '')).toMatch(/^[A-Z2-7]{16,}$/);
    // Nothing of it is hidden: the text fits its box (no scrolling inside it).
    expect(
      await key.evaluate((el) => el.scrollHeight <= el.clientHeight + 1 && el.scrollWidth <= el.clientWidth),
    ).toBe(true);
    const open = page.getByRole('link', { name: en.mfa.totp.scan.openApp });
    expect(await open.isVisible()).toBe(true);
    expect(await open.getAttribute('href')).toMatch(/^otpauth:\/\/totp\//);
    await expectAccessible(page, 'authenticator setup on a phone');
    await context.close();
  });
});
