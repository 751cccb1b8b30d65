import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible, newContext, stubDemoAppHome } from './support/browser.ts';
import { loginWithPassword } from './support/login.ts';
import { useSignInStack } from './support/stack.ts';

const password = 'Keycard-demo-1';
const tenants = [
  {
    code: 'grand-hotel',
    email: 'demo@grand-hotel.test',
    name: 'Grand Hotel Group',
    primary: 'rgb(31, 58, 95)',
  },
  { code: 'seaside', email: 'demo@seaside.test', name: 'Seaside Resorts', primary: 'rgb(0, 109, 119)' },
] as const;

describe('sign in end to end (Chromium)', () => {
  // Every test signs in from 127.0.0.1: a fast run could reach the per-address rate (30 logins a
  // minute) and be sent to the account-disabled page; that limit has its own API test.
  const stack = useSignInStack({ env: { LOGIN_MAX_FAILURES: '3', LOGIN_IP_LIMIT_PER_MINUTE: '1000' } });

  async function freshPage(locale?: string): Promise<Page> {
    const context = await newContext(stack.browser, locale ? { locale } : {});
    return context.newPage();
  }

  for (const tenant of tenants) {
    it(`signs in to the demo app through ${tenant.code}'s themed portal and back, with the right claims`, async () => {
      const page = await freshPage();
      await page.goto(`${stack.demoApp.url}/`);
      await page.getByRole('link', { name: `Sign in with ${tenant.name}` }).click();

      await page.waitForURL(new RegExp(`^${stack.keycard.origin(tenant.code)}/login\\?iid=`));
      await expect.poll(() => page.title()).toBe(`Log in | ${tenant.name}`);
      await expect
        .poll(() => page.getByRole('img', { name: `${tenant.name} logo` }).getAttribute('src'))
        .toBe(`/brand/${tenant.code}-logo.svg`);
      const headerColour = await page
        .locator('header')
        .evaluate((el) => getComputedStyle(el).backgroundColor);
      expect(headerColour).toBe(tenant.primary);
      expect(await page.locator('link[rel="icon"]').getAttribute('href')).toBe(
        `/brand/${tenant.code}-favicon.svg`,
      );
      await expectAccessible(page, `${tenant.code} e-mail step`);

      await page.getByLabel('E-mail', { exact: true }).fill(tenant.email);
      await page.getByRole('button', { name: 'Next' }).click();
      await expect.poll(() => page.title()).toBe(`Enter your password | ${tenant.name}`);
      await expect.poll(() => page.getByText(`Logging in as ${tenant.email}`).isVisible()).toBe(true);
      await expectAccessible(page, `${tenant.code} password step`);
      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByRole('button', { name: 'Log in' }).click();

      await page.waitForURL(`${stack.demoApp.url}/me`);
      expect(await page.locator('[data-claim="email"]').innerText()).toBe(tenant.email);
      expect(await page.locator('[data-claim="iss"]').innerText()).toBe(
        `${stack.keycard.origin(tenant.code)}/oidc`,
      );
      expect(await page.locator('[data-claim="email_verified"]').innerText()).toBe('true');
      await page.context().close();
    });
  }

  it('shows the invalid-credentials message for a wrong password, announced and accessible', async () => {
    const page = await freshPage();
    await page.goto(`${stack.keycard.origin()}/login`);
    await loginWithPassword(page, tenants[0].email, 'Wrong-password-1');
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.innerText()).toBe('Invalid e-mail or password. Try again.');
    await expectAccessible(page, 'password step with error');
    await page.context().close();
  });

  it('does not let a user of one tenant sign in on the other', async () => {
    const page = await freshPage();
    await page.goto(`${stack.keycard.origin('seaside')}/login`);
    await loginWithPassword(page, tenants[0].email, password);
    await expect
      .poll(() => page.getByRole('alert').innerText())
      .toBe('Invalid e-mail or password. Try again.');
    await page.context().close();
  });

  it('sends a locked account to the account-disabled page, which says for how long and offers the reset', async () => {
    const page = await freshPage();
    await page.goto(`${stack.keycard.origin('seaside')}/login`);
    await page.getByLabel('E-mail', { exact: true }).fill('demo@seaside.test');
    await page.getByRole('button', { name: 'Next' }).click();
    for (let i = 0; i < 3; i++) {
      await page.getByLabel('Password', { exact: true }).fill(`Wrong-password-${i}`);
      await page.getByRole('button', { name: 'Log in' }).click();
      if (i < 2) await expect.poll(() => page.getByRole('alert').count()).toBe(1);
    }
    // SPEC §8: too many attempts go to the account-disabled page; it tells the wait in words.
    await page.waitForURL(`${stack.keycard.origin('seaside')}/error/account-disabled/`);
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).innerText())
      .toBe('Your account is locked');
    await expect
      .poll(() => page.getByRole('alert').innerText())
      .toBe('This account is locked for your security. Try again in 15 minutes or reset your password.');
    const reset = page.getByRole('link', { name: 'Reset your password' });
    expect(await reset.getAttribute('href')).toBe('/reset-password/?email=demo%40seaside.test');
    await expectAccessible(page, 'account locked');
    await page.context().close();
  });

  it('logs out from the app: the session ends and a later prompt=none gets login_required', async () => {
    const page = await freshPage();
    await page.goto(`${stack.demoApp.url}/login/grand-hotel`);
    await loginWithPassword(page, tenants[0].email, password);
    await page.waitForURL(`${stack.demoApp.url}/me`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${stack.demoApp.url}/`);

    const silent = new URL(`${stack.keycard.origin()}/oidc/auth`);
    silent.search = new URLSearchParams({
      client_id: 'demo-app',
      redirect_uri: `${stack.demoApp.url}/callback`,
      response_type: 'code',
      scope: 'openid',
      prompt: 'none',
      state: 'silent-check',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    }).toString();
    const landed = page.waitForURL(/\/callback\?/);
    await page.goto(silent.href);
    await landed;
    const callback = new URL(page.url());
    expect(callback.searchParams.get('error')).toBe('login_required');
    expect(callback.searchParams.get('code')).toBeNull();
    await page.context().close();
  });

  it('logs out from the portal page to the login page with the logged-out notice', async () => {
    const page = await freshPage();
    await stubDemoAppHome(page);
    await page.goto(`${stack.keycard.origin()}/login`);
    await loginWithPassword(page, tenants[0].email, password);
    await page.waitForURL('http://localhost:3001/');
    await page.goto(`${stack.keycard.origin()}/logout`);
    await page.waitForURL(/\/login\?loggedOut=true/);
    await expect.poll(() => page.getByRole('status').first().innerText()).toBe('You have been logged out.');
    const session = await page.evaluate(() => fetch('/api/session').then((r) => r.json()));
    expect(session).toEqual({ exists: false });
    await expectAccessible(page, 'login with logged-out notice');
    await page.context().close();
  });

  it('refuses an unregistered redirect URI on the provider without redirecting', async () => {
    const page = await freshPage();
    const response = await page.goto(
      `${stack.keycard.origin()}/oidc/auth?client_id=demo-app&redirect_uri=${encodeURIComponent('https://evil.example/cb')}&response_type=code&scope=openid&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256`,
    );
    expect(response?.status()).toBe(400);
    expect(new URL(page.url()).origin).toBe(stack.keycard.origin());
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).innerText())
      .toBe('Sign-in request refused');
    // A portal page in the tenant's branding, with the stable code (e2e/provider-pages.spec.ts).
    expect(await page.title()).toBe('Sign-in request refused | Grand Hotel Group');
    expect(await page.locator('code').innerText()).toBe('invalid_redirect_uri');
    await expectAccessible(page, 'refused sign-in request');
    await page.context().close();
  });

  it('chooses the language from langCode, then from the browser, then English', async () => {
    const german = await freshPage('en-US');
    await german.goto(`${stack.keycard.origin()}/login?langCode=de-AT`);
    await expect.poll(() => german.getByRole('heading', { level: 1 }).innerText()).toBe('Anmelden');
    expect(await german.evaluate(() => document.documentElement.lang)).toBe('de');
    await expect.poll(() => german.title()).toBe('Anmelden | Grand Hotel Group');
    await expectAccessible(german, 'German e-mail step');
    await german.context().close();

    const french = await freshPage('fr-CA');
    await french.goto(`${stack.keycard.origin()}/login`);
    await expect.poll(() => french.getByRole('heading', { level: 1 }).innerText()).toBe('Connexion');
    await french.context().close();

    const unknown = await freshPage('sv-SE');
    await unknown.goto(`${stack.keycard.origin()}/login?langCode=xx`);
    await expect.poll(() => unknown.getByRole('heading', { level: 1 }).innerText()).toBe('Log in');
    await unknown.context().close();
  });

  it('validates the e-mail on blur and keeps keyboard users in the flow', async () => {
    const page = await freshPage();
    await page.goto(`${stack.keycard.origin()}/login`);
    const email = page.getByLabel('E-mail', { exact: true });
    await email.fill('not-an-email');
    await page.keyboard.press('Tab');
    await expect
      .poll(() => page.getByRole('alert').innerText())
      .toBe("This doesn't appear to be a valid e-mail");
    expect(await email.getAttribute('aria-invalid')).toBe('true');
    await email.fill('');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => page.getByRole('alert').innerText()).toBe('This field is required');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('type'))).toBe('email');
    // Keyboard only: type, Enter, type, Enter.
    await email.fill(tenants[0].email);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/login\/password/);
    await page.keyboard.press('Tab');
    await page.getByLabel('Password', { exact: true }).focus();
    await page.keyboard.type('Wrong-password-9');
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.getByRole('alert').innerText())
      .toBe('Invalid e-mail or password. Try again.');
    await page.context().close();
  });

  it('sends /login/password without an e-mail back to the e-mail step, and remembers the e-mail when asked', async () => {
    const page = await freshPage();
    await page.goto(`${stack.keycard.origin()}/login/password`);
    await page.waitForURL(`${stack.keycard.origin()}/login`);
    await page.getByLabel('E-mail', { exact: true }).fill(tenants[0].email);
    await page.getByLabel('Remember my e-mail').check();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL(/\/login\/password/);
    await page.getByRole('button', { name: 'Back to e-mail' }).click();
    await page.waitForURL(`${stack.keycard.origin()}/login`);
    expect(await page.evaluate(() => localStorage.getItem('AUTH_X_LAST_USER'))).toBe(tenants[0].email);
    await page.reload();
    await expect.poll(() => page.getByLabel('E-mail', { exact: true }).inputValue()).toBe(tenants[0].email);
    await page.context().close();
  });

  it('shows the not-found page with status 404, and the unknown-error page, accessibly', async () => {
    const page = await freshPage();
    const response = await page.goto(`${stack.keycard.origin()}/no/such/page`);
    expect(response?.status()).toBe(404);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Page not found');
    await expectAccessible(page, 'not found');
    await page.goto(`${stack.keycard.origin()}/authenticate/`);
    await page.waitForURL(`${stack.keycard.origin()}/error/`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Something went wrong');
    await expectAccessible(page, 'unknown error');
    await page.context().close();
  });

  it('sends the security headers on portal pages', async () => {
    const page = await freshPage();
    const response = await page.goto(`${stack.keycard.origin()}/login`);
    const headers = response!.headers();
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['referrer-policy']).toBe('no-referrer');
    await page.context().close();
  });
});
