import { en, loadTexts, type Texts } from '@keycard/texts';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible, newContext } from './support/browser.ts';
import {
  continueAfterRecoveryCodes,
  createTestUser,
  enterCode,
  expectHeading,
  registerTotp,
  signIn,
  stubDefaultRedirect,
} from './support/mfa.ts';
import { useSignInStack } from './support/stack.ts';
import { totpCode } from './support/totp.ts';
import { addAuthenticator, type VirtualCredential, withoutConditionalUi } from './support/webauthn.ts';

const shots = '/tmp/passkeys-portal';
const tenantNames: Record<string, string> = { 'grand-hotel': 'Grand Hotel Group', summit: 'Summit' };

/**
 * Passkeys as the strong factor (docs/passkeys.md), in Chromium with its virtual authenticator
 * and the unmodified demo app: an app asking `acr_values=phr` gets the passkey step-up (never a
 * password) and an ID token whose amr and acr say a passkey was used; a security key passes
 * MFA; the screens in German and Thai, at 375 and 1280 px, with axe and by keyboard.
 */
describe('passkey step-up and MFA (Chromium, virtual authenticator, demo app)', () => {
  const stack = useSignInStack({ env: { LOGIN_IP_LIMIT_PER_MINUTE: '1000' } });

  async function freshPage(locale?: string): Promise<Page> {
    const page = await (await newContext(stack.browser, locale ? { locale } : {})).newPage();
    await stubDefaultRedirect(page);
    return page;
  }

  /**
   * The demo app, unmodified, sends the browser to the tenant's /oidc/auth; the test adds
   * acr_values to that redirect, as an app asking for a phishing-resistant sign-in would.
   */
  async function fromDemoApp(
    page: Page,
    tenant: string,
    acrValues?: string,
    extra: Record<string, string> = {},
  ): Promise<void> {
    if (acrValues || Object.keys(extra).length > 0) {
      await page.route(
        (url) => url.origin === stack.demoApp.url && url.pathname.startsWith('/login/'),
        async (route) => {
          const answer = await route.fetch({ maxRedirects: 0 });
          const location = new URL(answer.headers().location ?? '');
          if (acrValues) location.searchParams.set('acr_values', acrValues);
          for (const [name, value] of Object.entries(extra)) location.searchParams.set(name, value);
          await route.fulfill({ status: 302, headers: { location: location.href } });
        },
      );
    }
    await page.goto(`${stack.demoApp.url}/`);
    await page.getByRole('link', { name: `Sign in with ${tenantNames[tenant]}` }).click();
    await page.waitForURL(new RegExp(`^${stack.keycard.origin(tenant)}/login(/password)?\\?iid=`));
  }

  async function claim(page: Page, name: string): Promise<string> {
    await page.waitForURL(`${stack.demoApp.url}/me`);
    return page.locator(`[data-claim="${name}"]`).innerText();
  }

  async function screenshots(page: Page, name: string): Promise<void> {
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 800 });
      await page.screenshot({ path: `${shots}/${name}-${width}.png`, fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  }

  /** A summit user with an authenticator app and a passkey made from the offer after it. */
  async function summitUserWithTotpAndPasskey(): Promise<{
    email: string;
    secret: string;
    credential: VirtualCredential;
  }> {
    const email = await createTestUser(stack.keycard, 'summit');
    const page = await freshPage();
    await withoutConditionalUi(page);
    const authenticator = await addAuthenticator(page);
    await page.goto(`${stack.keycard.origin('summit')}/login`);
    await signIn(page, email);
    const { secret } = await registerTotp(page, stack.keycard, { trust: false });
    await continueAfterRecoveryCodes(page);
    // After the factor: the offer.
    await expectHeading(page, en.passkeys.offer.heading);
    await page.getByRole('button', { name: en.passkeys.offer.create }).click();
    await expectHeading(page, en.passkeys.titles.created);
    const [credential] = await authenticator.credentials();
    if (!credential) throw new Error('no passkey was made');
    await page.context().close();
    return { email, secret, credential };
  }

  it('confirms an app’s acr_values=phr with a passkey after a code, by keyboard; the ID token says so', async () => {
    const { email, secret, credential } = await summitUserWithTotpAndPasskey();
    const page = await freshPage();
    await withoutConditionalUi(page);
    const authenticator = await addAuthenticator(page);
    await authenticator.addCredential(credential);
    await fromDemoApp(page, 'summit', 'phr');
    await signIn(page, email);
    // MFA: the code, with the passkey offered beside it.
    await expectHeading(page, en.mfa.verify.heading);
    await expect
      .poll(() => page.getByRole('button', { name: en.passkeys.mfa.option }).isVisible())
      .toBe(true);
    await expectAccessible(page, 'MFA verify with the passkey option');
    await screenshots(page, 'mfa-verify-with-passkey');
    await enterCode(page, await totpCode(stack.keycard, secret, 1));

    // A password and a code do not meet phr: the step-up, never the password again.
    await expectHeading(page, en.passkeys.stepUp.heading);
    await expect
      .poll(() => page.getByText(en.passkeys.stepUp.body.replace('{{app}}', 'demo-app')).isVisible())
      .toBe(true);
    await expectAccessible(page, 'passkey step-up');
    await screenshots(page, 'step-up-en');
    // The heading has focus; Tab reaches "Confirm with a passkey", Enter uses it.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(en.passkeys.stepUp.confirm);
    await page.keyboard.press('Enter');

    expect(await claim(page, 'email')).toBe(email);
    // RFC 8176: a hardware-held key (device-bound passkey), the password, and MFA; acr phrh.
    const amr = (await claim(page, 'amr')).split(', ');
    expect(amr).toContain('hwk');
    expect(amr).toContain('mfa');
    expect(await claim(page, 'acr')).toBe('phrh');
    await page.context().close();
  });

  it('signs in with a passkey through the demo app asking acr_values=phr: no step-up, amr hwk user mfa', async () => {
    const { email, credential } = await summitUserWithTotpAndPasskey();
    const page = await freshPage();
    await withoutConditionalUi(page);
    const authenticator = await addAuthenticator(page);
    await authenticator.addCredential(credential);
    await fromDemoApp(page, 'summit', 'phr');
    await page.getByRole('button', { name: en.login.passkey.signIn }).click();
    expect(await claim(page, 'email')).toBe(email);
    expect((await claim(page, 'amr')).split(', ').sort()).toEqual(['hwk', 'mfa', 'user']);
    expect(await claim(page, 'acr')).toBe('phrh');
    await page.context().close();
  });

  it('passes MFA with a security key alone, where it is the account’s only factor', async () => {
    // The offer comes on a device with a platform authenticator; the person touches the
    // security key plugged into it instead (the platform one never answers), so the key holds
    // the new credential, with its own transport (usb).
    const email = await createTestUser(stack.keycard, 'grand-hotel');
    const setup = await freshPage();
    await withoutConditionalUi(setup);
    await (await addAuthenticator(setup)).presence(false);
    const key = await addAuthenticator(setup, { transport: 'usb' });
    await setup.goto(`${stack.keycard.origin('grand-hotel')}/login`);
    await signIn(setup, email);
    await expectHeading(setup, en.passkeys.offer.heading);
    await setup.getByRole('button', { name: en.passkeys.offer.create }).click();
    await expectHeading(setup, en.passkeys.titles.created);
    const [credential] = await key.credentials();
    if (!credential) throw new Error('no key credential');
    await setup.context().close();

    // Another browser, the key plugged in: the password, then the key as the second factor.
    const page = await freshPage();
    await withoutConditionalUi(page);
    await (await addAuthenticator(page, { transport: 'usb' })).addCredential(credential);
    await fromDemoApp(page, 'grand-hotel');
    await signIn(page, email);
    await expectHeading(page, en.passkeys.mfa.heading);
    await expect.poll(() => page.getByText(en.passkeys.mfa.intro).isVisible()).toBe(true);
    // Nothing to type: no code field.
    expect(await page.getByLabel(en.mfa.common.codeLabel, { exact: true }).count()).toBe(0);
    await expectAccessible(page, 'MFA with the key alone');
    await screenshots(page, 'mfa-key-only');
    await page.getByRole('button', { name: en.passkeys.mfa.option }).click();
    expect(await claim(page, 'email')).toBe(email);
    expect((await claim(page, 'amr')).split(', ')).toContain('hwk');
    await page.context().close();
  });

  it('meets an app’s prompt=login with a passkey on the password step', async () => {
    const email = await createTestUser(stack.keycard, 'grand-hotel');
    const page = await freshPage();
    await withoutConditionalUi(page);
    await addAuthenticator(page);
    await page.goto(`${stack.keycard.origin('grand-hotel')}/login`);
    await signIn(page, email);
    await expectHeading(page, en.passkeys.offer.heading);
    await page.getByRole('button', { name: en.passkeys.offer.create }).click();
    await page.getByRole('button', { name: en.passkeys.offer.continue }).click();
    await page.waitForURL('http://localhost:3001/**');

    // Signed in; the app asks for a fresh sign-in: the password step, with a passkey beside it.
    await fromDemoApp(page, 'grand-hotel', undefined, { prompt: 'login' });
    await expect.poll(() => page.getByText(en.login.notices.reauthenticate).isVisible()).toBe(true);
    const button = page.getByRole('button', { name: en.login.passkey.instead });
    await expect.poll(() => button.isVisible()).toBe(true);
    await expectAccessible(page, 'password step with the passkey');
    await screenshots(page, 'reauth-password-step');
    await button.click();
    expect(await claim(page, 'email')).toBe(email);
    expect((await claim(page, 'amr')).split(', ').sort()).toEqual(['hwk', 'mfa', 'user']);
    await page.context().close();
  });

  const languages = [
    { locale: 'de-DE', code: 'de' },
    { locale: 'th-TH', code: 'th' },
  ] as const;
  for (const { locale, code } of languages) {
    it(`in ${code}: the button, the offer and a step-up without a passkey, which goes back to the app`, async () => {
      const texts: Texts = await loadTexts(code);
      const email = await createTestUser(stack.keycard, 'grand-hotel');
      const page = await freshPage(locale);
      await withoutConditionalUi(page);
      await addAuthenticator(page);
      await fromDemoApp(page, 'grand-hotel', 'phr');
      const button = page.getByRole('button', { name: texts.login.passkey.signIn });
      await expect.poll(() => button.isVisible()).toBe(true);
      await expectAccessible(page, `${code} e-mail step`);
      await screenshots(page, `login-${code}`);

      await signIn(page, email, texts);
      await expectHeading(page, texts.passkeys.offer.heading);
      await expectAccessible(page, `${code} offer`);
      await screenshots(page, `offer-${code}`);
      await page.getByRole('button', { name: texts.passkeys.offer.notNow }).click();

      // No passkey yet: the step-up says how to get one, and the way back to the app.
      await expectHeading(page, texts.passkeys.stepUp.heading);
      await expect.poll(() => page.getByText(texts.passkeys.stepUp.none).isVisible()).toBe(true);
      expect(await page.getByRole('button', { name: texts.passkeys.stepUp.confirm }).count()).toBe(0);
      await expectAccessible(page, `${code} step-up without a passkey`);
      await screenshots(page, `step-up-none-${code}`);
      const back = page.getByRole('button', { name: texts.login.app.back.replace('{{app}}', 'demo-app') });
      await back.click();
      await page.waitForURL(new RegExp(`^${stack.demoApp.url}/callback\\?`));
      await expect.poll(() => page.locator('[data-error="code"]').innerText()).toBe('access_denied');
      await page.context().close();
    });
  }
});
