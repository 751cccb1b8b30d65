import { overridableTextKeys, type Theme, type ThemeTexts } from '@keycard/contract';
import { de } from '@keycard/texts/de';
import { en } from '@keycard/texts/en';
import { th } from '@keycard/texts/th';
import type { Page, Route } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './support/browser.ts';
import { useSignInStack } from './support/stack.ts';

/** Seaside says hello in German its own way; every other language keeps the catalogue. */
const germanHeading = 'Willkommen bei Seaside Resorts';

/** Markup in every key a theme can override: it must be shown as text and never run. */
const attack = (key: string) => `<img src=x onerror="window.__kcHacked='${key}'"><b>${key}</b>`;

describe('theme text overrides (Chromium)', () => {
  const stack = useSignInStack({ env: { LOGIN_IP_LIMIT_PER_MINUTE: '1000' } });

  /** Sets a demo tenant's overrides as the admin API or `keycard apply` would store them. */
  async function setTexts(code: string, texts: ThemeTexts): Promise<void> {
    const { db, tenants } = stack.keycard.services;
    const row = await db
      .selectFrom('tenants')
      .select('theme')
      .where('code', '=', code)
      .executeTakeFirstOrThrow();
    const theme: Theme = { ...JSON.parse(row.theme), texts };
    await db
      .updateTable('tenants')
      .set((eb) => ({ theme: JSON.stringify(theme), version: eb('version', '+', 1) }))
      .where('code', '=', code)
      .execute();
    tenants.invalidate(code);
  }

  beforeAll(async () => {
    await setTexts('seaside', { de: { 'login.email.heading': germanHeading } });
    await setTexts('summit', {
      en: Object.fromEntries(overridableTextKeys.map((key) => [key, attack(key)])),
    });
  });

  /** Every text the page's main heading has had since this was called, in order. */
  async function recordHeadings(page: Page): Promise<() => Promise<string[]>> {
    await page.evaluate(() => {
      const seen: string[] = [];
      const note = () => {
        const text = document.querySelector('h1')?.textContent ?? '';
        if (text && seen.at(-1) !== text) seen.push(text);
      };
      note();
      new MutationObserver(note).observe(document.body, {
        subtree: true,
        childList: true,
        characterData: true,
      });
      (window as unknown as { __kcHeadings: string[] }).__kcHeadings = seen;
    });
    return () => page.evaluate(() => [...(window as unknown as { __kcHeadings: string[] }).__kcHeadings]);
  }

  it('shows the German override in German, from the first paint on, with no flash of the catalogue text', async () => {
    const context = await stack.browser.newContext({ locale: 'de-DE' });
    const page = await context.newPage();
    // Hold the entry script back, so the server's first paint is what shows.
    const held: Route[] = [];
    await page.route(/\/assets\/index-[^/]+\.js$/, (route) => {
      held.push(route);
    });
    await page.goto(`${stack.keycard.origin('seaside')}/login`, { waitUntil: 'commit' });
    const heading = page.getByRole('heading', { level: 1 });
    await heading.waitFor();
    expect(await page.locator('[data-kc-first-paint]').count()).toBe(1);
    expect(await heading.textContent()).toBe(germanHeading);
    // Only the heading is overridden: the intro is the catalogue's.
    expect(await page.getByText(de.login.email.intro).count()).toBe(1);
    await expectAccessible(page, 'German first paint with an override');
    const headings = await recordHeadings(page);

    await expect.poll(() => held.length).toBe(1);
    await held[0]?.continue();
    await expect.poll(() => page.locator('[data-kc-first-paint]').count()).toBe(0);
    await expect.poll(() => heading.textContent()).toBe(germanHeading);
    expect(await headings()).toEqual([germanHeading]);
    expect(await page.title()).toBe(`${de.titles.login} | Seaside Resorts`);
    await expectAccessible(page, 'German e-mail step with an override');

    // The language menu switches the overrides with the catalogue: English and Thai have none.
    const menu = page.getByLabel(de.common.language, { exact: true });
    await menu.selectOption('en');
    await expect.poll(() => heading.textContent()).toBe(en.login.email.heading);
    await page.getByLabel(en.common.language, { exact: true }).selectOption('th');
    await expect.poll(() => heading.textContent()).toBe(th.login.email.heading);
    expect(await page.getByText(th.login.email.intro).count()).toBe(1);
    await expectAccessible(page, 'Thai e-mail step of a tenant with a German override');
    await page.getByLabel(th.common.language, { exact: true }).selectOption('de');
    await expect.poll(() => heading.textContent()).toBe(germanHeading);
    expect(await headings()).toEqual([
      germanHeading,
      en.login.email.heading,
      th.login.email.heading,
      germanHeading,
    ]);
    await context.close();
  });

  it('shows the catalogue text in English and in Thai, on the first paint and after', async () => {
    for (const [locale, texts] of [
      ['en-GB', en],
      ['th-TH', th],
    ] as const) {
      const context = await stack.browser.newContext({ locale });
      const page = await context.newPage();
      await page.goto(`${stack.keycard.origin('seaside')}/login`, { waitUntil: 'commit' });
      const heading = page.getByRole('heading', { level: 1 });
      await heading.waitFor();
      const headings = await recordHeadings(page);
      await expect.poll(() => page.locator('[data-kc-first-paint]').count()).toBe(0);
      expect(await heading.textContent()).toBe(texts.login.email.heading);
      expect(await headings()).toEqual([texts.login.email.heading]);
      expect(await page.content()).not.toContain(`>${germanHeading}<`);
      await expectAccessible(page, `${locale} e-mail step of a tenant with a German override`);
      await context.close();
    }
  });

  it('shows markup in every override as text, and never runs it', async () => {
    const context = await stack.browser.newContext({ locale: 'en-GB' });
    const page = await context.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const hacked = () =>
      page.evaluate(() => (window as unknown as { __kcHacked?: string }).__kcHacked ?? null);
    const injected = () => page.locator('.kc-card img[src="x"], .kc-card b').count();
    const heading = page.getByRole('heading', { level: 1 });

    // The first paint, then the script's e-mail step.
    await page.goto(`${stack.keycard.origin('summit')}/login`, { waitUntil: 'commit' });
    await heading.waitFor();
    expect(await heading.textContent()).toBe(attack('login.email.heading'));
    await expect.poll(() => page.locator('[data-kc-first-paint]').count()).toBe(0);
    expect(await heading.textContent()).toBe(attack('login.email.heading'));
    expect(await page.getByText(attack('login.email.intro'), { exact: true }).count()).toBe(1);
    expect(await injected()).toBe(0);

    // The password step.
    await page.getByLabel(en.login.email.label, { exact: true }).fill('demo@summit.test');
    await page.getByRole('button', { name: en.login.email.submit }).click();
    await expect.poll(() => heading.textContent()).toBe(attack('login.password.heading'));
    expect(await injected()).toBe(0);

    // The reset request.
    await page.getByRole('link', { name: en.login.password.forgot }).click();
    await expect
      .poll(() => page.getByText(attack('lifecycle.resetRequest.intro'), { exact: true }).count())
      .toBe(1);
    expect(await heading.textContent()).toBe(en.lifecycle.resetRequest.heading);
    expect(await injected()).toBe(0);
    await expectAccessible(page, 'reset request with markup in its override');

    expect(await hacked()).toBeNull();
    expect(dialogs).toEqual([]);
    await context.close();
  });
});
