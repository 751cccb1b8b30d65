import { en } from '@keycard/texts';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { announcements, expectAccessible, newContext } from './support/browser.ts';
import {
  createTestUser,
  expectHeading,
  setTenantSettings,
  signIn,
  stubDefaultRedirect,
} from './support/mfa.ts';
import { useSignInStack } from './support/stack.ts';
import {
  addAuthenticator,
  type VirtualAuthenticator,
  type VirtualCredential,
  withoutConditionalUi,
} from './support/webauthn.ts';

const texts = en.passkeys;
const shots = '/tmp/passkeys-portal';

/**
 * Passkeys on the portal (docs/passkeys.md), in Chromium with its virtual authenticator: the
 * offer after a password sign-in, signing in by the button and by the autofill, the tenant's
 * settings ('off', 'preferred') and the offer's memory.
 */
describe('passkeys on the portal (Chromium, virtual authenticator)', () => {
  const stack = useSignInStack({ env: { LOGIN_IP_LIMIT_PER_MINUTE: '1000' } });

  /** A fresh browser with an authenticator, at the tenant's login page (the demo app stubbed). */
  async function atLogin(
    tenant = 'grand-hotel',
    options: { conditional?: boolean; credential?: VirtualCredential; locale?: string } = {},
  ): Promise<{ page: Page; authenticator: VirtualAuthenticator }> {
    const page = await (
      await newContext(stack.browser, options.locale ? { locale: options.locale } : {})
    ).newPage();
    if (options.conditional === false) await withoutConditionalUi(page);
    await stubDefaultRedirect(page);
    const authenticator = await addAuthenticator(page);
    if (options.credential) await authenticator.addCredential(options.credential);
    await page.goto(`${stack.keycard.origin(tenant)}/login`);
    return { page, authenticator };
  }

  const passkeyButton = (page: Page) => page.getByRole('button', { name: en.login.passkey.signIn });
  const atApp = (page: Page) => page.waitForURL('http://localhost:3001/**');

  /** How the account's newest session was made: its first proof and its MFA method. */
  async function newestSession(email: string) {
    return stack.keycard.services.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select(['sessions.provider', 'sessions.mfa_method'])
      .where('users.email', '=', email)
      .orderBy('sessions.created_at', 'desc')
      .executeTakeFirstOrThrow();
  }

  /** Signs a new user in with the password and creates a passkey from the offer; answers it. */
  async function userWithPasskey(
    tenant = 'grand-hotel',
  ): Promise<{ email: string; credential: VirtualCredential }> {
    const email = await createTestUser(stack.keycard, tenant);
    const { page, authenticator } = await atLogin(tenant, { conditional: false });
    await signIn(page, email);
    await expectHeading(page, texts.offer.heading);
    await page.getByRole('button', { name: texts.offer.create }).click();
    await expectHeading(page, texts.titles.created);
    const [credential] = await authenticator.credentials();
    if (!credential) throw new Error('no passkey was made');
    await page.context().close();
    return { email, credential };
  }

  it('offers a passkey after a password sign-in and creates one on this domain, accessibly', async () => {
    const email = await createTestUser(stack.keycard, 'grand-hotel');
    const { page, authenticator } = await atLogin();
    // The e-mail step: the autofill may offer passkeys, and the button is there for everyone.
    await expect.poll(() => passkeyButton(page).isVisible()).toBe(true);
    expect(await page.getByLabel(en.login.email.label, { exact: true }).getAttribute('autocomplete')).toBe(
      'username webauthn',
    );
    await expectAccessible(page, 'e-mail step with the passkey button');
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 800 });
      await page.screenshot({ path: `${shots}/login-offered-${width}.png`, fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 800 });

    await signIn(page, email);
    await expectHeading(page, texts.offer.heading);
    expect(await page.title()).toContain(texts.titles.offer);
    await expectAccessible(page, 'the passkey offer');
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 800 });
      await page.screenshot({ path: `${shots}/offer-${width}.png`, fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 800 });

    // By keyboard: the heading has focus; Tab reaches "Create a passkey".
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(texts.offer.create);
    await page.keyboard.press('Enter');
    await expectHeading(page, texts.titles.created);
    expect(await announcements(page)).toContain(texts.offer.created);
    await expectAccessible(page, 'passkey created');
    await page.screenshot({ path: `${shots}/offer-created-1280.png`, fullPage: true });

    const credentials = await authenticator.credentials();
    expect(credentials).toHaveLength(1);
    expect(credentials[0]).toMatchObject({ rpId: 'grand-hotel.localhost', isResidentCredential: true });
    // The user handle is the account's 32 random bytes, never its e-mail or id.
    const handle = Buffer.from(credentials[0]?.userHandle ?? '', 'base64');
    const stored = await stack.keycard.services.db
      .selectFrom('passkey_user_handles')
      .innerJoin('users', 'users.id', 'passkey_user_handles.user_id')
      .select(['passkey_user_handles.handle', 'users.id'])
      .where('users.email', '=', email)
      .executeTakeFirstOrThrow();
    expect(handle.toString('base64url')).toBe(stored.handle);
    expect(handle).toHaveLength(32);
    expect(handle.toString('latin1')).not.toContain(email);
    expect(handle.toString('latin1')).not.toContain(stored.id);

    await page.getByRole('button', { name: texts.offer.continue }).click();
    await atApp(page);
    await page.context().close();
  });

  it('signs in with the button in a browser without the autofill, with no offer after it', async () => {
    const { email, credential } = await userWithPasskey();
    const { page } = await atLogin('grand-hotel', { conditional: false, credential });
    const signedIn = page.waitForResponse((response) => response.url().endsWith('/api/passkeys/sign-in'));
    await passkeyButton(page).click();
    expect((await signedIn).status()).toBe(200);
    await atApp(page);
    // A passkey sign-in: no password, MFA passed with the device-bound passkey (amr hwk).
    expect(await newestSession(email)).toEqual({ provider: 'passkey', mfa_method: 'passkey-hwk' });
    await page.context().close();
  });

  it('signs in by the autofill (conditional UI) as soon as the browser hands over a passkey', async () => {
    const { email, credential } = await userWithPasskey();
    // The virtual authenticator answers the autofill request at once, as a person picking the
    // passkey from the e-mail field's suggestions would; nothing is clicked.
    const { page } = await atLogin('grand-hotel', { credential });
    await atApp(page);
    // A passkey sign-in: no password, MFA passed with the device-bound passkey (amr hwk).
    expect(await newestSession(email)).toEqual({ provider: 'passkey', mfa_method: 'passkey-hwk' });
    await page.context().close();
  });

  it('says so when no passkey was used, and leaves the password way open', async () => {
    const { page } = await atLogin('grand-hotel', { conditional: false });
    await expect.poll(() => passkeyButton(page).isVisible()).toBe(true);
    // By keyboard: the e-mail field has focus; the checkbox, "Next", then the passkey button.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('email');
    for (let i = 0; i < 3; i += 1) await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(en.login.passkey.signIn);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('alert').innerText()).toBe(en.login.passkey.errors.cancelled);
    await expectAccessible(page, 'e-mail step after a cancelled passkey');
    await page.screenshot({ path: `${shots}/login-cancelled-375.png`, fullPage: true });
    // Focus stayed on the button, which can be used again.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(en.login.passkey.signIn);
    expect(await page.getByLabel(en.login.email.label, { exact: true }).isEditable()).toBe(true);
    await page.context().close();
  });

  it("shows nothing of passkeys where the tenant turned them off ('off')", async () => {
    await setTenantSettings(stack.keycard, 'seaside', { passkeys: 'off' });
    try {
      const email = await createTestUser(stack.keycard, 'seaside');
      const { page, authenticator } = await atLogin('seaside');
      await expect
        .poll(() => page.getByRole('button', { name: en.login.email.submit }).isVisible())
        .toBe(true);
      // The mode is known once the page has asked: still no button, no autofill for passkeys.
      await page.waitForLoadState('networkidle');
      expect(await passkeyButton(page).count()).toBe(0);
      expect(await page.getByLabel(en.login.email.label, { exact: true }).getAttribute('autocomplete')).toBe(
        'username',
      );
      await signIn(page, email);
      await atApp(page);
      expect(await authenticator.credentials()).toHaveLength(0);
      await page.context().close();
    } finally {
      await setTenantSettings(stack.keycard, 'seaside', { passkeys: 'offered' });
    }
  });

  it("offers once per browser, then not for 30 days after 'Not now' ('offered')", async () => {
    const email = await createTestUser(stack.keycard, 'grand-hotel');
    const { page } = await atLogin();
    await signIn(page, email);
    await expectHeading(page, texts.offer.heading);
    await page.getByRole('button', { name: texts.offer.notNow }).click();
    await atApp(page);
    // Signed out, and in again in the same browser: no offer this time.
    await page.context().clearCookies();
    await page.goto(`${stack.keycard.origin('grand-hotel')}/login`);
    expect(
      await page.evaluate(() => Number(localStorage.getItem('AUTH_X_PASSKEY_OFFER:grand-hotel'))),
    ).toBeGreaterThan(0);
    await signIn(page, email);
    await atApp(page);
    await page.context().close();
  });

  it("puts the passkey first and offers it after every password sign-in ('preferred')", async () => {
    await setTenantSettings(stack.keycard, 'seaside', { passkeys: 'preferred' });
    try {
      const email = await createTestUser(stack.keycard, 'seaside');
      const { page } = await atLogin('seaside', { conditional: false });
      await expect.poll(() => passkeyButton(page).isVisible()).toBe(true);
      // The passkey button comes before the e-mail field, as the primary way in.
      const order = await page.evaluate(() => {
        const button = [...document.querySelectorAll('button')].find(
          (b) => b.textContent === 'Sign in with a passkey',
        );
        const field = document.querySelector('input[type="email"]');
        return button && field ? button.compareDocumentPosition(field) & Node.DOCUMENT_POSITION_FOLLOWING : 0;
      });
      expect(order).toBeTruthy();
      expect(await passkeyButton(page).getAttribute('class')).not.toContain('kc-button-secondary');
      await expectAccessible(page, "e-mail step, 'preferred'");
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: 800 });
        await page.screenshot({ path: `${shots}/login-preferred-${width}.png`, fullPage: true });
      }
      await signIn(page, email);
      await expectHeading(page, texts.offer.heading);
      await page.getByRole('button', { name: texts.offer.notNow }).click();
      await atApp(page);
      await page.context().clearCookies();
      await page.goto(`${stack.keycard.origin('seaside')}/login`);
      await signIn(page, email);
      // 'preferred': asked again, in spite of the "Not now".
      await expectHeading(page, texts.offer.heading);
      await page.context().close();
    } finally {
      await setTenantSettings(stack.keycard, 'seaside', { passkeys: 'offered' });
    }
  });
});
