import { en } from '@keycard/texts';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible, newContext } from './support/browser.ts';
import { useSignInStack } from './support/stack.ts';

const backToDemoApp = en.login.app.back.replace('{{app}}', 'demo-app');

/**
 * "Back to <app>" on the login page of an app's sign-in request: the user goes back without
 * signing in, and the app gets error=access_denied for the request it made (OpenID Connect
 * Core §3.1.2.6), at its registered callback.
 */
describe('going back to the app from the login page (Chromium)', () => {
  const stack = useSignInStack();

  /** A fresh browser sent by the demo app to Grand Hotel's login page; answers it and the iid. */
  async function atLoginFromDemoApp(): Promise<{ page: Page; iid: string }> {
    const page = await (await newContext(stack.browser)).newPage();
    await page.goto(`${stack.demoApp.url}/`);
    await page.getByRole('link', { name: 'Sign in with Grand Hotel Group' }).click();
    await page.waitForURL(new RegExp(`^${stack.keycard.origin('grand-hotel')}/login\\?iid=`));
    return { page, iid: new URL(page.url()).searchParams.get('iid') ?? '' };
  }

  it('returns to the demo app with access_denied for its own request, from either login step', async () => {
    const { page } = await atLoginFromDemoApp();
    const back = page.getByRole('button', { name: backToDemoApp });
    await expect.poll(() => back.isVisible()).toBe(true);
    await expectAccessible(page, 'e-mail step with Back to the app');

    // Also on the password step.
    await page.getByLabel('E-mail', { exact: true }).fill('demo@grand-hotel.test');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => page.title()).toBe('Enter your password | Grand Hotel Group');
    await expect.poll(() => back.isVisible()).toBe(true);
    await expectAccessible(page, 'password step with Back to the app');

    const callback = page.waitForRequest((request) =>
      request.url().startsWith(`${stack.demoApp.url}/callback?`),
    );
    await back.click();
    const returned = new URL((await callback).url());
    expect(returned.searchParams.get('error')).toBe('access_denied');
    expect(returned.searchParams.get('code')).toBeNull();
    expect(returned.searchParams.get('state')).toMatch(/\S{10,}/);
    // The demo app matched the state to the request it made and reports the provider's answer.
    await expect.poll(() => page.locator('[data-error="code"]').innerText()).toBe('access_denied');
    await page.context().close();
  });

  it('offers no way back where the page is no part of this browser’s request', async () => {
    const { page, iid } = await atLoginFromDemoApp();
    await expect.poll(() => page.getByRole('button', { name: backToDemoApp }).isVisible()).toBe(true);

    // Another browser with the same address (a shared link): the request is not its own.
    const other = await (await newContext(stack.browser)).newPage();
    const answered = other.waitForResponse((response) =>
      response.url().includes('/api/authorize/interaction'),
    );
    await other.goto(`${stack.keycard.origin('grand-hotel')}/login?iid=${encodeURIComponent(iid)}`);
    expect((await answered).status()).toBe(404);
    expect(await other.getByRole('button', { name: backToDemoApp }).count()).toBe(0);
    await expectAccessible(other, 'e-mail step of a foreign request');

    // A login page opened directly is no app's request.
    await other.goto(`${stack.keycard.origin('grand-hotel')}/login`);
    await expect.poll(() => other.getByRole('button', { name: 'Next' }).isVisible()).toBe(true);
    expect(await other.getByRole('button', { name: backToDemoApp }).count()).toBe(0);
    await other.context().close();
    await page.context().close();
  });
});
