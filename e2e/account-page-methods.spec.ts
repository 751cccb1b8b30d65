import { en, loadTexts, type Texts } from '@keycard/texts';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { announcements, expectAccessible, launchBrowser, newContext } from './support/browser.ts';
import { type Keycard, startKeycard } from './support/keycard.ts';
import {
  continueAfterRecoveryCodes,
  createTestUser,
  enterCode,
  password,
  registerTotp,
  signIn,
  stubDefaultRedirect,
} from './support/mfa.ts';
import { nextTimeStep, totpCode } from './support/totp.ts';

const account = en.account;
const appHome = 'http://localhost:3001/';

/** After a password sign-in the hand-off may offer a passkey once: "Not now" goes on. */
async function passOfferTo(page: Page, url: string, texts: Texts = en): Promise<void> {
  const notNow = page.getByRole('button', { name: texts.passkeys.offer.notNow, exact: true });
  await expect
    .poll(async () => (await notNow.isVisible()) || page.url().startsWith(url), { timeout: 15_000 })
    .toBe(true);
  if (await notNow.isVisible()) await notNow.click();
  // The app's home may carry the trusted browser's name (user-device-token).
  await page.waitForURL((address) => address.href.startsWith(url));
}

/** Chromium's virtual authenticator (DevTools protocol WebAuthn domain): a platform passkey with UV. */
async function addVirtualAuthenticator(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}

