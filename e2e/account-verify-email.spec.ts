import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createUser } from '../apps/server/src/features/accounts/user.repository.ts';
import { expectAccessible, newContext } from './support/browser.ts';
import { loginWithPassword } from './support/login.ts';
import { linkIn, waitForMail } from './support/outbox.ts';
import { useSignInStack } from './support/stack.ts';

const password = 'Verify-me-please-1';
const DAY = 24 * 60 * 60 * 1000;

describe('e-mail verification (Chromium)', () => {
  const stack = useSignInStack();

  async function unverifiedUser(email: string) {
    await createUser(
      stack.keycard.services.db,
      {
        tenantCode: 'grand-hotel',
        email,
        type: 'staff',
        locale: 'en',
        status: 'active',
        password,
        emailVerified: false,
        emailVerificationRequired: true,
      },
      stack.keycard.clock.now(),
    );
  }

  /** Signs in through the demo app (an OIDC client) and stops at the verification prompt. */
  async function signInToPrompt(email: string): Promise<Page> {
    const page = await (await newContext(stack.browser)).newPage();
    await page.goto(`${stack.demoApp.url}/`);
    await page.getByRole('link', { name: 'Sign in with Grand Hotel Group' }).click();
    await page.waitForURL(/\/login\?iid=/);
    await loginWithPassword(page, email, password);
    await page.waitForURL(`${stack.keycard.origin()}/authenticated`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Verify your e-mail');
    return page;
  }

  it('prompt → mail → verify → the sign-in continues to the app, with the address verified', async () => {
    const email = 'verify.me@grand-hotel.test';
    await unverifiedUser(email);
    const page = await signInToPrompt(email);
    await expect.poll(() => page.title()).toBe('Verify your e-mail | Grand Hotel Group');
    expect(await page.getByText(`confirm that ${email} is your e-mail address`).isVisible()).toBe(true);
    await expectAccessible(page, 'verification prompt');

    await page.getByRole('button', { name: 'Send verification e-mail' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Check your inbox');
    expect(await page.getByRole('status').first().innerText()).toBe(
      `We have sent a verification link to ${email}. Open it to continue.`,
    );
    await expectAccessible(page, 'check your inbox');
    await page.getByRole('button', { name: 'I did not receive the e-mail' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Verify your e-mail');
    await page.getByRole('button', { name: 'Send verification e-mail' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Check your inbox');

    const first = await waitForMail(stack.keycard, email, 'account.verify-email');
    const mail = await waitForMail(stack.keycard, email, 'account.verify-email', 2);
    expect(mail.content.subject).toBe('Verify your e-mail address for Grand Hotel Group');

    // The person opens the newest mail's link in the same tab.
    await page.goto(linkIn(mail));
    await expect.poll(() => page.title()).toBe('Verify your e-mail | Grand Hotel Group');
    await expect.poll(() => page.getByLabel('E-mail', { exact: true }).isVisible()).toBe(true);
    await expectAccessible(page, 'verify e-mail form');
    await page.getByLabel('E-mail', { exact: true }).fill('someone.else@grand-hotel.test');
    await page.getByRole('button', { name: 'Verify e-mail' }).click();
    await expect
      .poll(() => page.getByRole('alert').innerText())
      .toBe("This e-mail doesn't match our records. Please try again.");
    await expectAccessible(page, 'verify e-mail mismatch');

    await page.getByLabel('E-mail', { exact: true }).fill(email);
    await page.getByRole('button', { name: 'Verify e-mail' }).click();
    await expect
      .poll(() => page.getByRole('status').first().innerText())
      .toBe('Your e-mail address has been verified. Taking you onwards…');
    await expectAccessible(page, 'verified');
    // The automatic redirect goes to /authenticated, which finishes the app's sign-in.
    await page.waitForURL(`${stack.demoApp.url}/me`, { timeout: 15_000 });
    expect(await page.locator('[data-claim="email"]').innerText()).toBe(email);
    expect(await page.locator('[data-claim="email_verified"]').innerText()).toBe('true');

    // Both links are spent now: the first was replaced, the second used.
    for (const spent of [first, mail]) {
      const again = await (await newContext(stack.browser)).newPage();
      await again.goto(linkIn(spent));
      await again.waitForURL(`${stack.keycard.origin()}/error/verify-expired/`);
      await expect
        .poll(() => again.getByRole('heading', { level: 1 }).innerText())
        .toBe('This verification link has expired');
      await expect.poll(() => again.title()).toBe('Verification link expired | Grand Hotel Group');
      await expectAccessible(again, 'verify expired');
      await again.context().close();
    }
    await page.context().close();
  });

  it('sends a link older than 24 hours to the verify-expired page', async () => {
    const email = 'too.late@grand-hotel.test';
    await unverifiedUser(email);
    const page = await signInToPrompt(email);
    await page.getByRole('button', { name: 'Send verification e-mail' }).click();
    const link = linkIn(await waitForMail(stack.keycard, email, 'account.verify-email'));
    stack.keycard.clock.advance(DAY + 60_000);
    try {
      await page.goto(link);
      await page.waitForURL(`${stack.keycard.origin()}/error/verify-expired/`);
    } finally {
      stack.keycard.clock.advance(-(DAY + 60_000));
      await page.context().close();
    }
  });
});
