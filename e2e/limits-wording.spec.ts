import { de } from '@keycard/texts/de';
import { en, type Texts } from '@keycard/texts/en';
import { th } from '@keycard/texts/th';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { roundWait, waitInWords } from '../apps/portal/src/lib/duration.ts';
import { createUser } from '../apps/server/src/features/accounts/user.repository.ts';
import { expectAccessible } from './support/browser.ts';
import { loginWithPassword } from './support/login.ts';
import {
  continueAfterRecoveryCodes,
  createTestUser,
  enterCode,
  expectHeading,
  lastPhoneCode,
  password,
  signIn,
  stubDefaultRedirect,
} from './support/mfa.ts';
import { useSignInStack } from './support/stack.ts';

describe('waits in words (the portal helper, with the ICU data browsers ship)', () => {
  it('rounds up, seconds only under a minute, minutes up to 90, then hours and days', () => {
    expect(
      [1, 45, 59, 60, 61, 849, 900, 3599, 3600, 4500, 5400, 5401, 7200, 172_800].map((s) => roundWait(s)),
    ).toEqual([
      { value: 1, unit: 'second' },
      { value: 45, unit: 'second' },
      { value: 59, unit: 'second' },
      { value: 1, unit: 'minute' },
      { value: 2, unit: 'minute' },
      { value: 15, unit: 'minute' },
      { value: 15, unit: 'minute' },
      { value: 1, unit: 'hour' },
      { value: 1, unit: 'hour' },
      { value: 75, unit: 'minute' },
      { value: 90, unit: 'minute' },
      { value: 2, unit: 'hour' },
      { value: 2, unit: 'hour' },
      { value: 2, unit: 'day' },
    ]);
  });

  it('says the wait in each of the eight languages', () => {
    const words = (['en', 'de', 'es', 'fr', 'id', 'it', 'pt', 'th'] as const).map((locale) =>
      waitInWords(840, locale),
    );
    expect(words).toEqual([
      'in 14 minutes',
      'in 14 Minuten',
      'dentro de 14 minutos',
      'dans 14 minutes',
      'dalam 14 menit',
      'tra 14 minuti',
      'dentro de 14 minutos',
      'ในอีก 14 นาที',
    ]);
  });
});

/**
 * A refused attempt says which limit refused it — the network's or the account's — and when
 * to try again, in words; nothing the limit refuses is offered meanwhile (docs/security.md).
 */
