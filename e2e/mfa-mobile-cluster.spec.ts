import { en } from '@keycard/texts';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../apps/server/src/features/accounts/user.repository.ts';
import { launchBrowser, newContext } from './support/browser.ts';
import { type KeycardCluster, startKeycardCluster } from './support/cluster.ts';
import { continueAfterRecoveryCodes, expectHeading, signIn, stubDefaultRedirect } from './support/mfa.ts';
import {
  approve,
  type MobileApp,
  openDeviceApp,
  pair,
  reserveMobileApp,
  startMobileApp,
  waitForChallenge,
} from './support/mobile-app.ts';

const texts = en.mfa.mobile;
const appHome = /^http:\/\/localhost:3001\/(\?user-device-token=[\w-]+)?$/;

/**
 * Mobile-app MFA across two Keycard instances on one PostgreSQL database: the portal's page and
 * its websocket on one instance, the phone's calls on the other, so every outcome the portal
 * waits for is written by the other instance (issue 9 item 6).
 */
describe('mobile-app MFA across two server instances (Chromium, PostgreSQL)', { timeout: 180_000 }, () => {
  let cluster: KeycardCluster;
  let mobileApp: MobileApp;
  let browser: Browser;

  beforeAll(async () => {
    const reserved = await reserveMobileApp();
    cluster = await startKeycardCluster({ env: reserved.env });
    mobileApp = await startMobileApp(reserved.port);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await mobileApp?.close();
    await cluster?.close();
  });

  async function portalOnFirstInstance(email: string): Promise<Page> {
    cluster.route(0);
    const page = await (await newContext(browser)).newPage();
    await stubDefaultRedirect(page);
    await page.goto(`${cluster.origin('summit')}/login`);
    await signIn(page, email);
    await page.waitForURL(`${cluster.origin('summit')}/mfa`);
    return page;
  }

  it('enrols and approves with the portal on one instance and the phone on the other', async () => {
    const email = `cluster-${Date.now().toString(36)}@summit.test`;
    await createUser(cluster.instances[0]!.services.db, {
      tenantCode: 'summit',
      email,
      type: 'property',
      locale: 'en',
      status: 'active',
      password: 'Keycard-demo-1',
      emailVerified: true,
    });

    // Enrolment: the portal waits on instance 0, the phone pairs through instance 1.
    const portal = await portalOnFirstInstance(email);
    await expectHeading(portal, en.mfa.choose.heading);
    await portal.getByRole('button', { name: new RegExp(`^${texts.choose.title}`) }).click();
    await portal.getByRole('button', { name: texts.register.start, exact: true }).click();
    await expectHeading(portal, texts.waiting.heading);
    const setupLink = portal.getByLabel(texts.waiting.uriLabel, { exact: true });
    await expect.poll(() => setupLink.inputValue(), { timeout: 15_000 }).toMatch(/^keycard-mfa:\/\/enrol\?/);
    const beforePhone = cluster.connections[1];
    cluster.route(1);
    const { page: phone } = await openDeviceApp(browser, mobileApp);
    await pair(phone, await setupLink.inputValue(), 'Cluster phone');
    await expectHeading(portal, texts.done.heading);
    await continueAfterRecoveryCodes(portal);
    await portal.waitForURL(appHome);
    await portal.context().close();
    expect(cluster.connections[1]).toBeGreaterThan(beforePhone);

    // A sign-in: the portal's number and its subscription on instance 0, the answer on 1.
    const second = await portalOnFirstInstance(email);
    await expectHeading(second, texts.verify.heading);
    const instruction = second.getByText(/^Select \d{2} in the app$/);
    await instruction.waitFor({ timeout: 20_000 });
    const number = Number((await instruction.innerText()).match(/\d{2}/)?.[0]);
    cluster.route(1);
    const request = await waitForChallenge(phone);
    expect(request.numbers).toContain(number);
    expect(await approve(phone, number)).toBe('Approved: the sign-in continues on the other screen.');
    await second.waitForURL(appHome, { timeout: 20_000 });
    expect(cluster.connections[0]).toBeGreaterThan(0);
    await second.context().close();
    await phone.context().close();
  });
});
