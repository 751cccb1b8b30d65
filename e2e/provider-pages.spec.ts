import type { BrowserContext, Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible, newContext } from './support/browser.ts';
import { loginWithPassword } from './support/login.ts';
import { useSignInStack } from './support/stack.ts';

const password = 'Keycard-demo-1';
const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

const refusals = [
  {
    tenant: 'grand-hotel',
    name: 'Grand Hotel Group',
    primary: 'rgb(31, 58, 95)',
    locale: 'de-DE',
    lang: 'de',
    heading: 'Anmeldeanfrage abgelehnt',
    logoAlt: 'Logo von Grand Hotel Group',
    reason: 'Die Anwendung wollte Sie an eine Adresse zurückleiten, die für sie nicht registriert ist.',
  },
  {
    tenant: 'seaside',
    name: 'Seaside Resorts',
    primary: 'rgb(0, 109, 119)',
    locale: 'th-TH',
    lang: 'th',
    heading: 'คำขอเข้าสู่ระบบถูกปฏิเสธ',
    logoAlt: 'โลโก้ Seaside Resorts',
    reason: 'แอปพลิเคชันขอส่งคุณกลับไปยังที่อยู่ที่ไม่ได้ลงทะเบียนไว้สำหรับแอปพลิเคชันนั้น',
  },
] as const;

const widths = [
  { width: 1280, height: 800 },
  { width: 375, height: 740 },
] as const;

