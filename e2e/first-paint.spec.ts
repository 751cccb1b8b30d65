import type { Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible } from './support/browser.ts';
import { useSignInStack } from './support/stack.ts';

const tenants = [
  { code: 'grand-hotel', name: 'Grand Hotel Group', primary: 'rgb(31, 58, 95)', page: 'rgb(245, 239, 230)' },
  { code: 'seaside', name: 'Seaside Resorts', primary: 'rgb(0, 109, 119)', page: 'rgb(230, 244, 241)' },
] as const;

describe('branded first paint (Chromium)', () => {
  const stack = useSignInStack({ env: { LOGIN_IP_LIMIT_PER_MINUTE: '1000' } });

  for (const tenant of tenants) {
    it(`shows ${tenant.code}'s branded, working e-mail form with scripts off`, async () => {
      const context = await stack.browser.newContext({ javaScriptEnabled: false, locale: 'de-DE' });
      const page = await context.newPage();
      await page.goto(`${stack.keycard.origin(tenant.code)}/login?redirectUri=x`);
      expect(await page.title()).toBe(`Anmelden | ${tenant.name}`);
      expect(await page.locator('html').getAttribute('lang')).toBe('de');
      expect(await page.locator('header').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(
        tenant.primary,
      );
      expect(await page.locator('body').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(
        tenant.page,
      );
      expect(await page.getByRole('img', { name: `Logo von ${tenant.name}` }).getAttribute('src')).toBe(
        `/brand/${tenant.code}-logo.svg`,
      );
      expect(await page.locator('link[rel="icon"]').getAttribute('href')).toBe(
        `/brand/${tenant.code}-favicon.svg`,
      );
      // The form works without the script: on to the password step with the address.
      await page.getByLabel('E-Mail-Adresse', { exact: true }).fill('demo@seaside.test');
      await page.getByRole('button', { name: 'Weiter' }).click();
      await page.waitForURL(/\/login\/password\?/);
      const query = new URL(page.url()).searchParams;
      expect(query.get('email')).toBe('demo@seaside.test');
      expect(query.get('redirectUri')).toBe('x');
      await context.close();
    });
  }

  it('lets the script take over the form without losing what was typed, or its focus', async () => {
    const context = await stack.browser.newContext({ locale: 'en-GB' });
    const page = await context.newPage();
    // Hold the entry script back, as a slow network would.
    const held: Route[] = [];
    await page.route(/\/assets\/index-[^/]+\.js$/, (route) => {
      held.push(route);
    });
    // A deferred (module) script holds DOMContentLoaded back: wait for the response only.
    await page.goto(`${stack.keycard.origin('grand-hotel')}/login`, { waitUntil: 'commit' });
    const email = page.getByLabel('E-mail', { exact: true });
    await email.waitFor();
    await email.fill('demo@grand-hotel.test');
    expect(await page.locator('[data-kc-first-paint]').count()).toBe(1);
    await expectAccessible(page, 'first paint of the e-mail step');
    await expect.poll(() => held.length).toBe(1);
    await held[0]?.continue();
    // The script's form replaces the server's, with the address and the focus kept.
    await expect.poll(() => page.locator('[data-kc-first-paint]').count()).toBe(0);
    expect(await email.inputValue()).toBe('demo@grand-hotel.test');
    expect(await email.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => page.title()).toBe('Enter your password | Grand Hotel Group');
    await context.close();
  });

  it('hands the focus of an empty field on in the takeover itself, so no key pressed then is lost', async () => {
    const context = await stack.browser.newContext({ locale: 'de-DE' });
    const page = await context.newPage();
    const held: Route[] = [];
    await page.route(/\/assets\/index-[^/]+\.js$/, (route) => {
      held.push(route);
    });
    await page.goto(`${stack.keycard.origin('seaside')}/login`, { waitUntil: 'commit' });
    const email = page.getByLabel('E-Mail-Adresse', { exact: true });
    await email.click();
    // Where the focus is right after the script replaced the form: observed in the same task
    // (a mutation observer's callback runs before the browser handles the next key press).
    await page.evaluate(() => {
      const root = document.getElementById('root');
      if (!root) throw new Error('no root');
      const observer = new MutationObserver(() => {
        if (document.querySelector('[data-kc-first-paint]')) return;
        const active = document.activeElement;
        root.dataset.focusAtTakeover = `${active?.tagName}:${active?.getAttribute('name')}`;
        observer.disconnect();
      });
      observer.observe(root, { childList: true, subtree: true });
    });
    await expect.poll(() => held.length).toBe(1);
    await held[0]?.continue();
    await expect.poll(() => page.locator('#root').getAttribute('data-focus-at-takeover')).toBe('INPUT:email');
    await page.keyboard.type('demo@seaside.test');
    expect(await email.inputValue()).toBe('demo@seaside.test');
    await context.close();
  });

  it('keeps a Next pressed on the server-rendered form while the script takes over', async () => {
    const context = await stack.browser.newContext({ locale: 'en-GB' });
    const page = await context.newPage();
    const held: Route[] = [];
    await page.route(/\/assets\/index-[^/]+\.js$/, (route) => {
      // Only the first page's script is held back; the next page's comes at once.
      if (held.length > 0) return void route.continue();
      held.push(route);
    });
    await page.goto(`${stack.keycard.origin('grand-hotel')}/login`, { waitUntil: 'commit' });
    await page.getByLabel('E-mail', { exact: true }).fill('demo@grand-hotel.test');
    const next = page.locator('[data-kc-first-paint] button[type="submit"]');
    const box = await next.boundingBox();
    if (!box) throw new Error('the first paint has no Next button');
    // The press begins on the server's button; the script arrives while it is held.
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await expect.poll(() => held.length).toBe(1);
    await held[0]?.continue();
    // Time for the script to start (it would replace the form under the pressed button).
    await page.waitForTimeout(1500);
    await page.mouse.up();
    await expect.poll(() => page.getByLabel('Password', { exact: true }).isVisible()).toBe(true);
    expect(await page.title()).toBe('Enter your password | Grand Hotel Group');
    await context.close();
  });

  it('draws Thai with the shipped font, and fetches it only for Thai pages', async () => {
    const fonts: string[] = [];
    for (const locale of ['th-TH', 'en-GB']) {
      const context = await stack.browser.newContext({ locale });
      const page = await context.newPage();
      page.on('response', (response) => {
        if (response.url().endsWith('.woff2')) fonts.push(`${locale} ${response.status()}`);
      });
      await page.goto(`${stack.keycard.origin('summit')}/login`);
      await expect.poll(() => page.locator('html').getAttribute('lang')).toBe(locale.slice(0, 2));
      await page.evaluate(() => document.fonts.ready.then(() => undefined));
      if (locale === 'th-TH') {
        // Which fonts Chromium really drew each element's text with (DevTools protocol).
        const cdp = await context.newCDPSession(page);
        await cdp.send('DOM.enable');
        await cdp.send('CSS.enable');
        const { root } = await cdp.send('DOM.getDocument', { depth: -1 });
        for (const selector of ['.kc-card h1', '.kc-card p', '.kc-card label', '.kc-card button']) {
          const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
          const { fonts: used } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
          expect(
            used.map((font) => `${font.familyName}${font.isCustomFont ? ' (shipped)' : ''}`),
            selector,
          ).toEqual(['Noto Sans Thai (shipped)']);
        }
      }
      await context.close();
    }
    expect(fonts.length).toBeGreaterThan(0);
    expect(fonts.every((font) => font === 'th-TH 200')).toBe(true);
  });
});
