import { describe, expect, it } from 'vitest';
import { expectAccessible } from './support/browser.ts';
import { useSignInStack } from './support/stack.ts';

// The password step is a chunk of its own, out of the login route (docs/performance.md): the
// e-mail step fetches it as soon as it is drawn, so its Next never waits for the network.
describe('the password step out of the login route (Chromium)', () => {
  const stack = useSignInStack({ env: { LOGIN_IP_LIMIT_PER_MINUTE: '1000' } });

  it('is fetched while the address is typed: Next shows it with the network for scripts gone', async () => {
    const context = await stack.browser.newContext({ locale: 'en-GB' });
    const page = await context.newPage();
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (/\/assets\/[^/]+\.js$/.test(request.url())) scripts.push(new URL(request.url()).pathname);
    });
    await page.goto(`${stack.keycard.origin('grand-hotel')}/login`);
    await expect.poll(() => page.locator('[data-kc-first-paint]').count()).toBe(0);
    // The entry, Preact, and the password step's chunk (and its imports) beside them.
    await expect.poll(() => scripts.length).toBeGreaterThan(2);
    await page.waitForLoadState('networkidle');
    // From now on no script arrives: what Next shows must be here already.
    await page.route(/\/assets\/[^/]+\.js$/, (route) => route.abort('internetdisconnected'));
    await page.getByLabel('E-mail', { exact: true }).fill('demo@grand-hotel.test');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL(/\/login\/password$/);
    await expect.poll(() => page.getByLabel('Password', { exact: true }).isVisible()).toBe(true);
    expect(await page.getByText('Logging in as demo@grand-hotel.test').isVisible()).toBe(true);
    await expectAccessible(page, 'password step from its prefetched chunk');
    await context.close();
  });

  it('loads with the page when the address comes in the link (the first paint form sent early)', async () => {
    const context = await stack.browser.newContext({ locale: 'en-GB' });
    const page = await context.newPage();
    await page.goto(`${stack.keycard.origin('grand-hotel')}/login/password?email=demo%40grand-hotel.test`);
    await expect.poll(() => page.getByLabel('Password', { exact: true }).isVisible()).toBe(true);
    await page.getByLabel('Password', { exact: true }).fill('not-the-password-1A');
    await page.getByRole('button', { name: 'Log in' }).click();
    // The step works: the server's answer comes back as its message.
    await expect.poll(() => page.getByRole('alert').count()).toBeGreaterThan(0);
    await context.close();
  });
});