describe('account page: sign-in methods and languages (Chromium)', () => {
  let keycard: Keycard;
  let browser: Browser;

  beforeAll(async () => {
    keycard = await startKeycard({ env: { LOGIN_IP_LIMIT_PER_MINUTE: '1000' } });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await keycard?.close();
  });

  async function context(): Promise<BrowserContext> {
    return newContext(browser);
  }

  /** A Summit account with an authenticator app, this browser trusted; answers the page and the secret. */
  async function enrolled(email: string, into?: BrowserContext) {
    const page = await (into ?? (await context())).newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await stubDefaultRedirect(page);
    await page.goto(`${keycard.origin('summit')}/login`);
    await signIn(page, email);
    const { secret } = await registerTotp(page, keycard);
    await continueAfterRecoveryCodes(page);
    await passOfferTo(page, appHome);
    return { page, secret };
  }

  it('lists the authenticator app, renews recovery codes and forgets trusted browsers', async () => {
    const email = await createTestUser(keycard, 'summit');
    const { page, secret } = await enrolled(email);
    // The signed-in MFA screen links to the account page.
    await page.goto(`${keycard.origin('summit')}/mfa`);
    await page.getByRole('link', { name: account.landing.manage }).click();
    await page.waitForURL(`${keycard.origin('summit')}/account`);
    await expect
      .poll(() => page.getByText(account.factors.authenticatorApp, { exact: true }).isVisible())
      .toBe(true);
    await expect.poll(() => page.getByText('10 recovery codes left.').isVisible()).toBe(true);
    const trusted = page.getByRole('region', { name: account.browsers.heading });
    await expect
      .poll(() => trusted.getByText(account.browsers.thisBrowser, { exact: true }).isVisible())
      .toBe(true);
    await expectAccessible(page, 'account page with a factor');
    await page.screenshot({ path: '/tmp/account-page-factor-1280.png', fullPage: true });

    // A second trusted browser of the same account (its own code, "trust" ticked).
    const second = await (await context()).newPage();
    await stubDefaultRedirect(second);
    await second.goto(`${keycard.origin('summit')}/login`);
    await signIn(second, email);
    await second.waitForURL(`${keycard.origin('summit')}/mfa`);
    await second.getByLabel('Trust this device: do not ask again for 60 days').check();
    nextTimeStep(keycard);
    await enterCode(second, await totpCode(keycard, secret));
    await passOfferTo(second, appHome);

    // Eleven minutes on, new recovery codes need "confirm it's you": password, then the code.
    // (The MFA API's own freshness for them is ten minutes, not the account page's five.)
    keycard.clock.advance(11 * 60_000);
    await page.reload();
    await page.getByRole('button', { name: account.recovery.renew }).click();
    await page
      .getByRole('alertdialog')
      .getByRole('button', { name: account.recovery.renewConfirm.confirm })
      .click();
    const prompt = page.getByRole('dialog', { name: account.reproof.heading });
    await expect.poll(() => prompt.isVisible()).toBe(true);
    await prompt.getByLabel(account.reproof.password, { exact: true }).fill(password);
    await page.keyboard.press('Enter');
    await expect.poll(() => prompt.getByText(account.reproof.totpIntro).isVisible()).toBe(true);
    await expectAccessible(page, 'confirm it is you: the code');
    nextTimeStep(keycard);
    await prompt.getByLabel(account.reproof.code, { exact: true }).fill(await totpCode(keycard, secret));
    await page.keyboard.press('Enter');
    const codes = page.getByRole('list', { name: account.recovery.listLabel }).getByRole('listitem');
    await expect.poll(() => codes.count()).toBe(10);
    await expectAccessible(page, 'new recovery codes');
    await page.getByRole('button', { name: account.recovery.done }).click();
    await expect
      .poll(() =>
        page.getByRole('listitem').filter({ hasText: account.activity.kinds.recoveryCodesRenewed }).count(),
      )
      .toBe(1);

    // Two trusted browsers: forget the other one, then all.
    await page.reload();
    const forget = page.getByRole('button', { name: /^Forget the browser trusted on / });
    await expect.poll(() => forget.count()).toBe(2);
    // By keyboard: the button, then in the dialog from its safe choice back to "Forget all".
    await page.getByRole('button', { name: account.browsers.forgetAll }).focus();
    await page.keyboard.press('Enter');
    const confirmAll = page.getByRole('alertdialog', { name: account.browsers.confirmAll.heading });
    await expect.poll(() => confirmAll.isVisible()).toBe(true);
    await page.keyboard.press('Shift+Tab');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent))
      .toBe(account.browsers.confirmAll.confirm);
    await page.keyboard.press('Enter');
    await expect.poll(() => announcements(page)).toContain('2 browsers forgotten.');
    await expect.poll(() => page.getByText(account.browsers.none).isVisible()).toBe(true);

    // The forgotten browser is asked for the code at its next sign-in.
    await second.goto(`${keycard.origin('summit')}/logout`);
    await second.waitForURL(/\/login\?loggedOut=true/);
    await signIn(second, email);
    await second.waitForURL(`${keycard.origin('summit')}/mfa`);
    await second.context().close();
    await page.context().close();
  });

  it('creates, renames and removes a passkey with a virtual authenticator, and confirms with it', async () => {
    const email = await createTestUser(keycard, 'grand-hotel');
    const page = await (await context()).newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await stubDefaultRedirect(page);
    await addVirtualAuthenticator(page);
    await page.goto(
      `${keycard.origin('grand-hotel')}/login?redirectUri=${encodeURIComponent(`${keycard.origin('grand-hotel')}/account`)}`,
    );
    await signIn(page, email);
    await passOfferTo(page, `${keycard.origin('grand-hotel')}/account`);

    await page.getByRole('button', { name: account.passkeys.create }).click();
    await expect
      .poll(() => announcements(page))
      .toContainEqual(expect.stringMatching(/^Passkey “.+” created\.$/));
    const item = page.locator('.kc-account-item').filter({ hasText: account.passkeys.deviceBound });
    await expect.poll(() => item.count()).toBe(1);
    expect(await item.innerText()).toContain(account.passkeys.neverUsed);
    await expectAccessible(page, 'a passkey');
    await page.screenshot({ path: '/tmp/account-page-passkey-1280.png', fullPage: true });

    // Rename by keyboard.
    await item.getByRole('button', { name: /^Rename: / }).focus();
    await page.keyboard.press('Enter');
    // The field replaces the button and takes the focus once drawn; typing earlier would go nowhere.
    const nameField = item.getByRole('textbox', { name: account.passkeys.renameLabel });
    await expect
      .poll(() => nameField.evaluate((field) => field === document.activeElement).catch(() => false))
      .toBe(true);
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('Front desk laptop');
    await page.keyboard.press('Enter');
    await expect.poll(() => announcements(page)).toContain('Passkey renamed to “Front desk laptop”.');

    // Six minutes on, removing it asks "confirm it's you": the passkey answers.
    keycard.clock.advance(6 * 60_000);
    await page.getByRole('button', { name: 'Remove: Front desk laptop' }).click();
    await page
      .getByRole('alertdialog')
      .getByRole('button', { name: account.passkeys.removeConfirm.confirm })
      .click();
    const prompt = page.getByRole('dialog', { name: account.reproof.heading });
    await expect.poll(() => prompt.isVisible()).toBe(true);
    await prompt.getByRole('button', { name: account.reproof.passkey }).click();
    await expect.poll(() => announcements(page)).toContain('Passkey “Front desk laptop” removed.');
    await expect.poll(() => page.getByText(account.passkeys.none).isVisible()).toBe(true);
    await expect
      .poll(() =>
        page.getByRole('listitem').filter({ hasText: 'Passkey removed: Front desk laptop' }).count(),
      )
      .toBe(1);
    await page.context().close();
  });

  it('replaces the authenticator app and keeps the passkeys, which an MFA reset would take', async () => {
    const email = await createTestUser(keycard, 'summit');
    const page = await (await context()).newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await stubDefaultRedirect(page);
    await addVirtualAuthenticator(page);
    const accountPage = `${keycard.origin('summit')}/account`;
    await page.goto(`${keycard.origin('summit')}/login?redirectUri=${encodeURIComponent(accountPage)}`);
    await signIn(page, email);
    const { secret } = await registerTotp(page, keycard);
    await continueAfterRecoveryCodes(page);
    await passOfferTo(page, accountPage);
    await page.getByRole('button', { name: account.passkeys.create }).click();
    await expect
      .poll(() => announcements(page))
      .toContainEqual(expect.stringMatching(/^Passkey “.+” created\.$/));

    // Replace asks first, starting on its safe choice, and says the passkeys stay.
    await page
      .getByRole('button', { name: `${account.factors.replace}: ${account.factors.authenticatorApp}` })
      .click();
    const confirm = page.getByRole('alertdialog', { name: account.factors.replaceConfirm.heading });
    await expect.poll(() => confirm.isVisible()).toBe(true);
    expect(await confirm.innerText()).toContain('Your passkeys stay.');
    await expectAccessible(page, 'replace a second step: confirm');
    await confirm.getByRole('button', { name: account.factors.replaceConfirm.confirm }).click();

    // The setup of a new one opens; the old app's codes are gone with it.
    await page.waitForURL(`${keycard.origin('summit')}/mfa`);
    nextTimeStep(keycard);
    const { secret: newSecret } = await registerTotp(page, keycard, { trust: false });
    expect(newSecret).not.toBe(secret);
    await continueAfterRecoveryCodes(page);

    // Back to the page it was replaced on, not to the app.
    await page.waitForURL(accountPage);
    const passkey = page.locator('.kc-account-item').filter({ hasText: account.passkeys.deviceBound });
    await expect.poll(() => passkey.count()).toBe(1);
    await expect
      .poll(() => page.getByText(account.factors.authenticatorApp, { exact: true }).count())
      .toBe(1);
    const stored = await keycard.services.db
      .selectFrom('passkey_credentials')
      .innerJoin('users', 'users.id', 'passkey_credentials.user_id')
      .select('passkey_credentials.id')
      .where('users.email', '=', email.toLowerCase())
      .execute();
    expect(stored).toHaveLength(1);
    await page.context().close();
  });

  for (const locale of ['de', 'th'] as const) {
    it(`speaks ${locale} at 375 and 1280 px, accessibly`, async () => {
      const texts = await loadTexts(locale);
      const email = await createTestUser(keycard, 'grand-hotel');
      const page = await (await newContext(browser, { locale })).newPage();
      await page.setViewportSize({ width: 1280, height: 900 });
      await stubDefaultRedirect(page);
      await page.goto(`${keycard.origin('grand-hotel')}/account?langCode=${locale}`);
      await page.waitForURL(/\/login\?redirectUri=/);
      // Exact names: the e-mail step also offers "sign in with a passkey".
      await page.getByLabel(texts.login.email.label, { exact: true }).fill(email);
      await page.getByRole('button', { name: texts.login.email.submit, exact: true }).click();
      await page.getByLabel(texts.login.password.label, { exact: true }).fill(password);
      await page.getByRole('button', { name: texts.login.password.submit, exact: true }).click();
      await passOfferTo(page, `${keycard.origin('grand-hotel')}/account`, texts);
      await expect
        .poll(() => page.getByRole('heading', { level: 1 }).innerText())
        .toBe(texts.account.page.heading);
      await expect
        .poll(() =>
          page.getByRole('listitem').filter({ hasText: texts.account.activity.kinds.signInPassword }).count(),
        )
        .toBeGreaterThan(0);
      expect(await page.locator('html').getAttribute('lang')).toBe(locale);
      await expectAccessible(page, `account page ${locale} 1280`);
      await page.screenshot({ path: `/tmp/account-page-${locale}-1280.png`, fullPage: true });
      await page.setViewportSize({ width: 375, height: 800 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      await expectAccessible(page, `account page ${locale} 375`);
      await page.screenshot({ path: `/tmp/account-page-${locale}-375.png`, fullPage: true });
      await page.context().close();
    });
  }
});