describe('limit wording in the portal (Chromium)', () => {
  // Client addresses come from X-Forwarded-For (as behind a load balancer): each test's browser
  // gets one of its own, so the per-address limit (3 a minute here) is each test's alone.
  const stack = useSignInStack({
    env: { TRUST_PROXY: 'true', LOGIN_IP_LIMIT_PER_MINUTE: '3', LOGIN_MAX_FAILURES: '2' },
  });
  let client = 0;

  async function browserFrom(locale: string): Promise<{ context: BrowserContext; page: Page }> {
    client += 1;
    const context = await stack.browser.newContext({
      locale,
      extraHTTPHeaders: { 'x-forwarded-for': `10.44.0.${client}` },
    });
    const page = await context.newPage();
    // Countdowns run on the page's clock: the test moves it instead of waiting.
    await page.clock.install();
    await stubDefaultRedirect(page);
    return { context, page };
  }

  /**
   * Uses up this browser's address allowance with wrong guesses at other addresses, sent by
   * the page itself (so from its address), before the visible attempt.
   */
  async function exhaustAddress(page: Page, tenant: string) {
    await page.goto(`${stack.keycard.origin(tenant)}/login`);
    const statuses = await page.evaluate(async (domain) => {
      const answers: number[] = [];
      for (let i = 0; i < 3; i++) {
        const answer = await fetch('/api/login', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            email: `someone-${i}@${domain}`,
            password: 'Wrong-guess-1',
            state: 'state-0123456789abcdef',
          }),
        });
        answers.push(answer.status);
      }
      return answers;
    }, `${tenant}.test`);
    expect(statuses).toEqual([401, 401, 401]);
  }

  async function toPasswordStep(page: Page, tenant: string, email: string, texts: Texts = en) {
    await page.goto(`${stack.keycard.origin(tenant)}/login`);
    await page.getByLabel(texts.login.email.label, { exact: true }).fill(email);
    await page.getByRole('button', { name: texts.login.email.submit }).click();
    await expectHeading(page, texts.login.password.heading);
  }

  async function submitPassword(page: Page, secret: string, texts: Texts = en) {
    await page.getByLabel(texts.login.password.label, { exact: true }).fill(secret);
    await page.getByRole('button', { name: texts.login.password.submit }).click();
  }

  const alertText = (page: Page) => page.getByRole('alert').innerText();

  it('says "too many attempts from your network", not "account locked", and offers the login again when the wait ends', async () => {
    const email = await createTestUser(stack.keycard, 'grand-hotel');
    const { context, page } = await browserFrom('en-GB');
    await exhaustAddress(page, 'grand-hotel');
    await toPasswordStep(page, 'grand-hotel', email);
    await submitPassword(page, password);

    await expect
      .poll(() => alertText(page))
      .toMatch(/^Too many attempts from your network\. Try again in \d+ seconds?\.$/);
    // The 20 s window, less what the test took since the guesses (seconds on a busy machine).
    const first = Number((await alertText(page)).match(/in (\d+) second/)?.[1]);
    expect(first).toBeGreaterThanOrEqual(4);
    expect(first).toBeLessThanOrEqual(20);
    expect(await page.getByText('locked', { exact: false }).count()).toBe(0);
    const logIn = page.getByRole('button', { name: 'Log in' });
    expect(await logIn.isDisabled()).toBe(true);
    expect(page.url()).toBe(`${stack.keycard.origin('grand-hotel')}/login/password`);
    await expectAccessible(page, 'address limit (en)');

    // The countdown ticks in words; at its end the login is offered again, and works.
    const half = Math.floor(first / 2);
    await page.clock.fastForward(half * 1000);
    const left = first - half;
    await expect
      .poll(() => alertText(page))
      .toMatch(new RegExp(`Try again in (${left}|${left - 1}) seconds?\\.$`));
    stack.keycard.clock.advance(21_000);
    await page.clock.fastForward(11_000);
    await expect.poll(() => page.getByText('You can try again now.').isVisible()).toBe(true);
    expect(await logIn.isEnabled()).toBe(true);
    await submitPassword(page, password);
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
    await context.close();
  });

  it('says in German, on the account-disabled page, that the account is locked, for how long in minutes, and offers the reset', async () => {
    const email = await createTestUser(stack.keycard, 'grand-hotel');
    const { context, page } = await browserFrom('de-DE');
    await toPasswordStep(page, 'grand-hotel', email, de);
    await submitPassword(page, 'Wrong-password-1', de);
    await expect.poll(() => alertText(page)).toBe(de.login.errors.invalidCredentials);
    await submitPassword(page, 'Wrong-password-2', de);

    // SPEC §8: the account's lockout goes to the account-disabled page, which tells the wait.
    await page.waitForURL(`${stack.keycard.origin('grand-hotel')}/error/account-disabled/`);
    const sentence =
      'Dieses Konto ist zu Ihrer Sicherheit gesperrt. Versuchen Sie es in 15 Minuten erneut oder setzen Sie Ihr Passwort zurück.';
    await expect.poll(() => alertText(page)).toBe(sentence);
    const reset = page.getByRole('link', { name: 'Passwort zurücksetzen' });
    expect(await reset.getAttribute('href')).toBe(`/reset-password/?email=${encodeURIComponent(email)}`);
    await expectAccessible(page, 'account lock (de)');
    // The long German sentence at 320 px: it wraps, nothing is cut off, still accessible.
    await page.setViewportSize({ width: 320, height: 640 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await expectAccessible(page, 'account lock (de, 320 px)');

    // A minute later the words follow the clock: "in 14 Minuten". The ticking phrase sits in an
    // element of its own that screen readers do not re-announce (the alert was read once).
    const phrase = page.getByRole('alert').locator('[aria-live="off"]');
    expect(await phrase.innerText()).toBe('in 15 Minuten');
    await page.clock.fastForward(61_000);
    await expect.poll(() => alertText(page)).toContain('Versuchen Sie es in 14 Minuten erneut');
    expect(await phrase.innerText()).toBe('in 14 Minuten');
    await context.close();
  });

  it('says it in Thai, words and all', async () => {
    const email = await createTestUser(stack.keycard, 'seaside');
    const { context, page } = await browserFrom('th-TH');
    await exhaustAddress(page, 'seaside');
    await toPasswordStep(page, 'seaside', email, th);
    await submitPassword(page, password, th);
    await expect
      .poll(() => alertText(page))
      .toMatch(/^มีการพยายามเข้าสู่ระบบจากเครือข่ายของคุณมากเกินไป โปรดลองอีกครั้งในอีก \d+ วินาที$/);
    // The 20 s window, less what the test took since the guesses.
    const left = Number((await alertText(page)).match(/(\d+) วินาที$/)?.[1]);
    expect(left).toBeGreaterThanOrEqual(4);
    expect(left).toBeLessThanOrEqual(20);
    expect(await page.getByRole('button', { name: th.login.password.submit }).isDisabled()).toBe(true);
    await expectAccessible(page, 'address limit (th)');
    await context.close();
  });

  it("says a reset request was refused for the network's requests, counts down, and holds the button until then", async () => {
    const { context, page } = await browserFrom('en-GB');
    await page.goto(`${stack.keycard.origin('grand-hotel')}/reset-password/`);
    // Twenty mail requests from this address in a burst (the limit per 15 minutes).
    const statuses = await page.evaluate(async () =>
      Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          fetch(`/api/user/${encodeURIComponent(`reset-${i}@grand-hotel.test`)}/reset-password`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '{}',
          }).then((answer) => answer.status),
        ),
      ),
    );
    expect(statuses.every((status) => status === 200)).toBe(true);
    await page.getByLabel('E-mail', { exact: true }).fill('someone@grand-hotel.test');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    // The allowance drains one request per 45 s, from when the burst was counted.
    await expect
      .poll(() => alertText(page))
      .toMatch(/^Too many requests from your network\. Please try again in \d+ seconds\.$/);
    const left = Number((await alertText(page)).match(/in (\d+) seconds/)?.[1]);
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(45);
    const send = page.getByRole('button', { name: 'Send reset link' });
    expect(await send.isDisabled()).toBe(true);
    await expectAccessible(page, 'reset request refused (en)');
    // When the wait ends the notice goes and the button is offered again.
    await page.clock.fastForward(46_000);
    await expect.poll(() => page.getByRole('alert').count()).toBe(0);
    expect(await send.isEnabled()).toBe(true);
    await context.close();
  });

  it('says verification mails were sent already, and when another may be asked for, in words', async () => {
    const email = `verify-limit-${Date.now().toString(36)}@grand-hotel.test`;
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
    client += 1;
    const context = await stack.browser.newContext({
      locale: 'en-GB',
      extraHTTPHeaders: { 'x-forwarded-for': `10.44.0.${client}` },
    });
    const page = await context.newPage();
    await page.clock.install();
    await page.goto(`${stack.demoApp.url}/`);
    await page.getByRole('link', { name: 'Sign in with Grand Hotel Group' }).click();
    await page.waitForURL(/\/login\?iid=/);
    await loginWithPassword(page, email, password);
    await expectHeading(page, 'Verify your e-mail');
    // Five mails an hour per account: the sixth request is refused, with its wait.
    for (let i = 0; i < 5; i++) {
      await page.getByRole('button', { name: 'Send verification e-mail' }).click();
      await expectHeading(page, 'Check your inbox');
      await page.getByRole('button', { name: 'I did not receive the e-mail' }).click();
      await expectHeading(page, 'Verify your e-mail');
    }
    const send = page.getByRole('button', { name: 'Send verification e-mail' });
    await send.click();
    await expect
      .poll(() => alertText(page))
      .toMatch(
        /^We have already sent you several verification e-mails\. You can ask for another one in (12|11) minutes\.$/,
      );
    expect(await send.isDisabled()).toBe(true);
    await expectAccessible(page, 'verification mail refused (en)');
    await context.close();
  });

  it('still sends a right but leaked password to the account-disabled page', async () => {
    const email = `leaked-${Date.now().toString(36)}@grand-hotel.test`;
    await createUser(
      stack.keycard.services.db,
      {
        tenantCode: 'grand-hotel',
        email,
        type: 'staff',
        locale: 'en',
        status: 'active',
        password: 'Password1',
      },
      stack.keycard.clock.now(),
    );
    const { context, page } = await browserFrom('en-GB');
    await toPasswordStep(page, 'grand-hotel', email);
    await submitPassword(page, 'Password1');
    await page.waitForURL(`${stack.keycard.origin('grand-hotel')}/error/account-disabled/`);
    await context.close();
  });

  it('holds the authenticator-app setup while checks are locked, said in Thai', async () => {
    const email = await createTestUser(stack.keycard, 'summit');
    const { context, page } = await browserFrom('th-TH');
    await page.goto(`${stack.keycard.origin('summit')}/login`);
    await signIn(page, email, th);
    await expectHeading(page, th.mfa.choose.heading);
    await page.getByRole('button', { name: th.mfa.choose.app }).click();
    await page.getByRole('button', { name: th.mfa.common.next, exact: true }).click();
    await page.getByRole('button', { name: th.mfa.common.next, exact: true }).click();
    await expectHeading(page, th.mfa.totp.code.heading);
    const field = page.getByLabel(th.mfa.common.codeLabel, { exact: true });
    const verify = page.getByRole('button', { name: th.mfa.common.verify, exact: true });
    for (let i = 0; i < 10; i++) {
      await field.fill('000000');
      await verify.click();
      await expect.poll(() => field.inputValue()).toBe('');
    }
    await expect.poll(() => alertText(page)).toBe('คุณลองบ่อยเกินไป โปรดลองอีกครั้งในอีก 15 นาที');
    expect(await verify.isDisabled()).toBe(true);
    await expectAccessible(page, 'authenticator setup lock (th)');
    await context.close();
  });

  it('locks MFA checks with the wait in words and hides "request a new code" and the other checks until it ends', async () => {
    const email = await createTestUser(stack.keycard, 'summit');
    const phone = `0151 ${String(10_000_000 + Math.floor(Math.random() * 89_999_999))}`;
    // Enrol an SMS factor as a person does.
    const first = await browserFrom('en-GB');
    await first.page.goto(`${stack.keycard.origin('summit')}/login`);
    await signIn(first.page, email);
    await expectHeading(first.page, 'Set up two-step verification');
    await first.page.getByRole('button', { name: 'Text message or voice call' }).click();
    await first.page.getByLabel('Country code', { exact: true }).selectOption('DE');
    await first.page.getByLabel('Phone number', { exact: true }).fill(phone);
    await first.page.getByRole('button', { name: 'Send code' }).click();
    await expectHeading(first.page, 'Enter the code we sent you');
    const e164 = `+49${phone.replace(/\D/g, '').replace(/^0/, '')}`;
    await enterCode(first.page, (await lastPhoneCode(stack.keycard, e164)).code);
    await expectHeading(first.page, 'Your phone is set up');
    await continueAfterRecoveryCodes(first.page);
    await first.context.close();

    // Sign in again elsewhere, past the resend interval (so a fresh code is sent): the code
    // screen, then ten wrong codes lock the checks.
    stack.keycard.clock.advance(31_000);
    const { context, page } = await browserFrom('en-GB');
    await page.goto(`${stack.keycard.origin('summit')}/login`);
    await signIn(page, email);
    await expectHeading(page, 'Enter your verification code');
    await expect
      .poll(() => page.getByText('You can request a new code in', { exact: false }).count())
      .toBe(1);
    const code = (await lastPhoneCode(stack.keycard, e164)).code;
    const wrong = code === '000000' ? '111111' : '000000';
    const field = page.getByLabel('6-digit code', { exact: true });
    for (let i = 0; i < 10; i++) {
      await enterCode(page, wrong);
      // Each answer clears the field: only then is the next code typed.
      await expect.poll(() => field.inputValue()).toBe('');
      if (i < 9)
        expect(await page.locator('main').innerText()).toMatch(/Invalid code|exceeded the verification/);
    }
    await expect
      .poll(() => alertText(page))
      .toBe('You have attempted this too often. Please try again in 15 minutes.');
    // Nothing the lock refuses is offered: no new code, no recovery code, no reset, no Verify.
    const body = await page.locator('main').innerText();
    expect(body).not.toMatch(/request a new code|Resend by SMS|Call me back/);
    expect(await page.getByRole('button', { name: 'Use a recovery code instead' }).count()).toBe(0);
    expect(
      await page.getByRole('link', { name: 'Lost your phone? Reset two-step verification' }).count(),
    ).toBe(0);
    expect(await page.getByRole('button', { name: 'Verify', exact: true }).isDisabled()).toBe(true);
    await expectAccessible(page, 'MFA lock');

    await page.clock.fastForward(61_000);
    await expect
      .poll(() => alertText(page))
      .toBe('You have attempted this too often. Please try again in 14 minutes.');

    // When the lock ends, the screen says so and offers everything again.
    stack.keycard.clock.advance(15 * 60_000);
    await page.clock.fastForward(15 * 60_000);
    await expect.poll(() => page.getByText('You can try again now.').isVisible()).toBe(true);
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Resend by SMS' }).isEnabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Use a recovery code instead' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Verify', exact: true }).isEnabled()).toBe(true);

    // The MFA reset asks for the same proof, under the same lock: ten wrong codes there lock it too.
    await page.getByRole('link', { name: 'Lost your phone? Reset two-step verification' }).click();
    await expectHeading(page, 'Reset two-step verification');
    const confirm = page.getByRole('button', { name: 'Reset two-step verification', exact: true });
    for (let i = 0; i < 10; i++) {
      await field.fill(wrong);
      await confirm.click();
      await expect.poll(() => field.inputValue()).toBe('');
    }
    await expect
      .poll(() => alertText(page))
      .toBe('You have attempted this too often. Please try again in 15 minutes.');
    expect(await page.getByRole('button', { name: 'Send me a code' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Use a recovery code instead' }).count()).toBe(0);
    expect(await confirm.isDisabled()).toBe(true);
    await expectAccessible(page, 'MFA reset lock');
    await context.close();
  });
});
