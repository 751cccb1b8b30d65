import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Browser, type BrowserContext, chromium, type Frame, type Page } from 'playwright-core';
import { expect } from 'vitest';

/** Debian's Chromium, with the flags this sandboxed, offline machine needs. */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export async function newContext(
  browser: Browser,
  options: { locale?: string } = {},
): Promise<BrowserContext> {
  return browser.newContext({ locale: options.locale ?? 'en-GB' });
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Runs axe-core (WCAG 2.2 A/AA rules) in the page, or in one frame of it, and fails with a
 * readable list of violations.
 */
export async function expectAccessible(page: Page | Frame, label: string): Promise<void> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (ctx: Document, opts: unknown) => Promise<{ violations: unknown[] }> };
      }
    ).axe;
    const result = await axe.run(document, {
      runOnly: {
        type: 'tag',
        values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'],
      },
    });
    return (
      result.violations as Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }>
    ).map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
  expect(violations, `axe violations on ${label}`).toEqual([]);
}

/** Text of the page's live announcements (role=alert and role=status). */
export async function announcements(page: Page): Promise<string[]> {
  return page.locator('[role="alert"], [role="status"]').allInnerTexts();
}

/**
 * Without an app's request, a login ends at the tenant's default redirect, the demo app's
 * home (http://localhost:3001/), which browser tests do not run: answer it with a stand-in.
 */
export async function stubDemoAppHome(page: Page): Promise<void> {
  await page.route('http://localhost:3001/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<title>home</title><h1>Demo app</h1>' }),
  );
}
