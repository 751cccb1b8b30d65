import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fillRedirectPortHint } from '@keycard/texts/provider-hints';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launchBrowser, newContext } from './support/browser.ts';
import { type Keycard, startKeycard } from './support/keycard.ts';

const shots = process.env.CONSOLE_SHOTS ?? path.join(tmpdir(), 'console-shots');

/**
 * Issue 19: an app whose redirect differs from the registered one only in its port (the
 * integrator's console on port 4000, registered on 3000) gets the provider's error page saying
 * so in words, in the page's language, after the portal takes the page over.
 */
describe('a redirect on another port, on the provider’s error page (Chromium)', () => {
  let keycard: Keycard;
  let browser: Browser;
  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    keycard = await startKeycard();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await keycard?.close();
  });

  it.each([
    ['en', 'en-GB'],
    ['de', 'de-DE'],
    ['th', 'th-TH'],
  ] as const)('explains it in %s at 1280 and 375 px', async (locale, browserLocale) => {
    const page = await (await newContext(browser, { locale: browserLocale })).newPage();
    const query = new URLSearchParams({
      client_id: 'demo-app',
      redirect_uri: 'http://localhost:3999/callback',
      response_type: 'code',
      scope: 'openid',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    });
    await page.goto(`${keycard.origin()}/oidc/auth?${query}`);
    const hint = fillRedirectPortHint(locale, {
      requested: 'http://localhost:3999/callback',
      registered: 'http://localhost:3001/callback',
    });
    // Once the portal's script has taken the page over (the language menu is its own).
    await page.locator('select').first().waitFor();
    await expect.poll(() => page.getByText(hint).count()).toBe(1);
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await expectAccessible(page, `redirect port hint in ${locale} at ${width} px`);
      await page.screenshot({
        path: path.join(shots, `redirect-port-${locale}-${width}.png`),
        fullPage: true,
      });
    }
    await page.context().close();
  });
});