/** An app's authorization request with a redirect_uri the app never registered. */
function refusedRequest(origin: string): string {
  const query = new URLSearchParams({
    client_id: 'demo-app',
    redirect_uri: 'https://evil.example/cb',
    response_type: 'code',
    scope: 'openid',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  return `${origin}/oidc/auth?${query}`;
}

/** The page fits its width: nothing to scroll sideways. */
async function expectNoSideScroll(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

describe("the provider's own pages as portal pages (Chromium)", () => {
  const stack = useSignInStack({ env: { LOGIN_IP_LIMIT_PER_MINUTE: '1000' } });

  for (const refusal of refusals) {
    for (const viewport of widths) {
      it(`refuses an unregistered redirect_uri on ${refusal.tenant}'s page in ${refusal.lang} at ${viewport.width} px`, async () => {
        const context = await stack.browser.newContext({ locale: refusal.locale, viewport });
        const page = await context.newPage();
        // Hold the portal script back: first the page as the server sent it.
        const held: Route[] = [];
        await page.route(/\/assets\/index-[^/]+\.js$/, (route) => {
          held.push(route);
        });
        const response = await page.goto(refusedRequest(stack.keycard.origin(refusal.tenant)), {
          waitUntil: 'commit',
        });
        // The provider's status, and no redirect to the unregistered address.
        expect(response?.status()).toBe(400);
        const heading = page.getByRole('heading', { level: 1 });
        await heading.waitFor();
        expect(new URL(page.url()).origin).toBe(stack.keycard.origin(refusal.tenant));
        expect(await heading.innerText()).toBe(refusal.heading);
        expect(await page.title()).toBe(`${refusal.heading} | ${refusal.name}`);
        expect(await page.locator('html').getAttribute('lang')).toBe(refusal.lang);
        expect(await page.locator('header').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(
          refusal.primary,
        );
        expect(await page.getByRole('img', { name: refusal.logoAlt }).getAttribute('src')).toBe(
          `/brand/${refusal.tenant}-logo.svg`,
        );
        expect(await page.getByText(refusal.reason).isVisible()).toBe(true);
        expect(await page.locator('code').innerText()).toBe('invalid_redirect_uri');
        await expectNoSideScroll(page, viewport.width);
        await expectAccessible(page, `server-rendered refusal, ${refusal.lang}, ${viewport.width} px`);

        // The portal takes the page over: the same screen, with a working language menu.
        await expect.poll(() => held.length).toBe(1);
        await held[0]?.continue();
        await expect.poll(() => page.locator('#kc-fp-language').count()).toBe(0);
        expect(await heading.innerText()).toBe(refusal.heading);
        expect(await page.title()).toBe(`${refusal.heading} | ${refusal.name}`);
        expect(await page.getByText(refusal.reason).isVisible()).toBe(true);
        expect(await page.locator('code').innerText()).toBe('invalid_redirect_uri');
        await expectNoSideScroll(page, viewport.width);
        await expectAccessible(page, `portal refusal, ${refusal.lang}, ${viewport.width} px`);
        await page.getByRole('combobox').selectOption('en');
        await expect.poll(() => heading.innerText()).toBe('Sign-in request refused');
        expect(
          await page
            .getByText('The application asked to send you back to an address that is not registered for it.')
            .isVisible(),
        ).toBe(true);
        await context.close();
      });
    }
  }

  /**
   * A browser signed in to the demo app through grand-hotel (as a person would, in English),
   * then opened again with this language and JavaScript setting and the same cookies.
   */
  async function signedInBrowser(locale: string, javaScriptEnabled: boolean) {
    const signIn = await newContext(stack.browser);
    const page = await signIn.newPage();
    await page.goto(`${stack.demoApp.url}/`);
    await page.getByRole('link', { name: 'Sign in with Grand Hotel Group' }).click();
    await page.waitForURL(/\/login\?iid=/);
    await loginWithPassword(page, 'demo@grand-hotel.test', password);
    await page.waitForURL(`${stack.demoApp.url}/me`);
    const storageState = await signIn.storageState();
    await signIn.close();
    return stack.browser.newContext({ locale, javaScriptEnabled, storageState });
  }

  /** Whether the browser still has a Keycard session (GET /api/session, in a page of its own). */
  async function keycardSessionExists(context: BrowserContext): Promise<boolean> {
    const probe = await context.newPage();
    await probe.goto(`${stack.keycard.origin()}/api/session`);
    const { exists } = JSON.parse(await probe.locator('body').innerText()) as { exists: boolean };
    await probe.close();
    return exists;
  }

  it('logs out from the app through the branded logout page, which submits itself', async () => {
    const context = await signedInBrowser('de-DE', true);
    expect(await keycardSessionExists(context)).toBe(true);
    const page = await context.newPage();
    await page.goto(`${stack.demoApp.url}/me`);
    // Hold the page's submitting script: first what the page shows while it works.
    const held: Route[] = [];
    await page.route('**/_keycard/logout.js', (route) => {
      held.push(route);
    });
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/oidc\/session\/end\?/, { waitUntil: 'commit' });
    const heading = page.getByRole('heading', { level: 1 });
    await heading.waitFor();
    expect(await heading.innerText()).toBe('Abmeldung läuft');
    expect(await page.title()).toBe('Abmeldung läuft | Grand Hotel Group');
    expect(await page.locator('html').getAttribute('lang')).toBe('de');
    expect(await page.locator('header').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(
      'rgb(31, 58, 95)',
    );
    await expectAccessible(page, 'logout page');
    await expect.poll(() => held.length).toBe(1);
    await held[0]?.continue();
    await page.waitForURL(`${stack.demoApp.url}/`);
    expect(await keycardSessionExists(context)).toBe(false);
    await context.close();
  });

  it('lets the portal take the logout page over, whose button still submits the provider’s form', async () => {
    const context = await signedInBrowser('de-DE', true);
    const page = await context.newPage();
    await page.goto(`${stack.demoApp.url}/me`);
    // The submitting script never arrives: the person is left with the portal's screen.
    await page.route('**/_keycard/logout.js', (route) => route.abort());
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/oidc\/session\/end\?/);
    await expect.poll(() => page.locator('#kc-fp-language').count()).toBe(0);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Abmeldung läuft');
    expect(await page.getByRole('combobox', { name: 'Sprache' }).inputValue()).toBe('de');
    await expectAccessible(page, 'logout page taken over by the portal');
    expect(await keycardSessionExists(context)).toBe(true);
    await page.getByRole('button', { name: 'Abmelden' }).click();
    await page.waitForURL(`${stack.demoApp.url}/`);
    expect(await keycardSessionExists(context)).toBe(false);
    await context.close();
  });

  it('logs out without JavaScript with the logout page’s button', async () => {
    const context = await signedInBrowser('th-TH', false);
    const page = await context.newPage();
    expect(await keycardSessionExists(context)).toBe(true);
    await page.goto(`${stack.demoApp.url}/me`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/oidc\/session\/end\?/);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('กำลังออกจากระบบ');
    expect(await page.locator('html').getAttribute('lang')).toBe('th');
    expect(await page.title()).toBe('กำลังออกจากระบบ | Grand Hotel Group');
    // Nothing submitted it: the session is there until the person confirms.
    expect(await keycardSessionExists(context)).toBe(true);
    await page.getByRole('button', { name: 'ออกจากระบบ' }).click();
    await page.waitForURL(`${stack.demoApp.url}/`);
    expect(await keycardSessionExists(context)).toBe(false);
    await context.close();
  });
});
