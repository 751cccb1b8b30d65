import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createUser } from '../apps/server/src/features/accounts/user.repository.ts';
import { expectAccessible, launchBrowser, newContext } from './support/browser.ts';
import { type Keycard, startKeycard } from './support/keycard.ts';
import { keycardCli, linkIn, setTenantSettings, waitForMail } from './support/outbox.ts';

/**
 * A reCAPTCHA-v3-compatible provider on a local port: /api.js defines grecaptcha (its
 * tokens name the action they were made for), /siteverify checks them as Google's does.
 */
async function startCaptchaProvider() {
  const verified: Array<{ secret: string; response: string }> = [];
  const scripts: string[] = [];
  let scriptBroken = false;
  const script = `window.grecaptcha = {
  ready: function (callback) { setTimeout(callback, 0); },
  execute: function (siteKey, options) { return Promise.resolve('e2e-' + siteKey + '-' + options.action); }
};`;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/api.js') {
      scripts.push(url.search);
      if (scriptBroken) res.writeHead(500).end();
      else res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
      return;
    }
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      const form = new URLSearchParams(body);
      const response = form.get('response') ?? '';
      verified.push({ secret: form.get('secret') ?? '', response });
      const action = response.match(/^e2e-site-key-1-(\w+)$/)?.[1];
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(action ? { success: true, score: 0.9, action } : { success: false }));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    verified,
    scripts,
    breakScript: (value: boolean) => {
      scriptBroken = value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('captcha (Chromium, against a local reCAPTCHA-compatible provider)', () => {
  let keycard: Keycard;
  let browser: Browser;
  let provider: Awaited<ReturnType<typeof startCaptchaProvider>>;

  beforeAll(async () => {
    keycard = await startKeycard();
    provider = await startCaptchaProvider();
    await setTenantSettings(keycard, 'seaside', {
      captcha: {
        siteKey: 'site-key-1',
        secret: 'secret-1',
        verifyUrl: `${provider.origin}/siteverify`,
        scriptUrl: `${provider.origin}/api.js`,
      } as never,
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await provider?.close();
    await keycard?.close();
  });
  beforeEach(() => {
    provider.verified.length = 0;
    provider.breakScript(false);
  });

  async function freshPage(): Promise<Page> {
    return (await newContext(browser)).newPage();
  }

  it('sends a PASSWORD_RESET token with the reset request and the new password, and the server checks both', async () => {
    const email = 'captcha.reset@seaside.test';
    await createUser(
      keycard.services.db,
      {
        tenantCode: 'seaside',
        email,
        type: 'staff',
        locale: 'en',
        status: 'active',
        password: 'Before-1-captcha',
      },
      keycard.clock.now(),
    );
    const page = await freshPage();
    await page.goto(`${keycard.origin('seaside')}/reset-password/?email=${encodeURIComponent(email)}`);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.waitForURL(/\/reset-password\/sent/);
    expect(provider.scripts).toContain('?render=site-key-1');
    expect(provider.verified).toEqual([{ secret: 'secret-1', response: 'e2e-site-key-1-PASSWORD_RESET' }]);

    await page.goto(linkIn(await waitForMail(keycard, email, 'account.reset')));
    await page.getByLabel('New password', { exact: true }).fill('After-2-captcha');
    await page.getByLabel('Confirm new password', { exact: true }).fill('After-2-captcha');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.waitForURL(/\/login\?resetPassword=true/);
    expect(provider.verified.map((v) => v.response)).toEqual([
      'e2e-site-key-1-PASSWORD_RESET',
      'e2e-site-key-1-PASSWORD_RESET',
    ]);
    await page.context().close();
  });

  it('sends a SIGNUP token with the activation and with a resend', async () => {
    const email = 'captcha.invite@seaside.test';
    await keycardCli(keycard, 'invite', '--tenant', 'seaside', '--email', email, '--type', 'staff');
    const page = await freshPage();
    await page.goto(linkIn(await waitForMail(keycard, email, 'account.activation')));
    await page.getByLabel('New password', { exact: true }).fill('Signup-proof-3');
    await page.getByLabel('Confirm new password', { exact: true }).fill('Signup-proof-3');
    await page.getByLabel('Secret question', { exact: true }).selectOption('first-pet-name');
    await page.getByLabel('Secret answer', { exact: true }).fill('Kiki');
    await page.getByRole('button', { name: 'Activate account' }).click();
    await page.waitForURL(/\/login\?activateSuccess=true/);
    expect(provider.verified.map((v) => v.response)).toEqual(['e2e-site-key-1-SIGNUP']);

    // Asking for a new activation link from the expired page is part of signing up too.
    const other = 'captcha.resend@seaside.test';
    await keycardCli(keycard, 'invite', '--tenant', 'seaside', '--email', other, '--type', 'staff');
    await page.goto(`${keycard.origin('seaside')}/error/activate-expired/`);
    await page.getByLabel('E-mail', { exact: true }).fill(other);
    await page.getByRole('button', { name: 'Send a new link' }).click();
    await page.waitForURL(/\/activate\/sent\//);
    await waitForMail(keycard, other, 'account.activation', 2);
    expect(provider.verified.map((v) => v.response)).toEqual([
      'e2e-site-key-1-SIGNUP',
      'e2e-site-key-1-SIGNUP',
    ]);
    await page.context().close();
  });

  it('goes on without a token when the captcha cannot load, and shows the refusal of a tenant that checks', async () => {
    provider.breakScript(true);
    const page = await freshPage();
    await page.goto(`${keycard.origin('seaside')}/reset-password/?email=someone@seaside.test`);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect
      .poll(() => page.getByRole('alert').innerText())
      .toBe('We could not confirm that this request was made by a person. Reload the page and try again.');
    expect(provider.verified).toEqual([]);
    await expectAccessible(page, 'captcha refusal');
    await page.context().close();
  });

  it('loads no captcha script on a tenant without one', async () => {
    const page = await freshPage();
    const before = provider.scripts.length;
    await page.goto(`${keycard.origin('grand-hotel')}/reset-password/?email=demo@grand-hotel.test`);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.waitForURL(/\/reset-password\/sent/);
    expect(provider.scripts.length).toBe(before);
    expect(await page.evaluate(() => 'grecaptcha' in window)).toBe(false);
    await page.context().close();
  });
});
