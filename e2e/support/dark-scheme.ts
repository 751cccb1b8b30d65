import path from 'node:path';
import { darkSchemeProblems } from '@keycard/contract/contrast';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { expectAccessible } from './browser.ts';
import type { Keycard } from './keycard.ts';

/**
 * The tenant's dark scheme in browser tests (dark-scheme-screens.spec.ts,
 * dark-scheme-phone-screens.spec.ts): switching it on in the database and what a dark screen
 * must show. The browser asks for dark with `page.emulateMedia({ colorScheme: 'dark' })`.
 */

/** Gives a tenant the dark scheme in the database, as `keycard apply` would store it. */
export async function enableDarkScheme(keycard: Keycard, tenant: string): Promise<void> {
  const row = await keycard.services.db
    .selectFrom('tenants')
    .select('theme')
    .where('code', '=', tenant)
    .executeTakeFirstOrThrow();
  const theme = JSON.parse(row.theme);
  // The palette must be one the configuration would accept with the dark scheme.
  expect(darkSchemeProblems(theme.colours), tenant).toEqual([]);
  await keycard.services.db
    .updateTable('tenants')
    .set((eb) => ({ theme: JSON.stringify({ ...theme, darkScheme: true }), version: eb('version', '+', 1) }))
    .where('code', '=', tenant)
    .execute();
  await keycard.services.tenants.refresh();
}

export interface Panel {
  element: string;
  background: string;
  luminance: number;
}

/**
 * Every visible element in the page's main content and open dialogs that paints a background
 * of its own, with that colour's relative luminance. Buttons keep the brand's colour (their
 * contrast is axe's subject) and the QR code keeps its white quiet zone, so both are left out.
 */
export function panelsOf(page: Page): Promise<{ page: Panel; panels: Panel[]; qr: Panel[] }> {
  return page.evaluate(() => {
    const luminance = (colour: string) => {
      const [r, g, b] = (colour.match(/[\d.]+/g) ?? []).slice(0, 3).map((part) => {
        const c = Number(part) / 255;
        return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
    };
    const describe = (element: Element): Panel => {
      const background = getComputedStyle(element).backgroundColor;
      const classes = [...element.classList].join('.');
      return {
        element: `${element.tagName.toLowerCase()}${classes ? `.${classes}` : ''}`,
        background,
        luminance: Math.round(luminance(background) * 1000) / 1000,
      };
    };
    const painted = (element: Element) => {
      const style = getComputedStyle(element);
      const alpha = style.backgroundColor.match(/rgba\(.*,\s*([\d.]+)\)/)?.[1];
      const box = element.getBoundingClientRect();
      return (
        style.visibility !== 'hidden' &&
        box.width > 0 &&
        box.height > 0 &&
        style.backgroundColor !== 'transparent' &&
        (alpha === undefined || Number(alpha) > 0.1)
      );
    };
    const roots = [...document.querySelectorAll('main, dialog[open], [role="dialog"], [role="alertdialog"]')];
    const elements = new Set(roots.flatMap((root) => [root, ...root.querySelectorAll('*')]));
    const all = [...elements].filter(painted);
    const isQr = (element: Element) => element.matches('.kc-mfa-qr');
    const isButton = (element: Element) =>
      element.matches('button:not(.kc-mfa-option), [role="button"], a.kc-button, input[type="checkbox"]');
    return {
      page: describe(document.body),
      panels: all.filter((element) => !isQr(element) && !isButton(element)).map(describe),
      qr: all.filter(isQr).map(describe),
    };
  });
}

/**
 * What every dark screen must show, at both widths: axe clean, no light panel, a screenshot
 * (kept in `shots` for a person to look at).
 */
export async function expectDark(page: Page, name: string, shots: string): Promise<void> {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    expect(await page.evaluate(() => document.documentElement.hasAttribute('data-kc-dark')), name).toBe(true);
    const { page: body, panels, qr } = await panelsOf(page);
    expect(body.luminance, `${name}: the page behind the card`).toBeLessThan(0.05);
    // The dark card is at luminance 0.018, the page 0.008; the tenant's accents (the identity
    // strip, badges) keep their colour. Anything lighter than mid grey is a panel left light.
    expect(
      panels.filter((panel) => panel.luminance >= 0.18),
      `${name} at ${width} px: panels left light`,
    ).toEqual([]);
    // The QR code stays dark on light, so every phone can still scan it.
    expect(qr).toHaveLength(await page.locator('.kc-mfa-qr').count());
    for (const code of qr) expect(code.luminance, `${name}: QR quiet zone`).toBeGreaterThan(0.9);
    await expectAccessible(page, `${name} (dark, ${width} px)`);
    await page.screenshot({
      path: path.join(shots, `dark-${name.replace(/\W+/g, '-').replace(/-$/, '')}-${width}.png`),
      fullPage: true,
    });
  }
}
