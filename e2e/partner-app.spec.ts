import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible, newContext } from './support/browser.ts';
import { continueAfterRecoveryCodes, enterCode, expectHeading, registerTotp } from './support/mfa.ts';
import { usePartnerSignInStack } from './support/stack.ts';
import { nextTimeStep, totpCode } from './support/totp.ts';

/**
 * The demo partner app (examples/partner-app) end to end: its button signs a partner token,
 * the hotel's portal signs the user in (asking for every step the tenant requires), hands a
 * one-time code back, and the app redeems it for an ID token whose claims it shows.
 */
describe('demo partner app: partner single sign-on round trip (Chromium)', () => {
  const stack = usePartnerSignInStack();

  async function freshPage(): Promise<Page> {
    return (await newContext(stack.browser)).newPage();
  }

  async function openHotelPortal(page: Page, hotel: string): Promise<void> {
    await page
      .getByRole('region', { name: hotel })
      .getByRole('button', { name: 'Open the hotel portal' })
      .click();
  }

  async function claim(page: Page, name: string): Promise<string> {
    return page.locator(`[data-claim="${name}"]`).innerText();
  }

  it('goes to the hotel portal and comes back signed in with the verified claims; the code works once', async () => {
    const page = await freshPage();
    await page.goto(`${stack.partnerApp.url}/`);
    await expectHeading(page, 'Demo partner booking app');
    await expectAccessible(page, 'partner app home');

    const handoff = page.waitForRequest((request) => request.url().startsWith(stack.partnerApp.handoffUri));
    await openHotelPortal(page, 'Grand Hotel Group');
    const handoffUrl = new URL((await handoff).url());
    expect(handoffUrl.searchParams.get('tenantCode')).toBe('grand-hotel');
    expect(handoffUrl.searchParams.get('code')).toMatch(/^[\w-]{22,}$/);

    await page.waitForURL(`${stack.partnerApp.url}/me`);
    await expectHeading(page, 'Signed in');
    expect(await claim(page, 'email')).toBe('demo@grand-hotel.test');
    expect(await claim(page, 'email_verified')).toBe('true');
    expect(await claim(page, 'partner_code')).toBe('demo-partner');
    expect(await claim(page, 'aud')).toBe('demo-partner-app');
    expect(await claim(page, 'iss')).toBe(`${stack.keycard.origin('grand-hotel')}/oidc`);
    expect(await page.locator('[data-tenant]').innerText()).toBe('grand-hotel');
    await expectAccessible(page, 'partner app signed in');

    // The same hand-off address again (a reload, a leaked link): the code is spent.
    await page.goto(handoffUrl.href);
    await expectHeading(page, 'Sign-in failed');
    expect(await page.locator('[data-error="code"]').innerText()).toBe('invalid_grant');
    await expectAccessible(page, 'partner app hand-off refused');
    await page.context().close();
  });

  it('on summit asks for two-step verification first, then comes back signed in; every click is a new sign-in', async () => {
    const page = await freshPage();
    await page.goto(`${stack.partnerApp.url}/`);
    await openHotelPortal(page, 'Summit');

    // Summit requires MFA: its demo user registers an authenticator app before the hand-off.
    await page.waitForURL(`${stack.keycard.origin('summit')}/mfa`);
    await expectHeading(page, 'Set up two-step verification');
    const { secret } = await registerTotp(page, stack.keycard, { trust: false });
    await continueAfterRecoveryCodes(page);

    await page.waitForURL(`${stack.partnerApp.url}/me`);
    await expectHeading(page, 'Signed in');
    expect(await claim(page, 'email')).toBe('demo@summit.test');
    expect(await claim(page, 'partner_code')).toBe('demo-partner');
    expect(await claim(page, 'iss')).toBe(`${stack.keycard.origin('summit')}/oidc`);
    expect(await claim(page, 'amr')).toMatch(/otp/);

    // Another click signs a fresh partner token (a new jti, so no replay) and the device is not
    // trusted: the portal asks for a code before handing back again.
    await page.goto(`${stack.partnerApp.url}/`);
    await openHotelPortal(page, 'Summit');
    await page.waitForURL(`${stack.keycard.origin('summit')}/mfa`);
    await expectHeading(page, 'Enter your verification code');
    nextTimeStep(stack.keycard);
    await enterCode(page, await totpCode(stack.keycard, secret));
    await page.waitForURL(`${stack.partnerApp.url}/me`);
    expect(await claim(page, 'email')).toBe('demo@summit.test');
    await page.context().close();
  });
});
