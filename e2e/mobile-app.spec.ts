import { enrolmentUri } from '@keycard/contract/mobile-mfa';
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { expectAccessible } from './support/browser.ts';
import { deviceApp, openDeviceApp, useMobileMfaStack } from './support/mobile-app.ts';

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
