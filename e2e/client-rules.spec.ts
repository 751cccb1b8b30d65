import { request as httpRequest } from 'node:http';
import type { Browser, Page, Request, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../apps/server/src/features/accounts/user.repository.ts';
import { expectAccessible, launchBrowser, newContext } from './support/browser.ts';
import { type Keycard, startKeycard } from './support/keycard.ts';
import { mailsTo } from './support/outbox.ts';

/**
 * SPEC's client rules (issue 11 item 5) in Chromium: gateway answers retried with the same
 * idempotency key, one reset mail however the retries went, and a lazily loaded part that
 * fails to load shown as the load-failed screen with a retry.
 */
describe('client rules (Chromium)', () => {
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

  let counter = 0;
  async function user(prefix: string): Promise<string> {
    counter += 1;
    const email = `${prefix}-${counter}@grand-hotel.test`;
    await createUser(
      keycard.services.db,
      {
        tenantCode: 'grand-hotel',
        email,
        type: 'staff',
        locale: 'en',
        status: 'active',
        password: 'Anchor-bay-2020',
      },
      keycard.clock.now(),
    );
    return email;
  }

  const resetMails = async (email: string) =>
    (await mailsTo(keycard, email)).filter((mail) => mail.template === 'account.reset');

  async function requestReset(page: Page, email: string) {
    await page.goto(`${keycard.origin()}/reset-password/`);
    await page.getByLabel('E-mail', { exact: true }).fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
  }

  /** The headers every attempt at the reset call carried, in order. */
  function recordResetRequests(page: Page): Array<Record<string, string>> {
    const seen: Array<Record<string, string>> = [];
    page.on('request', (request: Request) => {
      if (request.method() === 'POST' && request.url().includes('/reset-password'))
        seen.push(request.headers());
    });
    return seen;
  }

  it('retries gateway answers (502, 503, 504) ten times with one idempotency key and trace token, then sends one mail', async () => {
    const email = await user('gateway');
    const page = await (await newContext(browser)).newPage();
    const attempts = recordResetRequests(page);
    // A stand-in gateway: the first ten calls never reach Keycard and answer 502/503/504.
    let calls = 0;
    await page.route('**/api/user/*/reset-password', async (route: Route) => {
      calls += 1;
      if (calls <= 10) {
        await route.fulfill({
          status: [502, 503, 504][calls % 3]!,
          contentType: 'text/html',
          body: 'Bad gateway',
        });
      } else {
        await route.continue();
      }
    });
    await requestReset(page, email);
    await page.waitForURL(`${keycard.origin()}/reset-password/sent`, { timeout: 60_000 });

    expect(attempts).toHaveLength(11);
    const keys = new Set(attempts.map((headers) => headers['idempotency-key']));
    expect(keys.size).toBe(1);
    expect([...keys][0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(attempts.map((headers) => headers['x-trace-token'])).size).toBe(1);
    expect(attempts[0]?.['x-trace-token']).toBeTruthy();
    expect(await resetMails(email)).toHaveLength(1);

    // A new click is a new action: a new key, and (the limit allowing) a new mail.
    await page.getByRole('button', { name: 'Send the e-mail again' }).click();
    await expect.poll(() => attempts.length).toBe(12);
    expect(attempts[11]?.['idempotency-key']).not.toBe([...keys][0]);
    await expect.poll(async () => (await resetMails(email)).length).toBe(2);
    await page.context().close();
  }, 90_000);

  /**
   * The stand-in gateway's upstream call: the browser's request as it came, sent on to Keycard
   * (on loopback: Node does not resolve *.localhost as browsers do, so the Host header names it).
   */
  async function passOn(
    request: Request,
  ): Promise<{ status: number; headers: Record<string, string>; body: string }> {
    const target = new URL(request.url());
    const headers = { ...(await request.allHeaders()), host: target.host };
    return new Promise((resolve, reject) => {
      const upstream = httpRequest(
        {
          host: '127.0.0.1',
          port: keycard.port,
          method: request.method(),
          path: `${target.pathname}${target.search}`,
          headers,
        },
        (response) => {
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => {
            body += chunk;
          });
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              headers: response.headers as Record<string, string>,
              body,
            }),
          );
        },
      );
      upstream.on('error', reject);
      upstream.end(request.postData() ?? undefined);
    });
  }

  it('sends one reset mail when the first attempt reached Keycard but its answer was lost', async () => {
    const email = await user('lost-answer');
    const page = await (await newContext(browser)).newPage();
    const attempts = recordResetRequests(page);
    const replayed: string[] = [];
    let calls = 0;
    // The gateway passes each call on; the first answer is lost on the way back (503).
    await page.route('**/api/user/*/reset-password', async (route: Route) => {
      calls += 1;
      const response = await passOn(route.request());
      replayed.push(response.headers['idempotent-replayed'] ?? 'no');
      if (calls === 1) {
        await route.fulfill({ status: 503, contentType: 'text/html', body: 'Service unavailable' });
      } else {
        await route.fulfill({
          status: response.status,
          contentType: 'application/json',
          body: response.body,
        });
      }
    });
    await requestReset(page, email);
    await page.waitForURL(`${keycard.origin()}/reset-password/sent`, { timeout: 30_000 });

    expect(attempts).toHaveLength(2);
    expect(attempts[0]?.['idempotency-key']).toBe(attempts[1]?.['idempotency-key']);
    // Keycard acted on the first attempt and answered the retry from what it stored.
    expect(replayed).toEqual(['no', 'true']);
    expect(await resetMails(email)).toHaveLength(1);
    await page.context().close();
  });

  /** Opens the login page, then fails every script not loaded yet: the next lazy route's chunk. */
  async function failLazyChunks(page: Page, how: 'network' | 'gone') {
    await page.goto(`${keycard.origin()}/login`);
    await page.getByLabel('E-mail', { exact: true }).waitFor();
    const fail = (route: Route) =>
      how === 'network'
        ? route.abort('internetdisconnected')
        : route.fulfill({ status: 404, contentType: 'text/plain', body: 'Not found' });
    await page.route('**/assets/*.js', fail);
    return () => page.unroute('**/assets/*.js', fail);
  }

  for (const how of ['network', 'gone'] as const) {
    it(`shows the load-failed screen when a lazy chunk fails (${how === 'network' ? 'network error' : '404 after a deploy'}), and its retry loads the page`, async () => {
      const page = await (await newContext(browser)).newPage();
      const unblock = await failLazyChunks(page, how);
      await page.getByLabel('E-mail', { exact: true }).fill('someone@grand-hotel.test');
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByRole('link', { name: 'Forgot your password?' }).click();

      await expect
        .poll(() => page.getByRole('heading', { level: 1 }).innerText())
        .toBe('This page did not load');
      await expect.poll(() => page.title()).toBe('Page did not load | Grand Hotel Group');
      expect(await page.getByText('Part of this page could not be loaded.').isVisible()).toBe(true);
      expect(page.url()).toContain('/reset-password');
      await expectAccessible(page, `load failed (${how})`);

      await unblock();
      await page.getByRole('button', { name: 'Try again' }).click();
      await expect
        .poll(() => page.getByRole('heading', { level: 1 }).innerText())
        .toBe('Reset your password');
      await expectAccessible(page, 'reset page after the retry');
      await page.context().close();
    });
  }

  it('shows the load-failed screen when a lazy chunk has not arrived in 120 s', async () => {
    const page = await (await newContext(browser)).newPage();
    await page.clock.install();
    await page.goto(`${keycard.origin()}/login`);
    await page.getByLabel('E-mail', { exact: true }).waitFor();
    // A chunk that never arrives: the request is held, never answered.
    let held = 0;
    await page.route('**/assets/*.js', () => {
      held += 1;
    });
    await page.evaluate(() => {
      window.history.pushState({}, '', '/reset-password/');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await expect.poll(() => held).toBeGreaterThan(0);
    await page.clock.runFor(119_000);
    expect(await page.getByRole('heading', { name: 'This page did not load' }).count()).toBe(0);
    await page.clock.runFor(2_000);
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).innerText())
      .toBe('This page did not load');
    await page.context().close();
  });

  it('shows the load-failed screen in the page language', async () => {
    const page = await (await newContext(browser, { locale: 'de-DE' })).newPage();
    await page.goto(`${keycard.origin()}/login?langCode=de`);
    await page.getByLabel('E-Mail-Adresse', { exact: true }).waitFor();
    await page.route('**/assets/*.js', (route) => route.abort('internetdisconnected'));
    await page.evaluate(() => {
      window.history.pushState({}, '', '/reset-password/');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).innerText())
      .toBe('Diese Seite wurde nicht geladen');
    expect(await page.getByRole('button', { name: 'Erneut versuchen' }).isVisible()).toBe(true);
    await expectAccessible(page, 'load failed (de)');
    await page.context().close();
  });
});
