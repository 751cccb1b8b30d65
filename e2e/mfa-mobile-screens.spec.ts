import { en } from '@keycard/texts';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, newContext } from './support/browser.ts';
import {
  analyticsEvents,
  continueAfterRecoveryCodes,
  createTestUser,
  expectHeading,
  setTenantSettings,
  signIn,
  stubDefaultRedirect,
} from './support/mfa.ts';
import {
  approve,
  deny,
  openDeviceApp,
  pair,
  useMobileMfaStack,
  waitForChallenge,
} from './support/mobile-app.ts';

const texts = en.mfa.mobile;
const appHome = /^http:\/\/localhost:3001\/(\?user-device-token=[\w-]+)?$/;

/**
 * The portal's mobile-app MFA screens (issue 9, SPEC §2) against the real GraphQL endpoint and
 * the example device app: accessible, readable at 1280 and 375 px (SCREENSHOT_DIR keeps images
 * of each screen for a look), and each outcome on its own screen.
 */
describe('mobile-app MFA screens in the portal (Chromium)', () => {
  const stack = useMobileMfaStack();

  // The partner app first: its registration screen opens, the other factors as alternatives.
  beforeAll(async () => {
    await setTenantSettings(stack.keycard, 'summit', {
      mfa: {
        mode: 'required',
        mandatoryFrom: null,
        trustedDeviceDays: 60,
        methods: ['smmobile', 'totp', 'sms', 'voice'],
      },
    });
  });

  async function portalPage(): Promise<Page> {
    const page = await (await newContext(stack.browser)).newPage();
    await stubDefaultRedirect(page);
    return page;
  }

  /** Checks a screen at both widths: axe clean, no sideways scrolling on a phone. */
  async function checkScreen(page: Page, name: string): Promise<void> {
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: width === 375 ? 800 : 900 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth), name).toBeLessThanOrEqual(
        width,
      );
      if (process.env.SCREENSHOT_DIR) {
        await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/${name}-${width}.png`, fullPage: true });
      }
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await expectAccessible(page, name);
  }

  /** Enrols a device for a new summit user through the portal's screens; answers the user and device page. */
  async function enrol(deviceName: string) {
    const email = await createTestUser(stack.keycard, 'summit');
    const page = await portalPage();
    await page.goto(`${stack.keycard.origin('summit')}/login`);
    await signIn(page, email);
    await page.waitForURL(`${stack.keycard.origin('summit')}/mfa`);
    await expectHeading(page, texts.register.heading);
    await page.getByRole('button', { name: texts.register.start, exact: true }).click();
    await expectHeading(page, texts.waiting.heading);
    const uri = await page.getByLabel(texts.waiting.uriLabel, { exact: true }).inputValue();
    const device = await openDeviceApp(stack.browser, stack.mobileApp);
    await pair(device.page, uri, deviceName);
    await expectHeading(page, texts.done.heading);
    const recoveryCodes = await page
      .getByRole('list', { name: en.mfa.recovery.listLabel })
      .getByRole('listitem')
      .allInnerTexts();
    await continueAfterRecoveryCodes(page);
    await page.waitForURL(appHome);
    await page.context().close();
    return { email, device: device.page, recoveryCodes };
  }

  /** Signs in on a new browser, approving with the number shown; answers the signed-in page. */
  async function signInApproving(email: string, device: Page, trust = false): Promise<Page> {
    const page = await portalPage();
    await page.goto(`${stack.keycard.origin('summit')}/login`);
    await signIn(page, email);
    await expectHeading(page, texts.verify.heading);
    if (trust) await page.getByLabel(/^Trust this device/).check();
    const shown = Number(await page.getByTestId('mfa-number').innerText());
    await waitForChallenge(device);
    await approve(device, shown);
    await page.waitForURL(appHome);
    return page;
  }

  it('registers the partner app first, with the other factors as alternatives, then approves a sign-in by number', async () => {
    const email = await createTestUser(stack.keycard, 'summit');
    const page = await portalPage();
    await page.goto(`${stack.keycard.origin('summit')}/login`);
    await signIn(page, email);
    await page.waitForURL(`${stack.keycard.origin('summit')}/mfa`);
    await expectHeading(page, texts.register.heading);
    expect(await page.getByRole('heading', { name: texts.register.alternatives }).count()).toBe(1);
    expect(await page.getByRole('button', { name: texts.register.useApp, exact: true }).count()).toBe(1);
    await checkScreen(page, 'mobile-register');

    await page.getByRole('button', { name: texts.register.start, exact: true }).click();
    await expectHeading(page, texts.waiting.heading);
    const uri = await page.getByLabel(texts.waiting.uriLabel, { exact: true }).inputValue();
    expect(uri).toMatch(/^keycard-mfa:\/\/enrol\?/);
    expect(await page.getByRole('img', { name: texts.waiting.qrAlt }).count()).toBe(1);
    await expect
      .poll(() => page.locator('[data-countdown]').getAttribute('data-countdown'))
      .toMatch(/^1\d\d$/);
    await checkScreen(page, 'mobile-waiting');

    // Back asks first; "Keep waiting" stays on the same code.
    await page.getByRole('button', { name: en.mfa.common.back, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: texts.waiting.confirm.heading });
    await dialog.waitFor();
    await checkScreen(page, 'mobile-waiting-back');
    await dialog.getByRole('button', { name: texts.waiting.confirm.cancel, exact: true }).click();
    expect(await page.getByLabel(texts.waiting.uriLabel, { exact: true }).inputValue()).toBe(uri);

    const device = await openDeviceApp(stack.browser, stack.mobileApp);
    await pair(device.page, uri, 'Test phone');
    await expectHeading(page, texts.done.heading);
    await checkScreen(page, 'mobile-done');
    await continueAfterRecoveryCodes(page);
    await page.waitForURL(appHome);

    // The next sign-in, from another browser: the number to select, then approval on the device.
    const other = await portalPage();
    await other.goto(`${stack.keycard.origin('summit')}/login`);
    await signIn(other, email);
    await expectHeading(other, texts.verify.heading);
    const shown = Number(await other.getByTestId('mfa-number').innerText());
    expect(await other.getByText(`Select ${shown} in the app`).isVisible()).toBe(true);
    expect(await other.getByText('We sent a request to the mobile app on Test phone.').isVisible()).toBe(
      true,
    );
    await checkScreen(other, 'mobile-number');
    const challenge = await waitForChallenge(device.page);
    expect(challenge.numbers).toContain(shown);
    await approve(device.page, shown);
    await other.waitForURL(appHome);

    // Sent with keepalive as the page moves on: they may land a moment later.
    const mobileEvents = async () =>
      (await analyticsEvents(stack.keycard, 'summit'))
        .filter((event) => event.deliveryType === 'smmobile')
        .map((event) => event.event);
    await expect
      .poll(mobileEvents)
      .toEqual(expect.arrayContaining(['mfa_register', 'mfa_verification_required', 'mfa_success']));
  });

  it('shows a rejected sign-in with customer service, then the back-off counted down before a new request', async () => {
    const { email, device } = await enrol('Deny phone');
    const page = await portalPage();
    await page.goto(`${stack.keycard.origin('summit')}/login`);
    await signIn(page, email);
    await expectHeading(page, texts.verify.heading);
    await waitForChallenge(device);
    await deny(device);
    await expectHeading(page, texts.failure.rejectedHeading);
    expect(await page.getByText(texts.failure.rejectedBody).isVisible()).toBe(true);
    const retry = page.getByRole('button', { name: texts.verify.newRequest, exact: true });
    expect(await retry.isDisabled()).toBe(true);
    const left = Number(await page.locator('[data-countdown]').getAttribute('data-countdown'));
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(10);
    await checkScreen(page, 'mobile-rejected');
    await expect.poll(() => retry.isEnabled(), { timeout: 15_000 }).toBe(true);
    expect(await page.getByText(texts.failure.retryNow).isVisible()).toBe(true);

    // A wrong number on the next request: FAILED, and a longer wait.
    await retry.click();
    await expectHeading(page, texts.verify.heading);
    const shown = Number(await page.getByTestId('mfa-number').innerText());
    const { numbers } = await waitForChallenge(device);
    await approve(device, numbers.find((n) => n !== shown)!);
    await expectHeading(page, texts.failure.failedHeading);
    await checkScreen(page, 'mobile-failed');
  });

  it('counts a setup that was never connected down to the setup error screen', async () => {
    const email = await createTestUser(stack.keycard, 'summit');
    const page = await portalPage();
    await page.goto(`${stack.keycard.origin('summit')}/login`);
    await signIn(page, email);
    await expectHeading(page, texts.register.heading);
    await page.getByRole('button', { name: texts.register.start, exact: true }).click();
    await expectHeading(page, texts.waiting.heading);
    stack.keycard.clock.advance(121_000);
    try {
      await expectHeading(page, texts.setupError.timeoutHeading);
      expect(await page.getByRole('link', { name: en.mfa.common.logOut, exact: true }).count()).toBe(1);
      await checkScreen(page, 'mobile-setup-timeout');
    } finally {
      // Back to the real time, also when this test fails: device proofs carry the device's own
      // clock, and the next tests' pairings would be refused as from the past.
      stack.keycard.clock.offset = 0;
    }
  });

  it('shows the device on the manage screen, replaces it after an approval, and resets MFA with a recovery code', async () => {
    const { email, device } = await enrol('Old phone');
    // A trusted browser signs in without a check: replacing the device then needs one.
    const page = await signInApproving(email, device, true);
    await page.goto(`${stack.keycard.origin('summit')}/logout`);
    await page.waitForURL(/\/login/);
    await signIn(page, email);
    await page.waitForURL(appHome);

    await page.goto(`${stack.keycard.origin('summit')}/mfa`);
    await expectHeading(page, en.mfa.manage.heading);
    expect(await page.getByText('You approve sign-ins in the mobile app on Old phone.').isVisible()).toBe(
      true,
    );
    await checkScreen(page, 'mobile-manage');
    await page.getByRole('button', { name: texts.manage.replace, exact: true }).click();
    await expectHeading(page, texts.replace.heading);
    await checkScreen(page, 'mobile-replace-approve');
    await page.getByRole('button', { name: texts.replace.send, exact: true }).click();
    const shown = Number(await page.getByTestId('mfa-number').innerText());
    await waitForChallenge(device);
    await approve(device, shown);
    await expectHeading(page, texts.waiting.heading);
    const uri = await page.getByLabel(texts.waiting.uriLabel, { exact: true }).inputValue();
    const newDevice = await openDeviceApp(stack.browser, stack.mobileApp);
    await pair(newDevice.page, uri, 'New phone');
    await expectHeading(page, texts.done.heading);
    const recoveryCodes = await page
      .getByRole('list', { name: en.mfa.recovery.listLabel })
      .getByRole('listitem')
      .allInnerTexts();
    await continueAfterRecoveryCodes(page);
    await page.waitForURL(appHome);

    // Moments after that check: the next phone could be connected at once; back asks first.
    await page.goto(`${stack.keycard.origin('summit')}/mfa`);
    await expectHeading(page, en.mfa.manage.heading);
    expect(await page.getByText('You approve sign-ins in the mobile app on New phone.').isVisible()).toBe(
      true,
    );
    await page.getByRole('button', { name: texts.manage.replace, exact: true }).click();
    await expectHeading(page, texts.replace.heading);
    await checkScreen(page, 'mobile-replace-fresh');
    await page.getByRole('button', { name: texts.replace.connect, exact: true }).click();
    await expectHeading(page, texts.waiting.heading);
    await page.getByRole('button', { name: en.mfa.common.back, exact: true }).click();
    await page
      .getByRole('dialog', { name: texts.waiting.confirm.heading })
      .getByRole('button', { name: texts.waiting.confirm.confirm, exact: true })
      .click();
    await expectHeading(page, en.mfa.manage.heading);

    // Reset: the phone is the default proof; a recovery code is the other way.
    await page.getByRole('link', { name: en.mfa.manage.reset, exact: true }).click();
    await expectHeading(page, en.mfa.reset.heading);
    expect(await page.getByRole('button', { name: texts.reset.send, exact: true }).count()).toBe(1);
    await checkScreen(page, 'mobile-reset');
    await page.getByRole('button', { name: en.mfa.verify.useRecovery, exact: true }).click();
    await page.getByLabel(en.mfa.verify.recoveryLabel, { exact: true }).fill(recoveryCodes[0]!);
    await page.getByRole('button', { name: en.mfa.reset.confirm, exact: true }).click();
    await expectHeading(page, en.mfa.reset.done.heading);
    await expect
      .poll(async () =>
        (await analyticsEvents(stack.keycard, 'summit')).some(
          (event) => event.event === 'mfa_reset' && event.deliveryType === 'smmobile',
        ),
      )
      .toBe(true);
  });

  it('tells a second sign-in that another is waiting, and counts the back-off down after a reload', async () => {
    const { email, device } = await enrol('Busy phone');
    const first = await portalPage();
    await first.goto(`${stack.keycard.origin('summit')}/login`);
    await signIn(first, email);
    await first.getByTestId('mfa-number').waitFor();

    const second = await portalPage();
    await second.goto(`${stack.keycard.origin('summit')}/login`);
    await signIn(second, email);
    await expectHeading(second, texts.verify.heading);
    await expect.poll(() => second.getByRole('alert').innerText()).toBe(texts.errors.challengePending);
    expect(await second.getByRole('button', { name: texts.verify.newRequest, exact: true }).count()).toBe(1);
    await checkScreen(second, 'mobile-pending-elsewhere');

    await waitForChallenge(device);
    await deny(device);
    await expectHeading(first, texts.failure.rejectedHeading);
    // Asking again during the back-off: RATE_LIMITED, with the server's seconds counted down.
    await first.reload();
    await expectHeading(first, texts.failure.rateLimitedHeading);
    const left = Number(await first.locator('[data-countdown]').getAttribute('data-countdown'));
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(10);
    expect(await first.getByRole('button', { name: texts.verify.newRequest, exact: true }).isDisabled()).toBe(
      true,
    );
    await checkScreen(first, 'mobile-rate-limited');
  });

  it('retries a GraphQL call at most twice on a 5xx answer (SPEC §9), then says so', async () => {
    const email = await createTestUser(stack.keycard, 'summit');
    const page = await portalPage();
    await page.goto(`${stack.keycard.origin('summit')}/login`);
    await signIn(page, email);
    await expectHeading(page, texts.register.heading);

    let calls = 0;
    let failures = Number.POSITIVE_INFINITY;
    await page.route('**/api/mobile-beef/graphql', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      calls += 1;
      if (calls <= failures) return route.fulfill({ status: 503, body: 'unavailable' });
      return route.continue();
    });
    await page.getByRole('button', { name: texts.register.start, exact: true }).click();
    await expect.poll(() => page.getByRole('alert').innerText()).toBe(en.mfa.errors.unknown);
    expect(calls).toBe(3);

    // Two failures, then the real answer: the third attempt sets the enrolment up.
    calls = 0;
    failures = 2;
    await page.getByRole('button', { name: texts.register.start, exact: true }).click();
    await page.getByLabel(texts.waiting.uriLabel, { exact: true }).waitFor();
    expect(calls).toBe(3);
  });

  it('lists the partner app among the offered methods while MFA is recommended, with skip and the days left', async () => {
    await setTenantSettings(stack.keycard, 'seaside', {
      mfa: {
        mode: 'recommended',
        mandatoryFrom: stack.keycard.clock.now() + 10 * 24 * 60 * 60_000 - 60_000,
        trustedDeviceDays: 60,
        methods: ['totp', 'smmobile'],
      },
    });
    const email = await createTestUser(stack.keycard, 'seaside');
    const page = await portalPage();
    await page.goto(`${stack.keycard.origin('seaside')}/login`);
    await signIn(page, email);
    await expectHeading(page, en.mfa.choose.heading);
    // Only what the tenant offers, in its order: no phone here.
    const options = page.locator('.kc-mfa-option-title');
    expect(await options.allInnerTexts()).toEqual([en.mfa.choose.app, texts.choose.title]);
    await checkScreen(page, 'mobile-choose');
    await page.getByRole('button', { name: new RegExp(`^${texts.choose.title}`) }).click();
    await expectHeading(page, texts.register.heading);
    expect(await page.getByText('Two-step verification becomes mandatory in 10 days.').isVisible()).toBe(
      true,
    );
    expect(await page.getByRole('button', { name: texts.register.usePhone, exact: true }).count()).toBe(0);
    await checkScreen(page, 'mobile-register-optional');
    await page.getByRole('button', { name: 'Skip for now (10 days left)', exact: true }).click();
    await page
      .getByRole('dialog', { name: en.mfa.reminder.confirm.heading })
      .getByRole('button', { name: en.mfa.reminder.confirm.confirm, exact: true })
      .click();
    await page.waitForURL(appHome);
  });
});
