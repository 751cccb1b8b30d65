import { enrolmentUri } from '@keycard/contract/mobile-mfa';
import { en } from '@keycard/texts';
import type { Page } from 'playwright-core';
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { expectAccessible, newContext } from './support/browser.ts';
import {
  continueAfterRecoveryCodes,
  createTestUser,
  expectHeading,
  signIn,
  stubDefaultRedirect,
} from './support/mfa.ts';
import {
  approve,
  deny,
  deviceApp,
  openDeviceApp,
  pair,
  useMobileMfaStack,
  waitForChallenge,
} from './support/mobile-app.ts';

const texts = en.mfa.mobile;
/** The tenant's default redirect (stubbed), with or without the user-device-token parameter. */
const appHome = /^http:\/\/localhost:3001\/(\?user-device-token=[\w-]+)?$/;

describe('example device app on its own (Chromium)', () => {
  const stack = useMobileMfaStack();

  it('offers pairing with labelled fields, readable at 375 px, and refuses a link that is not an enrolment link', async () => {
    const { context, page } = await openDeviceApp(stack.browser, stack.mobileApp);
    await page.setViewportSize({ width: 375, height: 740 });
    await page.getByRole('heading', { name: 'Pair with your account', exact: true }).waitFor();
    expect(await page.getByLabel(deviceApp.deviceNameLabel, { exact: true }).inputValue()).toMatch(
      /^Browser on /,
    );
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await expectAccessible(page, 'device app: pairing');

    await page.getByLabel(deviceApp.uriLabel, { exact: true }).fill('https://example.com/not-a-link');
    await page.getByRole('button', { name: deviceApp.pair, exact: true }).click();
    await expect.poll(() => page.getByRole('alert').innerText()).toMatch(/^This is not an enrolment link/);
    await context.close();
  });

  it('reads the enrolment link from a QR code image, PNG or SVG as the portal draws it', async () => {
    const { context, page } = await openDeviceApp(stack.browser, stack.mobileApp);
    const uri = enrolmentUri({
      endpoint: `${stack.keycard.origin('summit')}/api/mobile-beef/graphql`,
      token: 'aB3-dE5_fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5zA7bC',
      tenant: 'summit',
    });
    const field = page.getByLabel(deviceApp.uriLabel, { exact: true });
    const upload = page.getByLabel(deviceApp.qrFileLabel, { exact: true });

    await upload.setInputFiles({ name: 'qr.png', mimeType: 'image/png', buffer: await QRCode.toBuffer(uri) });
    await expect.poll(() => field.inputValue()).toBe(uri);

    await field.fill('');
    const svg = await QRCode.toString(uri, { type: 'svg', margin: 2 });
    await upload.setInputFiles({ name: 'qr.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(svg) });
    await expect.poll(() => field.inputValue()).toBe(uri);
    await context.close();
  });
});

describe('mobile-app MFA with the example device app (two Chromium contexts: portal and phone)', () => {
  const stack = useMobileMfaStack();

  async function portalPage(): Promise<Page> {
    const page = await (await newContext(stack.browser)).newPage();
    await stubDefaultRedirect(page);
    return page;
  }

  /** Signs in on summit (MFA required) up to the MFA screen. */
  async function signInToSummit(email: string): Promise<Page> {
    const page = await portalPage();
    await page.goto(`${stack.keycard.origin('summit')}/login`);
    await signIn(page, email);
    await page.waitForURL(`${stack.keycard.origin('summit')}/mfa`);
    return page;
  }

  /** The number the portal asks the user to select on the phone. */
  async function portalNumber(page: Page): Promise<number> {
    const instruction = page.getByText(/^Select \d{2} in the app$/);
    await instruction.waitFor({ timeout: 20_000 });
    return Number((await instruction.innerText()).match(/\d{2}/)?.[0]);
  }

  it('enrols the device app from the setup link, then approves a sign-in with the right number and denies another', async () => {
    const email = await createTestUser(stack.keycard, 'summit');
    const portal = await signInToSummit(email);
    await expectHeading(portal, en.mfa.choose.heading);
    await portal.getByRole('button', { name: new RegExp(`^${texts.choose.title}`) }).click();
    await expectHeading(portal, texts.register.heading);
    await portal.getByRole('button', { name: texts.register.start, exact: true }).click();
    await expectHeading(portal, texts.waiting.heading);
    const setupLink = portal.getByLabel(texts.waiting.uriLabel, { exact: true });
    await expect.poll(() => setupLink.inputValue(), { timeout: 15_000 }).toMatch(/^keycard-mfa:\/\/enrol\?/);
    const uri = await setupLink.inputValue();

    const phone = await openDeviceApp(stack.browser, stack.mobileApp);
    await pair(phone.page, uri, 'Test phone');
    expect(await phone.page.locator('#paired-summary').innerText()).toBe(
      `${email} at Summit, on this device (“Test phone”).`,
    );
    await expectAccessible(phone.page, 'device app: paired, waiting');

    // The portal learns of the pairing over its subscription and shows the recovery codes.
    await expectHeading(portal, texts.done.heading);
    expect(await portal.getByText(texts.done.body.replace('{{device}}', 'Test phone')).isVisible()).toBe(
      true,
    );
    await continueAfterRecoveryCodes(portal);
    await portal.waitForURL(appHome);
    await portal.context().close();

    // A new sign-in: the portal shows a number, the phone the request with three numbers.
    const second = await signInToSummit(email);
    await expectHeading(second, texts.verify.heading);
    const number = await portalNumber(second);
    const request = await waitForChallenge(phone.page);
    expect(request.numbers).toHaveLength(3);
    expect(request.numbers).toContain(number);
    expect(request.details).toMatchObject({ Tenant: 'Summit', Account: email });
    expect(request.details['IP address']).toMatch(/127\.0\.0\.1|::1/);
    expect(request.details.Browser).toMatch(/Chrome/);
    expect(await phone.page.getByRole('status').innerText()).toBe(
      `New sign-in request for ${email} at Summit. Pick the number shown on the sign-in screen.`,
    );
    await expectAccessible(phone.page, 'device app: a sign-in request');
    expect(await approve(phone.page, number)).toBe('Approved: the sign-in continues on the other screen.');
    await second.waitForURL(appHome, { timeout: 20_000 });
    await second.context().close();

    // Another sign-in, denied on the phone: the portal says it was rejected.
    const third = await signInToSummit(email);
    await expectHeading(third, texts.verify.heading);
    await portalNumber(third);
    await waitForChallenge(phone.page);
    expect(await deny(phone.page)).toBe('Denied: the sign-in was refused (REJECTED).');
    await expectHeading(third, texts.failure.rejectedHeading);
    await third.context().close();
    await phone.context.close();
  });
});
