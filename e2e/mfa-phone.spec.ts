import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launchBrowser, newContext } from './support/browser.ts';
import { type Keycard, startKeycard } from './support/keycard.ts';
import {
  continueAfterRecoveryCodes,
  createTestUser,
  enterCode,
  expectHeading,
  lastPhoneCode,
  pasteCode,
  signIn,
  spaced,
  stubDefaultRedirect,
} from './support/mfa.ts';

const appHome = /^http:\/\/localhost:3001\/(\?user-device-token=[\w-]+)?$/;

describe('SMS and voice codes end to end, through the outbox page (Chromium)', () => {
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
    // The resend countdown runs on the page's clock: the test moves it instead of waiting.
    await page.clock.install();
    await stubDefaultRedirect(page);
    return page;
  }

  /** Both clocks past the resend interval: the server's (enforces it) and the page's (shows it). */
  async function pastResendInterval(page: Page) {
    keycard.clock.advance(31_000);
    await page.clock.fastForward(31_000);
  }

  /** Reads the newest message for a number from the local outbox page, as a developer would. */
  async function codeFromOutboxPage(page: Page, channel: 'SMS' | 'VOICE'): Promise<string> {
    const outbox = await page.context().newPage();
    await outbox.goto(`http://localhost:${keycard.port}/_dev/outbox`);
    const first = await outbox
      .getByRole('link', { name: new RegExp(`^${channel}: `) })
      .first()
      .innerText();
    await outbox.close();
    const code =
      first.match(/#?(\d{6})/)?.[1] ??
      first
        .match(/(\d), (\d), (\d), (\d), (\d), (\d)/)
        ?.slice(1)
        .join('');
    expect(code, first).toMatch(/^\d{6}$/);
    return code!;
  }

  async function toPhoneSetup(page: Page, email: string) {
    await page.goto(`${keycard.origin('summit')}/login`);
    await signIn(page, email);
    await expectHeading(page, 'Set up two-step verification');
    await page.getByRole('button', { name: 'Text message or voice call' }).click();
    await expectHeading(page, 'Add your phone number');
  }

  it('registers a phone by SMS: number checks, code from the outbox, exhausted attempts, resend after the countdown', async () => {
    const email = await createTestUser(keycard, 'summit');
    const page = await freshPage();
    await toPhoneSetup(page, email);
    expect(await page.getByText('Step 1 of 3').isVisible()).toBe(true);
    await expectAccessible(page, 'phone step 1');

    // The country is picked, not typed: an en-GB browser starts on the United Kingdom.
    expect(await page.getByLabel('Country code', { exact: true }).inputValue()).toBe('GB');
    await page.getByLabel('Country code', { exact: true }).selectOption('DE');
    await page.getByLabel('Phone number', { exact: true }).fill('12');
    await page.getByRole('button', { name: 'Send code' }).click();
    await expect.poll(() => page.getByRole('alert').innerText()).toBe('This number is invalid');
    expect(await page.getByLabel('Phone number', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await expectAccessible(page, 'phone step 1 with an error');

    await page.getByLabel('Phone number', { exact: true }).fill('0151 11112222');
    await page.getByRole('button', { name: 'Send code' }).click();
    await expectHeading(page, 'Enter the code we sent you');
    expect(await page.getByText('Step 2 of 3').isVisible()).toBe(true);
    expect(
      await page.getByText(/^We sent a text message with a 6-digit code to \+49 •+22\.$/).isVisible(),
    ).toBe(true);
    // The countdown the server enforces, visible, and the resend controls waiting for it.
    await expect
      .poll(() => page.getByText(/You can request a new code in \d+ seconds\./).innerText())
      .toMatch(/in (30|29) seconds/);
    expect(await page.getByRole('button', { name: 'Resend by SMS' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Call me back' }).isDisabled()).toBe(true);
    await page.clock.fastForward(10_000);
    await expect
      .poll(() => page.getByText(/You can request a new code in \d+ seconds\./).innerText())
      .toMatch(/in (20|19) seconds/);
    await expectAccessible(page, 'phone step 2');

    const code = await codeFromOutboxPage(page, 'SMS');
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 1; i <= 5; i++) {
      await enterCode(page, wrong);
      await expect
        .poll(() => page.getByRole('alert').innerText())
        .toBe(
          i < 5
            ? 'Invalid code. Please try again.'
            : 'You have exceeded the verification attempts for this code. Please request a new code.',
        );
    }
    // Even the right code no longer works: a new one must be requested.
    await enterCode(page, code);
    await expect
      .poll(() => page.getByRole('alert').innerText())
      .toBe('You have exceeded the verification attempts for this code. Please request a new code.');

    await pastResendInterval(page);
    await expect.poll(() => page.getByRole('button', { name: 'Resend by SMS' }).isEnabled()).toBe(true);
    await page.getByRole('button', { name: 'Resend by SMS' }).click();
    await expect
      .poll(() => page.getByText('A new code is on its way.', { exact: false }).isVisible())
      .toBe(true);
    await enterCode(page, await codeFromOutboxPage(page, 'SMS'));
    await expectHeading(page, 'Your phone is set up');
    expect(await page.getByText('Step 3 of 3').isVisible()).toBe(true);
    await expectAccessible(page, 'phone step 3 (recovery codes)');
    await continueAfterRecoveryCodes(page);
    await page.waitForURL(appHome);
    await page.context().close();
  });

  it('registers a landline by voice, then signs in with a call; call-back waits for its countdown', async () => {
    const email = await createTestUser(keycard, 'summit');
    const page = await freshPage();
    await toPhoneSetup(page, email);
    await page.getByLabel('Voice call').check();
    expect(
      await page
        .getByText('For voice calls, use a number that reaches you directly, not through a switchboard.')
        .isVisible(),
    ).toBe(true);
    await page.getByLabel('Country code', { exact: true }).selectOption('DE');
    await page.getByLabel('Phone number', { exact: true }).fill('030 2345678');
    await page.getByRole('button', { name: 'Call me' }).click();
    await expectHeading(page, 'Enter the code we sent you');
    expect(await page.getByText(/^We are calling \+49 •+78 to read out a 6-digit code\.$/).isVisible()).toBe(
      true,
    );
    const spoken = await lastPhoneCode(keycard, '+49302345678');
    expect(spoken.channel).toBe('voice');
    expect(spoken.text).toMatch(/Your verification code is: \d, \d, \d, \d, \d, \d\./);
    expect(await codeFromOutboxPage(page, 'VOICE')).toBe(spoken.code);
    await enterCode(page, spoken.code);
    await expectHeading(page, 'Your phone is set up');
    await continueAfterRecoveryCodes(page);
    await page.waitForURL(appHome);
    await page.context().close();

    // Next sign-in on another device: the call comes by itself, the code passes MFA.
    keycard.clock.advance(31_000);
    const login = await freshPage();
    await login.goto(`${keycard.origin('summit')}/login`);
    await signIn(login, email);
    await expectHeading(login, 'Enter your verification code');
    await expect
      .poll(() => login.getByText(/We are calling \+49 •+78 to read out a 6-digit code\./).isVisible())
      .toBe(true);
    await expectAccessible(login, 'enter code at login (voice)');
    expect(await login.getByRole('button', { name: 'Call me back' }).isDisabled()).toBe(true);
    await pastResendInterval(login);
    // A landline takes no SMS: asking for one says so.
    await login.getByRole('button', { name: 'Resend by SMS' }).click();
    await expect
      .poll(() => login.getByRole('alert').innerText())
      .toBe('This number cannot receive text messages. Choose a voice call instead.');
    await login.getByRole('button', { name: 'Call me back' }).click();
    await expect.poll(() => login.getByText(/A new code is on its way\./).isVisible()).toBe(true);
    await enterCode(login, (await lastPhoneCode(keycard, '+49302345678')).code);
    await login.waitForURL(appHome);
    await login.context().close();
  });

  it('signs in with an SMS code sent on arrival at the code screen', async () => {
    const email = await createTestUser(keycard, 'summit');
    const page = await freshPage();
    await toPhoneSetup(page, email);
    await page.getByLabel('Country code', { exact: true }).selectOption('GB');
    await page.getByLabel('Phone number', { exact: true }).fill('07700 100200');
    await page.getByRole('button', { name: 'Send code' }).click();
    await expectHeading(page, 'Enter the code we sent you');
    await enterCode(page, (await lastPhoneCode(keycard, '+447700100200')).code);
    await continueAfterRecoveryCodes(page);
    await page.waitForURL(appHome);
    await page.context().close();

    keycard.clock.advance(31_000);
    const login = await freshPage();
    await login.goto(`${keycard.origin('summit')}/login`);
    await signIn(login, email);
    await expectHeading(login, 'Enter your verification code');
    await expect
      .poll(() => login.getByText(/We sent a text message with a 6-digit code to \+44 •+00\./).isVisible())
      .toBe(true);
    // Pasted from the text message with a space in the middle.
    await pasteCode(login, spaced((await lastPhoneCode(keycard, '+447700100200')).code));
    await login.waitForURL(appHome);
    await login.context().close();
  });
});
