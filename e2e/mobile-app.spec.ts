import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import { enrolmentUri } from '@keycard/contract/mobile-mfa';
import { en } from '@keycard/texts';
import { chromium, type Page } from 'playwright-core';
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { deactivateUserDevices } from '../apps/server/src/features/mobile/device-key.service.ts';
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
  challengeResult,
  deny,
  deviceApp,
  openDeviceApp,
  pair,
  report,
  useMobileMfaStack,
  waitForChallenge,
} from './support/mobile-app.ts';

const texts = en.mfa.mobile;
/** The tenant's default redirect (stubbed), with or without the user-device-token parameter. */
const appHome = /^http:\/\/localhost:3001\/(\?user-device-token=[\w-]+)?$/;

/**
 * A one-frame Y4M video (what Chromium's fake camera plays in a loop) of a QR code: black
 * modules on white with the quiet zone, as a phone camera would see the portal's code.
 */
function qrVideo(text: string): Buffer {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const side = 480;
  const quiet = 4;
  const scale = Math.floor(side / (modules.size + 2 * quiet));
  const offset = Math.floor((side - scale * modules.size) / 2);
  const luma = Buffer.alloc(side * side, 235);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const row = Math.floor((y - offset) / scale);
      const col = Math.floor((x - offset) / scale);
      const inside = row >= 0 && col >= 0 && row < modules.size && col < modules.size;
      if (inside && modules.get(row, col)) luma[y * side + x] = 16;
    }
  }
  const chroma = Buffer.alloc((side / 2) * (side / 2) * 2, 128);
  const header = Buffer.from(`YUV4MPEG2 W${side} H${side} F10:1 Ip A1:1 C420jpeg\n`);
  return Buffer.concat([header, Buffer.from('FRAME\n'), luma, chroma]);
}

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

  it('reads the enrolment link with the camera (Chromium’s fake camera filming a QR code)', async () => {
    const uri = enrolmentUri({
      endpoint: `${stack.keycard.origin('summit')}/api/mobile-beef/graphql`,
      token: 'cAmErA-tOkEn_0123456789abcdefghijklmnopqrstu',
      tenant: 'summit',
    });
    const dir = mkdtempSync(path.join(tmpdir(), 'keycard-camera-'));
    const video = path.join(dir, 'qr.y4m');
    writeFileSync(video, qrVideo(uri));
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--use-fake-ui-for-media-stream',
        '--use-fake-device-for-media-stream',
        `--use-file-for-fake-video-capture=${video}`,
      ],
    });
    try {
      const { page } = await openDeviceApp(browser, stack.mobileApp);
      await page.context().grantPermissions(['camera'], { origin: stack.mobileApp.url });
      await page.getByRole('button', { name: deviceApp.scan, exact: true }).click();
      const field = page.getByLabel(deviceApp.uriLabel, { exact: true });
      await expect.poll(() => field.inputValue(), { timeout: 20_000 }).toBe(uri);
      // Found: the camera is released and the preview goes away.
      expect(await page.getByRole('button', { name: deviceApp.stopScan }).isVisible()).toBe(false);
      expect(await page.getByRole('button', { name: deviceApp.scan, exact: true }).isVisible()).toBe(true);
    } finally {
      await browser.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// Enrolment plus a sign-in or two across two contexts: room for a machine busy with other tests.
describe('mobile-app MFA with the example device app (two Chromium contexts: portal and phone)', {
  timeout: 180_000,
}, () => {
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

  /**
   * Enrols a fresh summit user's device app through the portal's setup link, as a person does:
   * password, "Mobile app", "Connect my phone", paste the link into the phone, pair; the portal
   * then shows the recovery codes and continues. Answers the user and the phone.
   */
  async function enrolNewUser(deviceName = 'Test phone'): Promise<{ email: string; phone: Page }> {
    const email = await createTestUser(stack.keycard, 'summit');
    const portal = await signInToSummit(email);
    await expectHeading(portal, en.mfa.choose.heading);
    await portal.getByRole('button', { name: new RegExp(`^${texts.choose.title}`) }).click();
    await expectHeading(portal, texts.register.heading);
    await portal.getByRole('button', { name: texts.register.start, exact: true }).click();
    await expectHeading(portal, texts.waiting.heading);
    const setupLink = portal.getByLabel(texts.waiting.uriLabel, { exact: true });
    await expect.poll(() => setupLink.inputValue(), { timeout: 15_000 }).toMatch(/^keycard-mfa:\/\/enrol\?/);

    const { page: phone } = await openDeviceApp(stack.browser, stack.mobileApp);
    await pair(phone, await setupLink.inputValue(), deviceName);

    // The portal learns of the pairing over its subscription and shows the recovery codes.
    await expectHeading(portal, texts.done.heading);
    expect(await portal.getByText(texts.done.body.replace('{{device}}', deviceName)).isVisible()).toBe(true);
    await continueAfterRecoveryCodes(portal);
    await portal.waitForURL(appHome);
    await portal.context().close();
    return { email, phone };
  }

  it('enrols the device app from the setup link, then approves a sign-in with the right number and denies another', async () => {
    const { email, phone } = await enrolNewUser();
    expect(await phone.locator('#paired-summary').innerText()).toBe(
      `${email} at Summit, on this device (“Test phone”).`,
    );
    await expectAccessible(phone, 'device app: paired, waiting');
    // Only what applies is on screen: no Reconnect while connected.
    expect(await phone.getByRole('button', { name: deviceApp.reconnect }).isVisible()).toBe(false);

    // A new sign-in: the portal shows a number, the phone the request with three numbers.
    const second = await signInToSummit(email);
    await expectHeading(second, texts.verify.heading);
    const number = await portalNumber(second);
    const request = await waitForChallenge(phone);
    expect(request.numbers).toHaveLength(3);
    expect(request.numbers).toContain(number);
    expect(request.details).toMatchObject({ Tenant: 'Summit', Account: email });
    expect(request.details['IP address']).toMatch(/127\.0\.0\.1|::1/);
    expect(request.details.Browser).toMatch(/^Headless Chrome \d+ on Linux$/);
    expect(await phone.getByRole('status').innerText()).toBe(
      `New sign-in request for ${email} at Summit. Pick the number shown on the sign-in screen.`,
    );
    await expectAccessible(phone, 'device app: a sign-in request');
    expect(await approve(phone, number)).toBe('Approved: the sign-in continues on the other screen.');
    await second.waitForURL(appHome, { timeout: 20_000 });
    await second.context().close();

    // Another sign-in, denied on the phone: the portal says it was rejected.
    const third = await signInToSummit(email);
    await expectHeading(third, texts.verify.heading);
    await portalNumber(third);
    await waitForChallenge(phone);
    expect(await deny(phone)).toBe('Denied: the sign-in was refused (REJECTED).');
    await expectHeading(third, texts.failure.rejectedHeading);
    await third.context().close();
    await phone.context().close();
  });

  it('refuses a sign-in approved with a decoy number', async () => {
    const { email, phone } = await enrolNewUser();
    const portal = await signInToSummit(email);
    const number = await portalNumber(portal);
    const { numbers } = await waitForChallenge(phone);
    const decoy = numbers.find((candidate) => candidate !== number);
    expect(decoy).toBeDefined();
    expect(await approve(phone, decoy!)).toBe('Wrong number: the sign-in was refused (FAILED).');
    await expectHeading(portal, texts.failure.failedHeading);
    // The answered request stays on the phone, its buttons disabled.
    expect(await phone.getByRole('button', { name: String(number), exact: true }).isDisabled()).toBe(true);
    await portal.context().close();
    await phone.context().close();
  });

  it('"This wasn\'t me" rejects the sign-in and mutes further requests: the next sign-in is told to wait', async () => {
    const { email, phone } = await enrolNewUser();
    const portal = await signInToSummit(email);
    await portalNumber(portal);
    await waitForChallenge(phone);
    expect(await report(phone)).toBe(
      'Reported: the sign-in was refused and further requests are paused (REJECTED).',
    );
    await expectHeading(portal, texts.failure.rejectedHeading);
    await portal.context().close();

    const again = await signInToSummit(email);
    await expectHeading(again, texts.failure.rateLimitedHeading);
    expect(await phone.locator('article.challenge:not(.closed)').count()).toBe(0);
    await again.context().close();
    await phone.context().close();
  });

  it('keeps its key across a restart: a new tab signs in as the device and shows a request made while it was closed', async () => {
    const { email, phone } = await enrolNewUser();
    const context = phone.context();
    await phone.close();

    const portal = await signInToSummit(email);
    const number = await portalNumber(portal);

    // A new tab has no access token (sessionStorage is per tab): it proves its key again.
    const reopened = await context.newPage();
    await reopened.goto(`${stack.mobileApp.url}/`);
    await reopened.getByRole('heading', { name: deviceApp.pairedHeading, exact: true }).waitFor();
    const request = await waitForChallenge(reopened);
    expect(request.numbers).toContain(number);
    expect(await approve(reopened, number)).toBe('Approved: the sign-in continues on the other screen.');
    await portal.waitForURL(appHome, { timeout: 20_000 });
    await portal.context().close();
    await context.close();
  });

  it('closes a request on the phone when its time runs out, readable at 375 px until then', async () => {
    const { email, phone } = await enrolNewUser();
    const context = phone.context();
    await phone.close();
    // The phone's own clock, moved by the test (the server's challenge keeps its real time).
    await context.clock.install();
    const device = await context.newPage();
    await device.setViewportSize({ width: 375, height: 800 });
    await device.goto(`${stack.mobileApp.url}/`);
    await device.getByRole('heading', { name: deviceApp.pairedHeading, exact: true }).waitFor();

    const portal = await signInToSummit(email);
    await portalNumber(portal);
    const { numbers } = await waitForChallenge(device);
    expect(await device.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await device.clock.fastForward(91_000);
    expect(await challengeResult(device)).toBe('Expired: the request timed out.');
    for (const number of numbers)
      expect(await device.getByRole('button', { name: String(number), exact: true }).isDisabled()).toBe(true);
    expect(await device.getByRole('button', { name: deviceApp.deny, exact: true }).isDisabled()).toBe(true);
    expect(await device.getByText('No sign-in request is waiting.').isVisible()).toBe(true);
    await portal.context().close();
    await context.close();
  });

  it('reconnects after the server drops its socket and still receives the next request', async () => {
    // Every upgraded connection from now on, so the test can cut them as a network would.
    const sockets: Duplex[] = [];
    const track = (_request: IncomingMessage, socket: Duplex) => sockets.push(socket);
    stack.keycard.app.server.on('upgrade', track);
    const { email, phone } = await enrolNewUser();
    stack.keycard.app.server.off('upgrade', track);
    expect(sockets.length).toBeGreaterThan(0);
    for (const socket of sockets) socket.destroy();
    await expect
      .poll(() => phone.locator('#connection').innerText(), { timeout: 5_000 })
      .not.toBe(deviceApp.connected);
    await expect
      .poll(() => phone.locator('#connection').innerText(), { timeout: 20_000 })
      .toBe(deviceApp.connected);

    const portal = await signInToSummit(email);
    const number = await portalNumber(portal);
    expect((await waitForChallenge(phone)).numbers).toContain(number);
    expect(await approve(phone, number)).toBe('Approved: the sign-in continues on the other screen.');
    await portal.waitForURL(appHome, { timeout: 20_000 });
    await portal.context().close();
    await phone.context().close();
  });

  it('tells a device that was replaced or reset that it is no longer paired, and can forget the pairing', async () => {
    const { email, phone } = await enrolNewUser();
    const context = phone.context();
    await phone.close();
    // What an MFA reset or a replacement does to the old device.
    const user = await stack.keycard.services.db
      .selectFrom('users')
      .select('id')
      .where('tenant_code', '=', 'summit')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    await deactivateUserDevices(
      stack.keycard.services.db,
      { tenantCode: 'summit', userId: user.id },
      stack.keycard.clock.now(),
    );

    const reopened = await context.newPage();
    await reopened.goto(`${stack.mobileApp.url}/`);
    await expect
      .poll(() => reopened.getByRole('alert').innerText(), { timeout: 20_000 })
      .toBe(
        'This device is no longer paired with the account: another device replaced it, or two-step verification was reset. Forget this pairing to pair again. (mobile.no_device)',
      );
    expect(await reopened.locator('#connection').innerText()).toBe(
      'Offline: sign-in requests cannot reach this device.',
    );
    await reopened.getByRole('button', { name: deviceApp.forget, exact: true }).click();
    await reopened.getByRole('heading', { name: 'Pair with your account', exact: true }).waitFor();
    await context.close();
  });
});
