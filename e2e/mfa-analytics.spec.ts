import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext } from './support/browser.ts';
import { type Keycard, startKeycard } from './support/keycard.ts';
import {
  analyticsEvents,
  continueAfterRecoveryCodes,
  createTestUser,
  enterCode,
  expectHeading,
  setTenantSettings,
  signIn,
  stubDefaultRedirect,
} from './support/mfa.ts';
import { nextTimeStep, totpCode } from './support/totp.ts';

const DAY = 24 * 60 * 60 * 1000;
const appHome = /^http:\/\/localhost:3001\/(\?user-device-token=[\w-]+)?$/;

/**
 * SPEC §1 analytics: each MFA event fires once, at its moment, with the user type — stored for
 * the tenant and forwarded to the tenant's analytics provider (a local collector here).
 */
describe('MFA analytics events (Chromium)', () => {
  let keycard: Keycard;
  let browser: Browser;
  let collector: Server;
  const forwarded: Array<{ analyticsId: string; event: string; properties: Record<string, unknown> }> = [];

  beforeAll(async () => {
    collector = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        forwarded.push(JSON.parse(body));
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(collector.address() as AddressInfo).port}/collect`;
    keycard = await startKeycard({ env: { ANALYTICS_URL: url } });
    browser = await launchBrowser();
    await setTenantSettings(keycard, 'grand-hotel', {
      mfa: { mode: 'recommended', mandatoryFrom: keycard.clock.now() + 5 * DAY, trustedDeviceDays: 60 },
    });
    await setTenantSettings(keycard, 'summit', { analyticsId: 'G-SUMMIT-E2E' });
  });
  afterAll(async () => {
    await browser?.close();
    await keycard?.close();
    await new Promise<void>((resolve) => collector.close(() => resolve()));
  });

  async function freshPage(): Promise<Page> {
    const page = await (await newContext(browser)).newPage();
    await stubDefaultRedirect(page);
    return page;
  }

  /** The tenant's events so far, settled: the expected list, and nothing more a moment later. */
  async function expectEvents(tenant: string, expected: Array<Record<string, unknown>>) {
    await expect.poll(() => analyticsEvents(keycard, tenant), { timeout: 10_000 }).toEqual(expected);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await analyticsEvents(keycard, tenant)).toEqual(expected);
  }

  it('fires reminder dismissed once, when the user confirms skipping the chooser', async () => {
    const email = await createTestUser(keycard, 'grand-hotel', 'partner');
    const page = await freshPage();
    const sent: unknown[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/analytics/events')) sent.push(request.postDataJSON());
    });
    await page.goto(`${keycard.origin('grand-hotel')}/login`);
    await signIn(page, email);
    await expectHeading(page, 'Set up two-step verification');
    await expectEvents('grand-hotel', []);
    await page.getByRole('button', { name: /^Skip for now/ }).click();
    await expectEvents('grand-hotel', []);
    await page.getByRole('button', { name: 'Yes, remind me later' }).click();
    await page.waitForURL(appHome);
    await expectEvents('grand-hotel', [
      { event: 'mfa_reminder_dismissed', userType: 'partner', deliveryType: null },
    ]);
    // The page sends the user type too; the server keeps its own record of it.
    expect(sent).toEqual([{ event: 'mfa_reminder_dismissed', properties: { userType: 'partner' } }]);
    await page.context().close();
  });

  it('fires failed, register, device id generated, verification required, success and reset, each once at its step', async () => {
    const email = await createTestUser(keycard, 'summit', 'enterprise');
    const user = { userType: 'enterprise' };
    const events: Array<Record<string, unknown>> = [];
    const page = await freshPage();
    await page.goto(`${keycard.origin('summit')}/login`);
    await signIn(page, email);
    await expectHeading(page, 'Set up two-step verification');
    await page.getByRole('button', { name: 'Authenticator app' }).click();
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    const secret = (await page.getByLabel('Setup key', { exact: true }).inputValue()).replace(/\s+/g, '');
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await expectEvents('summit', events);

    const code = await totpCode(keycard, secret);
    await enterCode(page, code === '000000' ? '111111' : '000000');
    await expect.poll(() => page.getByRole('alert').innerText()).toBe('Invalid code. Please try again.');
    events.push({ event: 'mfa_failed', ...user, deliveryType: 'totp' });
    await expectEvents('summit', events);

    // "Trust this device" starts unticked: trusting is what makes the device id.
    await page.getByLabel(/^Trust this device/).check();
    await enterCode(page, code);
    await expectHeading(page, 'Your authenticator app is set up');
    events.push({ event: 'mfa_register', ...user, deliveryType: 'totp' });
    await expectEvents('summit', events);

    await continueAfterRecoveryCodes(page);
    await page.waitForURL(appHome);
    events.push({ event: 'mfa_device_id_generated', ...user, deliveryType: null });
    await expectEvents('summit', events);
    await page.context().close();

    // Sign-in on another device.
    nextTimeStep(keycard);
    const next = await freshPage();
    await next.goto(`${keycard.origin('summit')}/login`);
    await signIn(next, email);
    await expectHeading(next, 'Enter your verification code');
    events.push({ event: 'mfa_verification_required', ...user, deliveryType: 'totp' });
    await expectEvents('summit', events);
    const loginCode = await totpCode(keycard, secret);
    await enterCode(next, loginCode === '000000' ? '111111' : '000000');
    await expect.poll(() => next.getByRole('alert').innerText()).toBe('Invalid code. Please try again.');
    events.push({ event: 'mfa_failed', ...user, deliveryType: 'totp' });
    await expectEvents('summit', events);
    await enterCode(next, loginCode);
    await next.waitForURL(appHome);
    events.push({ event: 'mfa_success', ...user, deliveryType: 'totp' });
    await expectEvents('summit', events);

    // Reset.
    nextTimeStep(keycard);
    await next.goto(`${keycard.origin('summit')}/mfa/reset`);
    await expectHeading(next, 'Reset two-step verification');
    await next.getByLabel('6-digit code', { exact: true }).fill(await totpCode(keycard, secret));
    await next.getByRole('button', { name: 'Reset two-step verification' }).click();
    await expectHeading(next, 'Two-step verification has been reset');
    events.push({ event: 'mfa_reset', ...user, deliveryType: 'totp' });
    await expectEvents('summit', events);
    await next.context().close();

    // summit has an analytics id: every event reached the provider, in order, without personal data.
    expect(forwarded.map((f) => f.event)).toEqual(events.map((e) => e.event));
    for (const item of forwarded) {
      expect(item.analyticsId).toBe('G-SUMMIT-E2E');
      expect(item.properties.userType).toBe('enterprise');
      expect(JSON.stringify(item)).not.toContain(email);
    }
  });
});
