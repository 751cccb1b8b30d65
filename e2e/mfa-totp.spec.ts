import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible, newContext } from './support/browser.ts';
import {
  continueAfterRecoveryCodes,
  createTestUser,
  dashed,
  enterCode,
  expectHeading,
  pasteCode,
  registerTotp,
  signIn,
  spaced,
  stubDefaultRedirect,
} from './support/mfa.ts';
import { useSignInStack } from './support/stack.ts';
import { nextTimeStep, totpCode } from './support/totp.ts';

const DAY = 24 * 60 * 60 * 1000;
/** The tenant's default redirect (stubbed), with or without the user-device-token parameter. */
const appHome = /^http:\/\/localhost:3001\/(\?user-device-token=[\w-]+)?$/;

describe('authenticator app (TOTP) end to end (Chromium)', () => {
  const stack = useSignInStack();

  /** AUTH_X_DEVICE_ID, the summit origin's HttpOnly cookie (never in the page's storage). */
  async function deviceIdOf(page: Page): Promise<string | undefined> {
    const { origins } = await page.context().storageState();
    const summit = origins.find((o) => o.origin === stack.keycard.origin('summit'));
    expect(summit?.localStorage.find((item) => item.name === 'AUTH_X_DEVICE_ID')).toBeUndefined();
    const cookie = (await page.context().cookies(stack.keycard.origin('summit'))).find(
      (c) => c.name === 'AUTH_X_DEVICE_ID',
    );
    if (cookie) expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    return cookie?.value;
  }

  async function freshPage(): Promise<Page> {
    const page = await (await newContext(stack.browser)).newPage();
    await stubDefaultRedirect(page);
    return page;
  }

  it('registers an app, then asks for a code at the next sign-in; a trusted device skips it until the period ends', async () => {
    const email = await createTestUser(stack.keycard, 'summit');
    const page = await freshPage();

    // Through the demo app: MFA is part of a real OIDC sign-in.
    await page.goto(`${stack.demoApp.url}/`);
    await page.getByRole('link', { name: 'Sign in with Summit' }).click();
    await page.waitForURL(new RegExp(`^${stack.keycard.origin('summit')}/login\\?iid=`));
    await signIn(page, email);
    await page.waitForURL(`${stack.keycard.origin('summit')}/mfa`);
    await expectHeading(page, 'Set up two-step verification');
    await expect.poll(() => page.title()).toBe('Set up two-step verification | Summit');
    // Required on summit: no way to skip, only to log out.
    expect(await page.getByRole('button', { name: /Skip for now/ }).count()).toBe(0);
    expect(await page.getByText('Your organisation requires two-step verification').isVisible()).toBe(true);
    await expectAccessible(page, 'choose a method (required)');

    const { secret, recoveryCodes } = await registerTotp(page, stack.keycard, {
      onScreen: (name) => expectAccessible(page, name),
    });
    expect(new Set(recoveryCodes).size).toBe(10);
    // The QR code is an inline image: no network call renders it.
    await continueAfterRecoveryCodes(page);
    await page.waitForURL(`${stack.demoApp.url}/me`);
    expect(await page.locator('[data-claim="email"]').innerText()).toBe(email);
    expect(await deviceIdOf(page)).toMatch(/^[\w-]{43}$/);

    // Another browser (no trusted device): a code is needed.
    const other = await freshPage();
    await other.goto(`${stack.keycard.origin('summit')}/login`);
    await signIn(other, email);
    await other.waitForURL(`${stack.keycard.origin('summit')}/mfa`);
    await expectHeading(other, 'Enter your verification code');
    await expect.poll(() => other.title()).toBe('Enter your verification code | Summit');
    expect(
      await other.getByText('Open your authenticator app and enter the 6-digit code for Summit.').isVisible(),
    ).toBe(true);
    await expectAccessible(other, 'enter code at login (authenticator app)');
    nextTimeStep(stack.keycard);
    await enterCode(other, await totpCode(stack.keycard, secret));
    await other.waitForURL(appHome);
    await other.context().close();

    // The trusted device: the next sign-in skips MFA…
    await page.goto(`${stack.keycard.origin('summit')}/logout`);
    await page.waitForURL(/\/login\?loggedOut=true/);
    await signIn(page, email);
    await page.waitForURL(appHome);

    // …until the trusted period (60 days) is over.
    stack.keycard.clock.advance(60 * DAY + 60_000);
    try {
      await page.goto(`${stack.keycard.origin('summit')}/login`);
      await signIn(page, email);
      await page.waitForURL(`${stack.keycard.origin('summit')}/mfa`);
      await expectHeading(page, 'Enter your verification code');
      await enterCode(page, await totpCode(stack.keycard, secret));
      await page.waitForURL(appHome);
    } finally {
      stack.keycard.clock.advance(-(60 * DAY + 60_000));
    }
    await page.context().close();
  });

  it('leaves "Trust this device" unticked at sign-in: without ticking it the next sign-in asks again', async () => {
    const email = await createTestUser(stack.keycard, 'summit');
    const setup = await freshPage();
    await setup.goto(`${stack.keycard.origin('summit')}/login`);
    await signIn(setup, email);
    const { secret } = await registerTotp(setup, stack.keycard, { trust: false });
    await continueAfterRecoveryCodes(setup);
    await setup.waitForURL(appHome);
    await setup.context().close();

    // A shared front-desk PC: the code is entered, the box left as it is.
    const page = await freshPage();
    const trustBox = page.getByLabel('Trust this device: do not ask again for 60 days');
    await page.goto(`${stack.keycard.origin('summit')}/login`);
    await signIn(page, email);
    await expectHeading(page, 'Enter your verification code');
    expect(await trustBox.isChecked()).toBe(false);
    nextTimeStep(stack.keycard);
    await enterCode(page, await totpCode(stack.keycard, secret));
    await page.waitForURL(appHome);
    expect(await deviceIdOf(page)).toBeUndefined();

    // The next sign-in in the same browser asks for a code again; ticking the box trusts it.
    await page.goto(`${stack.keycard.origin('summit')}/logout`);
    await page.waitForURL(/\/login\?loggedOut=true/);
    await signIn(page, email);
    await expectHeading(page, 'Enter your verification code');
    expect(await trustBox.isChecked()).toBe(false);
    await trustBox.check();
    nextTimeStep(stack.keycard);
    await enterCode(page, await totpCode(stack.keycard, secret));
    await page.waitForURL(appHome);
    expect(await deviceIdOf(page)).toMatch(/^[\w-]{43}$/);

    await page.goto(`${stack.keycard.origin('summit')}/logout`);
    await page.waitForURL(/\/login\?loggedOut=true/);
    await signIn(page, email);
    await page.waitForURL(appHome);
    await page.context().close();
  });

  it('accepts a code pasted with a space at setup and with a dash at sign-in', async () => {
    const email = await createTestUser(stack.keycard, 'summit');
    const page = await freshPage();
    await page.goto(`${stack.keycard.origin('summit')}/login`);
    await signIn(page, email);
    const { secret } = await registerTotp(page, stack.keycard, { trust: false, pasted: spaced });
    await continueAfterRecoveryCodes(page);
    await page.waitForURL(appHome);
    await page.context().close();

    const other = await freshPage();
    await other.goto(`${stack.keycard.origin('summit')}/login`);
    await signIn(other, email);
    await expectHeading(other, 'Enter your verification code');
    nextTimeStep(stack.keycard);
    await pasteCode(other, dashed(await totpCode(stack.keycard, secret)));
    await other.waitForURL(appHome);
    await other.context().close();
  });

  it('refuses a wrong code and a replayed code with an announced message', async () => {
    const email = await createTestUser(stack.keycard, 'summit');
    const page = await freshPage();
    await page.goto(`${stack.keycard.origin('summit')}/login`);
    await signIn(page, email);
    await page.waitForURL(`${stack.keycard.origin('summit')}/mfa`);
    const { secret } = await registerTotp(page, stack.keycard, { trust: false });
    await continueAfterRecoveryCodes(page);
    await page.waitForURL(appHome);
    expect(await deviceIdOf(page)).toBeUndefined();

    nextTimeStep(stack.keycard);
    const code = await totpCode(stack.keycard, secret);
    const first = await freshPage();
    await first.goto(`${stack.keycard.origin('summit')}/login`);
    await signIn(first, email);
    await expectHeading(first, 'Enter your verification code');
    const wrong = code === '000000' ? '111111' : '000000';
    await enterCode(first, wrong);
    const alert = first.getByRole('alert');
    await expect.poll(() => alert.innerText()).toBe('Invalid code. Please try again.');
    expect(await first.getByLabel('6-digit code').getAttribute('aria-invalid')).toBe('true');
    await expect.poll(() => first.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('code');
    await expectAccessible(first, 'enter code with an error');
    await enterCode(first, code);
    await first.waitForURL(appHome);

    // The same code again, in another browser, within its time step: refused.
    const second = await freshPage();
    await second.goto(`${stack.keycard.origin('summit')}/login`);
    await signIn(second, email);
    await expectHeading(second, 'Enter your verification code');
    await enterCode(second, code);
    await expect.poll(() => second.getByRole('alert').innerText()).toBe('Invalid code. Please try again.');
    await first.context().close();
    await second.context().close();
    await page.context().close();
  });

  it('does not let a required-MFA user reach an app by skipping the screens', async () => {
    const email = await createTestUser(stack.keycard, 'summit');
    const page = await freshPage();
    await page.goto(`${stack.keycard.origin('summit')}/login`);
    await signIn(page, email);
    await page.waitForURL(`${stack.keycard.origin('summit')}/mfa`);
    // Straight to the hand-off page: the server refuses, the user sees the error page, no app.
    await page.goto(`${stack.keycard.origin('summit')}/authenticated`);
    await page.waitForURL(`${stack.keycard.origin('summit')}/error/`);
    const authorize = await page.evaluate(() =>
      fetch('/api/authorize', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      }).then((r) => r.status),
    );
    expect(authorize).toBe(403);
    await page.context().close();
  });
});
