import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { en } from '@keycard/texts';
import type { Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, newContext } from './support/browser.ts';
import { startMessengerStandin } from './support/messenger-standin.ts';
import {
  createTestUser,
  expectHeading,
  password,
  setTenantSettings,
  stubDefaultRedirect,
} from './support/mfa.ts';
import { useSignInStack } from './support/stack.ts';

const dist =
  process.env.PORTAL_DIST ??
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/portal/dist');

/** The widget arrives after the page (a lazy chunk, the configuration, the script). */
const waitLong = { timeout: 15_000 };

function cspOf(response: Response | null): string {
  return response?.headers()['content-security-policy'] ?? '';
}

describe('messenger widget (Chromium, against a self-hosted stand-in)', () => {
  const stack = useSignInStack();
  let standin: Awaited<ReturnType<typeof startMessengerStandin>>;

  const standinFor = (domains: string[]) => ({
    provider: 'standin' as const,
    appId: 'standin-app',
    domains,
    scriptUrl: standin.scriptUrl,
  });

  beforeAll(async () => {
    standin = await startMessengerStandin();
    await setTenantSettings(stack.keycard, 'seaside', { messenger: standinFor(['seaside.localhost']) });
    await setTenantSettings(stack.keycard, 'summit', { messenger: standinFor(['summit.localhost']) });
  });
  afterAll(async () => {
    await standin?.close();
  });

  async function freshPage(): Promise<Page> {
    const page = await (await newContext(stack.browser)).newPage();
    await stubDefaultRedirect(page);
    return page;
  }
  const launcher = (page: Page) => page.getByRole('complementary', { name: 'Messenger' });
  const callsOn = (prefix: string) => standin.calls.filter((call) => call.path.startsWith(prefix));

  it('starts after the first navigation on a configured domain, anonymously, updates on the next, and axe stays clean', async () => {
    const page = await freshPage();
    const response = await page.goto(`${stack.keycard.origin('seaside')}/login`);
    // The page allows the stand-in's origin, and still its own style nonce only.
    const csp = cspOf(response);
    expect(csp).toMatch(new RegExp(`script-src 'self' ${standin.origin}(;|$)`));
    expect(csp).toMatch(/style-src 'self' 'nonce-[^']+'(;|$)/);
    await expectHeading(page, en.login.email.heading);
    await expect.poll(() => launcher(page).count(), waitLong).toBe(1);
    // Anonymous: the app id and nothing else, before any sign-in.
    // The widget reports its calls to the stand-in over HTTP: they may land just after it shows.
    await expect
      .poll(() => callsOn('/login'), waitLong)
      .toEqual([{ command: 'boot', options: { app_id: 'standin-app' }, path: '/login' }]);
    await expectAccessible(page, 'login e-mail step with the messenger widget');

    // A page of its own boots again; an in-app navigation from it updates the widget.
    await page.goto(`${stack.keycard.origin('seaside')}/reset-password/?email=nobody@seaside.test`);
    await expect
      .poll(() => callsOn('/reset-password/').map((call) => call.command), waitLong)
      .toEqual(['boot']);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.waitForURL(/\/reset-password\/sent/);
    await expect
      .poll(() => callsOn('/reset-password/sent').map((call) => call.command), waitLong)
      .toEqual(['update']);
    expect(await launcher(page).count()).toBe(1);
    await expectAccessible(page, 'reset link sent, with the messenger widget');
    await page.context().close();
  });

  it('is shut down on the password step and stays away from the MFA code screens', async () => {
    const email = await createTestUser(stack.keycard, 'summit');
    const page = await freshPage();
    await page.goto(`${stack.demoApp.url}/`);
    await page.getByRole('link', { name: 'Sign in with Summit' }).click();
    await page.waitForURL(new RegExp(`^${stack.keycard.origin('summit')}/login\\?iid=`));
    await expect.poll(() => launcher(page).count(), waitLong).toBe(1);

    await page.getByLabel(en.login.email.label, { exact: true }).fill(email);
    await page.getByRole('button', { name: en.login.email.submit }).click();
    await page.waitForURL(/\/login\/password/);
    await expect
      .poll(() => callsOn('/login/password').map((call) => call.command), waitLong)
      .toEqual(['shutdown']);
    expect(await launcher(page).count()).toBe(0);

    await page.getByLabel(en.login.password.label, { exact: true }).fill(password);
    await page.getByRole('button', { name: en.login.password.submit }).click();
    await page.waitForURL(`${stack.keycard.origin('summit')}/mfa`);
    await expectHeading(page, 'Set up two-step verification');
    await page.getByRole('button', { name: en.mfa.choose.app }).click();
    await expectHeading(page, en.mfa.totp.download.heading);
    await page.getByRole('button', { name: en.mfa.common.next, exact: true }).click();
    await expectHeading(page, en.mfa.totp.scan.heading);
    await page.getByRole('button', { name: en.mfa.common.next, exact: true }).click();
    await expectHeading(page, en.mfa.totp.code.heading);
    expect(await page.getByLabel(en.mfa.common.codeLabel, { exact: true }).count()).toBe(1);
    expect(await launcher(page).count()).toBe(0);
    // Nothing was booted or updated on a password or code screen.
    expect(callsOn('/mfa')).toEqual([]);
    expect(callsOn('/login/password').map((call) => call.command)).toEqual(['shutdown']);
    await page.context().close();
  });

  it("loads nothing on another tenant, whose page keeps the portal's CSP", async () => {
    const loads = standin.scriptLoads();
    const page = await freshPage();
    // The widget code asks for the configuration, then stops: nothing else is loaded.
    const asked = page.waitForResponse((answer) => answer.url().endsWith('/api/messenger'));
    const response = await page.goto(`${stack.keycard.origin('grand-hotel')}/login`);
    expect(cspOf(response)).not.toContain(standin.origin);
    expect(cspOf(response)).toMatch(/script-src 'self'(;|$)/);
    expect(cspOf(response)).toMatch(/connect-src 'self'(;|$)/);
    await expectHeading(page, en.login.email.heading);
    await asked;
    expect(standin.scriptLoads()).toBe(loads);
    expect(await page.evaluate(() => 'Intercom' in window)).toBe(false);
    expect(await launcher(page).count()).toBe(0);
    await page.context().close();
  });

  it("starts only on the tenant's listed domains, not on its other host names", async () => {
    await setTenantSettings(stack.keycard, 'grand-hotel', {
      messenger: standinFor(['grand-hotel.localhost']),
    });
    try {
      const page = await freshPage();
      // localhost is an alias domain of grand-hotel, but not one the widget is listed for.
      const asked = page.waitForResponse((answer) => answer.url().endsWith('/api/messenger'));
      const alias = await page.goto(`http://localhost:${stack.keycard.port}/login`);
      expect(cspOf(alias)).not.toContain(standin.origin);
      await expectHeading(page, en.login.email.heading);
      await asked;
      expect(await page.evaluate(() => 'Intercom' in window)).toBe(false);

      const listed = await page.goto(`${stack.keycard.origin('grand-hotel')}/login`);
      expect(cspOf(listed)).toContain(standin.origin);
      await expect.poll(() => launcher(page).count(), waitLong).toBe(1);
      await page.context().close();
    } finally {
      await setTenantSettings(stack.keycard, 'grand-hotel', { messenger: undefined } as never);
    }
  });

  it("stays out of the login page's entry chunk", () => {
    const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
    const scripts = [...html.matchAll(/src="(\/assets\/[^"]+\.js)"/g)].map((match) => match[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) {
      expect(readFileSync(path.join(dist, script), 'utf8'), script).not.toContain('app_id');
    }
  });
});
