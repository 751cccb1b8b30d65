import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launchBrowser, newContext } from './support/browser.ts';
import { type Keycard, startKeycard } from './support/keycard.ts';
import {
  continueAfterRecoveryCodes,
  createTestUser,
  expectHeading,
  pasteInto,
  registerTotp,
  signIn,
  stubDefaultRedirect,
} from './support/mfa.ts';
import { nextTimeStep, totpCode } from './support/totp.ts';

const appHome = /^http:\/\/localhost:3001\/(\?user-device-token=[\w-]+)?$/;
const registeredRedirect = 'http://localhost:3001/callback';

describe('recovery codes and MFA reset end to end (Chromium)', () => {
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

  async function freshPage(): Promise<Page> {
    const page = await (await newContext(browser)).newPage();
    await stubDefaultRedirect(page);
    return page;
  }

  /** A summit user with an authenticator app, registered in the browser (not trusted). */
  async function enrolledUser() {
    const email = await createTestUser(keycard, 'summit');
    const page = await freshPage();
    await page.goto(`${keycard.origin('summit')}/login`);
    await signIn(page, email);
    const enrolment = await registerTotp(page, keycard, { trust: false });
    await continueAfterRecoveryCodes(page);
    await page.waitForURL(appHome);
    await page.context().close();
    nextTimeStep(keycard);
    return { email, ...enrolment };
  }

  it('signs in with a recovery code, then makes new recovery codes on the manage screen', async () => {
    const { email, recoveryCodes } = await enrolledUser();
    const page = await freshPage();
    await page.goto(`${keycard.origin('summit')}/login`);
    await signIn(page, email);
    await expectHeading(page, 'Enter your verification code');
    await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    const field = page.getByLabel('Recovery code', { exact: true });
    await expect.poll(() => field.isVisible()).toBe(true);
    await expectAccessible(page, 'enter a recovery code');
    await field.fill('not-a-code');
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    await expect
      .poll(() => page.getByRole('alert').innerText())
      .toBe('Enter a recovery code such as k7m2p-9qxw4.');
    // Pasted as it might be copied from a note: capitals, a space for the dash, spaces around.
    await pasteInto(field, ` ${recoveryCodes[0]!.toUpperCase().replace('-', ' ')} `);
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    await page.waitForURL(appHome);

    // A recovery code works once.
    const again = await freshPage();
    await again.goto(`${keycard.origin('summit')}/login`);
    await signIn(again, email);
    await again.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await again.getByLabel('Recovery code', { exact: true }).fill(recoveryCodes[0]!);
    await again.getByRole('button', { name: 'Verify', exact: true }).click();
    await expect.poll(() => again.getByRole('alert').innerText()).toBe('Invalid code. Please try again.');
    await again.context().close();

    // Right after that check, new codes may be made; the old ones stop working.
    await page.goto(`${keycard.origin('summit')}/mfa`);
    await expectHeading(page, 'Two-step verification is on');
    expect(await page.getByText('9 recovery codes left.').isVisible()).toBe(true);
    await expectAccessible(page, 'manage');
    await page.getByRole('button', { name: 'Create new recovery codes' }).click();
    await expectHeading(page, 'Create new recovery codes');
    const fresh = await page
      .getByRole('list', { name: 'Recovery codes' })
      .getByRole('listitem')
      .allInnerTexts();
    expect(fresh).toHaveLength(10);
    expect(fresh.some((code) => recoveryCodes.includes(code))).toBe(false);
    await expectAccessible(page, 'new recovery codes');
    await continueAfterRecoveryCodes(page);
    await page.waitForURL(appHome);
    await page.context().close();
  });

  it('downloads the recovery codes as a text file named after the tenant, and prints only the codes', async () => {
    const email = await createTestUser(keycard, 'summit');
    const page = await freshPage();
    await page.goto(`${keycard.origin('summit')}/login`);
    await signIn(page, email);
    const { recoveryCodes } = await registerTotp(page, keycard, { trust: false });
    await expectAccessible(page, 'recovery codes with download and print');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download the codes' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('summit-recovery-codes.txt');
    const lines = readFileSync(await download.path(), 'utf8')
      .trimEnd()
      .split('\n');
    expect(lines[0]).toMatch(
      /^Recovery codes for two-step verification at Summit, created on (\d{1,2} \w+|\w+ \d{1,2},) \d{4}\. Each code works once/,
    );
    expect(lines.slice(2)).toEqual(recoveryCodes);

    // Print is wired to the browser's print dialog (stubbed: a headless browser has none)…
    await page.evaluate(() => {
      const counted = window as unknown as { printed: number };
      counted.printed = 0;
      window.print = () => {
        counted.printed += 1;
      };
    });
    await page.getByRole('button', { name: 'Print the codes' }).click();
    expect(await page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
    // …and the printed page holds the codes and what they are, nothing else.
    await page.emulateMedia({ media: 'print' });
    expect(await page.getByText(lines[0]!).isVisible()).toBe(true);
    expect(await page.getByRole('list', { name: 'Recovery codes' }).isVisible()).toBe(true);
    for (const hidden of [
      page.getByRole('heading', { level: 1 }),
      page.getByRole('button', { name: 'Print the codes' }),
      page.getByLabel('I have saved my recovery codes'),
      page.getByRole('banner'),
    ]) {
      expect(await hidden.isVisible()).toBe(false);
    }
    await page.emulateMedia({ media: 'screen' });
    expect(await page.getByText(lines[0]!).isVisible()).toBe(false);
    await continueAfterRecoveryCodes(page);
    await page.waitForURL(appHome);
    await page.context().close();
  });

  it('resets MFA end to end: purpose=for-mfa-reset, a code as proof, the registered redirect or set up again', async () => {
    const { email, secret } = await enrolledUser();
    const page = await freshPage();
    const login = new URLSearchParams({ purpose: 'for-mfa-reset', mfaResetRedirectUri: registeredRedirect });
    await page.goto(`${keycard.origin('summit')}/login?${login}`);
    await signIn(page, email);
    await page.waitForURL(`${keycard.origin('summit')}/mfa/reset`);
    await expectHeading(page, 'Reset two-step verification');
    await expect.poll(() => page.title()).toBe('Reset two-step verification | Summit');
    await expectAccessible(page, 'reset: confirm');
    const current = await totpCode(keycard, secret);
    await enterCodeForReset(page, current === '000000' ? '111111' : '000000');
    await expect.poll(() => page.getByRole('alert').innerText()).toBe('Invalid code. Please try again.');
    await enterCodeForReset(page, current);
    await expectHeading(page, 'Two-step verification has been reset');
    await expectAccessible(page, 'reset: done');
    expect(await page.getByRole('link', { name: 'Continue' }).getAttribute('href')).toBe(registeredRedirect);

    // The old method is gone: summit requires MFA, so the next step is setting it up again.
    await page.getByRole('link', { name: 'Set up again' }).click();
    await expectHeading(page, 'Set up two-step verification');
    nextTimeStep(keycard);
    const replaced = await registerTotp(page, keycard, { trust: false });
    expect(replaced.secret).not.toBe(secret);
    await continueAfterRecoveryCodes(page);
    await page.waitForURL(appHome);
    await page.context().close();
  });

  it('resets with a recovery code from the code screen (lost phone) and never offers an unregistered redirect', async () => {
    const { email, recoveryCodes } = await enrolledUser();
    const page = await freshPage();
    const login = new URLSearchParams({ mfaResetRedirectUri: 'https://evil.example/after-reset' });
    await page.goto(`${keycard.origin('summit')}/login?${login}`);
    await signIn(page, email);
    await expectHeading(page, 'Enter your verification code');
    await page.getByRole('link', { name: 'Lost your phone? Reset two-step verification' }).click();
    await expectHeading(page, 'Reset two-step verification');
    await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await page.getByLabel('Recovery code', { exact: true }).fill(recoveryCodes[4]!);
    await page.getByRole('button', { name: 'Reset two-step verification' }).click();
    await expectHeading(page, 'Two-step verification has been reset');
    expect(await page.locator('a[href^="https://evil.example"]').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Continue' }).count()).toBe(0);
    await page.context().close();
  });

  async function enterCodeForReset(page: Page, code: string) {
    await page.getByLabel('6-digit code', { exact: true }).fill(code);
    await page.getByRole('button', { name: 'Reset two-step verification' }).click();
  }
});
