import type { DemoApp } from '@keycard/demo-app/app';
import { createMobileApp, type MobileApp } from '@keycard/mobile-app/app';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { launchBrowser, newContext } from './browser.ts';
import { startDemoApp } from './demo-app.ts';
import { freePort, type Keycard, startKeycard } from './keycard.ts';

export type { MobileApp };

/**
 * The example device app (examples/mobile-app) on a port picked before Keycard starts, so that
 * Keycard's MOBILE_APP_ORIGINS can allow exactly its origin (the app calls GraphQL cross-origin).
 */
export async function reserveMobileApp(): Promise<{
  port: number;
  origin: string;
  env: Record<string, string>;
}> {
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  return { port, origin, env: { MOBILE_APP_ORIGINS: origin } };
}

export function startMobileApp(port: number): Promise<MobileApp> {
  return createMobileApp({ port, host: '127.0.0.1' });
}

export interface MobileMfaStack {
  keycard: Keycard;
  demoApp: DemoApp;
  mobileApp: MobileApp;
  browser: Browser;
}

/**
 * Keycard (allowing the device app's origin), the demo app, the device app and Chromium, for the
 * tests of one describe block. Portal and device each get their own browser context in the tests.
 */
export function useMobileMfaStack(options: { env?: Record<string, string> } = {}): MobileMfaStack {
  const stack = {} as MobileMfaStack;
  beforeAll(async () => {
    const reserved = await reserveMobileApp();
    stack.keycard = await startKeycard({ env: { ...reserved.env, ...options.env } });
    stack.demoApp = await startDemoApp(stack.keycard);
    stack.mobileApp = await startMobileApp(reserved.port);
    stack.browser = await launchBrowser();
  });
  afterAll(async () => {
    await stack.browser?.close();
    await stack.mobileApp?.close();
    await stack.demoApp?.close();
    await stack.keycard?.close();
  });
  return stack;
}

/** The device app's accessible names, in one place for the tests that drive it. */
export const deviceApp = {
  uriLabel: 'Enrolment link',
  deviceNameLabel: 'Device name',
  qrFileLabel: 'QR code image',
  pair: 'Pair this device',
  scan: 'Scan with camera',
  stopScan: 'Stop camera',
  pairedHeading: 'Sign-in requests',
  challengeHeading: 'Sign-in request',
  deny: 'Deny',
  report: 'This wasn’t me',
  reconnect: 'Reconnect',
  forget: 'Forget this pairing',
  connected: 'Connected: waiting for sign-in requests.',
} as const;

/**
 * Opens the device app in a context of its own (its own IndexedDB: one "phone"), waiting until
 * its script has run. A device context is a separate browser profile from the portal's.
 */
export async function openDeviceApp(
  browser: Browser,
  app: MobileApp,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newContext(browser);
  const page = await context.newPage();
  await page.goto(`${app.url}/`);
  await page.locator('body[data-ready="true"]').waitFor();
  return { context, page };
}

/** Pastes an enrolment URI, pairs, and waits until the device listens for sign-in requests. */
export async function pair(page: Page, uri: string, deviceName?: string): Promise<void> {
  await page.getByLabel(deviceApp.uriLabel, { exact: true }).fill(uri);
  if (deviceName !== undefined)
    await page.getByLabel(deviceApp.deviceNameLabel, { exact: true }).fill(deviceName);
  await page.getByRole('button', { name: deviceApp.pair, exact: true }).click();
  await page
    .getByRole('heading', { name: deviceApp.pairedHeading, exact: true })
    .waitFor({ timeout: 15_000 });
  // With the alert beside it, a failure says why it did not connect (an error or close code).
  const connection = async () =>
    `${await page.locator('#connection').innerText()} ${await page.locator('#app-error').innerText()}`.trim();
  await expect.poll(connection, { timeout: 15_000 }).toBe(deviceApp.connected);
}

/** The open sign-in request (the newest one), once it is on screen. */
export function openChallenge(page: Page) {
  return page
    .getByRole('article', { name: deviceApp.challengeHeading })
    .filter({ hasNot: page.locator('.closed') })
    .first();
}

/** Waits for a sign-in request and answers what it shows: numbers, account, tenant, address, browser. */
export async function waitForChallenge(
  page: Page,
): Promise<{ numbers: number[]; details: Record<string, string> }> {
  const card = page.locator('article.challenge:not(.closed)').first();
  await card.waitFor({ timeout: 20_000 });
  const numbers = (await card.locator('.numbers button').allInnerTexts()).map(Number);
  const terms = await card.locator('dt').allInnerTexts();
  const values = await card.locator('dd').allInnerTexts();
  return { numbers, details: Object.fromEntries(terms.map((term, index) => [term, values[index] ?? ''])) };
}

/** The message under the newest request's buttons (outcome or error), once it is final. */
export async function challengeResult(page: Page): Promise<string> {
  const result = page.locator('article.challenge').first().locator('.result');
  await expect.poll(() => result.innerText(), { timeout: 15_000 }).not.toMatch(/^(|Sending your answer…)$/);
  return result.innerText();
}

async function answer(page: Page, buttonName: string): Promise<string> {
  const card = page.locator('article.challenge:not(.closed)').first();
  await card.getByRole('button', { name: buttonName, exact: true }).click();
  return challengeResult(page);
}

/** Picks a number on the open request (approve); answers the result shown. */
export function approve(page: Page, number: number): Promise<string> {
  return answer(page, String(number));
}

export function deny(page: Page): Promise<string> {
  return answer(page, deviceApp.deny);
}

/** "This wasn't me": refuses and reports the sign-in. */
export function report(page: Page): Promise<string> {
  return answer(page, deviceApp.report);
}
