import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launchBrowser, newContext, stubDemoAppHome } from './support/browser.ts';
import { type Keycard, startKeycard } from './support/keycard.ts';
import { browserSession, keycardCli } from './support/outbox.ts';

const password = 'Sea-breeze-2024';

describe('registration links (Chromium)', () => {
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
    // The registered redirect URI of the demo app stands in for the app the link continues to.
    await stubDemoAppHome(page);
    return page;
  }

  async function registrationLink(email: string, redirectUri = 'http://localhost:3001/callback') {
    const { stdout } = await keycardCli(
      keycard,
      'registration-link',
      '--tenant',
      'seaside',
      '--email',
      email,
      '--type',
      'partner',
      '--redirect-uri',
      redirectUri,
    );
    return stdout.trim();
  }

  async function fillCredentials(page: Page) {
    await page.getByLabel('New password', { exact: true }).fill(password);
    await page.getByLabel('Confirm new password', { exact: true }).fill(password);
    await page.getByLabel('Secret question', { exact: true }).selectOption('town-where-born');
    await page.getByLabel('Secret answer', { exact: true }).fill('Lisbon');
  }

  it('registers from an operator link and arrives signed in at the redirect', async () => {
    const email = 'new.partner@seaside.test';
    const link = await registrationLink(email);
    expect(new URL(link).origin).toBe(keycard.origin('seaside'));

    const page = await freshPage();
    await page.goto(link);
    await expect.poll(() => page.title()).toBe('Create your account | Seaside Resorts');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Create your account');
    expect(await page.getByText(`Choose a password and a secret question for ${email}.`).isVisible()).toBe(
      true,
    );
    await expectAccessible(page, 'registration form');

    await fillCredentials(page);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/^http:\/\/localhost:3001\/callback/);

    const session = await browserSession(page.context(), keycard.origin('seaside'));
    expect(session).toMatchObject({
      exists: true,
      identity: { email, type: 'partner', state: 'AUTHENTICATED' },
    });
    await page.context().close();
  });

  it('shows a used link as not valid, accessibly', async () => {
    const email = 'twice@seaside.test';
    const link = await registrationLink(email);
    const first = await freshPage();
    await first.goto(link);
    await fillCredentials(first);
    await first.getByRole('button', { name: 'Create account' }).click();
    await first.waitForURL(/^http:\/\/localhost:3001\/callback/);
    await first.context().close();

    const page = await freshPage();
    await page.goto(link);
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).innerText())
      .toBe('This registration link is not valid');
    expect(await page.getByRole('link', { name: 'Contact support' }).isVisible()).toBe(true);
    await expectAccessible(page, 'invalid registration link');
    await page.context().close();
  });

  it("refuses another tenant's link on this tenant's domain", async () => {
    const link = new URL(await registrationLink('elsewhere@seaside.test'));
    const page = await freshPage();
    await page.goto(`${keycard.origin('grand-hotel')}${link.pathname}${link.search}`);
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).innerText())
      .toBe('This registration link is not valid');
    await page.context().close();
  });
});
