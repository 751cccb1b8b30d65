import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { locales, partnerErrors } from '@keycard/contract';
import { loadTexts } from '@keycard/texts';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launchBrowser } from './support/browser.ts';
import { type Keycard, startKeycard } from './support/keycard.ts';
import { continueAfterRecoveryCodes, registerTotp } from './support/mfa.ts';
import { browserSession } from './support/outbox.ts';
import {
  createTestPartner,
  type PartnerTokenOptions,
  partnerSsoLink,
  registerPartner,
  signPartnerToken,
  type TestPartner,
  tamperedPartnerToken,
  unsignedPartnerToken,
} from './support/partner-tokens.ts';

/** Set to a folder to keep screenshots of the loader and the dialog at 1280 and 375 px. */
const screenshotDir = process.env.PARTNER_SSO_SCREENSHOTS;

describe('partner single sign-on in the portal (Chromium)', () => {
  let keycard: Keycard;
  let browser: Browser;
  const partner = createTestPartner({ code: 'test-partner', tenantCode: 'grand-hotel' });
  const summitPartner = createTestPartner({
    code: 'summit-partner',
    tenantCode: 'summit',
    origin: 'https://summit-partner.example',
  });

  beforeAll(async () => {
    keycard = await startKeycard();
    await registerPartner(keycard, partner);
    await registerPartner(keycard, summitPartner);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await keycard?.close();
  });

  const now = () => Math.floor(keycard.clock.now() / 1000);

  function claimsFor(
    who: TestPartner,
    overrides: Partial<PartnerTokenOptions> = {},
    email = 'demo@grand-hotel.test',
  ): PartnerTokenOptions {
    return {
      audience: `${keycard.origin(who.tenantCode)}/oidc`,
      subject: `${who.code}-user-1`,
      email,
      issuedAt: now(),
      ...overrides,
    };
  }

  /** A browser of its own (no session), with the partner apps answered by stand-ins. */
  async function freshPage(viewport = { width: 1280, height: 800 }): Promise<Page> {
    const context = await browser.newContext({ locale: 'en-GB', viewport });
    const page = await context.newPage();
    for (const origin of [partner.issuer, summitPartner.issuer]) {
      await page.route(`${origin}/**`, (route) =>
        route.fulfill({ contentType: 'text/html', body: '<title>Partner app</title><h1>Partner app</h1>' }),
      );
    }
    return page;
  }

  async function sessionOf(page: Page, tenant = 'grand-hotel'): Promise<Record<string, unknown>> {
    return (await browserSession(page.context(), keycard.origin(tenant))) as Record<string, unknown>;
  }

  async function expectHandOff(page: Page, who: TestPartner): Promise<URL> {
    await page.waitForURL((url) => url.href.startsWith(`${who.redirectUri}?`));
    const landed = new URL(page.url());
    expect(landed.searchParams.get('tenantCode')).toBe(who.tenantCode);
    // ≥ 128 bits of randomness, base64url.
    expect(landed.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    return landed;
  }

  async function expectRefused(page: Page, tenant = 'grand-hotel'): Promise<void> {
    await page.waitForURL(`${keycard.origin(tenant)}/error/`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Something went wrong');
    expect(await sessionOf(page, tenant)).toEqual({ exists: false });
  }

  async function screenshot(page: Page, name: string): Promise<void> {
    if (!screenshotDir) return;
    mkdirSync(screenshotDir, { recursive: true });
    await page.screenshot({ path: path.join(screenshotDir, `${name}.png`) });
  }

  const ssoCall = (who: TestPartner) => `**/api/partners/${who.code}/sso`;

  /** Opens a partner link as the browser would, and checks that the portal's page answered. */
  async function openLink(page: Page, link: string): Promise<void> {
    const response = await page.goto(link);
    // The link's last segment is a JWT, whose dots make it look like a file name.
    expect(
      { status: response?.status(), type: response?.headers()['content-type']?.split(';')[0] },
      'the server must answer a partner link with the portal page (index.html), not a missing file',
    ).toEqual({ status: 200, type: 'text/html' });
  }

  it('signs the partner user in, removes the token from the address at once, and hands a one-time code back', async () => {
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 375, height: 740 },
    ]) {
      const page = await freshPage(viewport);
      const token = signPartnerToken(partner, claimsFor(partner));
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      const posted: unknown[] = [];
      await page.route(ssoCall(partner), async (route) => {
        posted.push(route.request().postDataJSON());
        await held;
        await route.continue();
      });

      await openLink(page, partnerSsoLink(keycard.origin(), partner.code, token, partner.redirectUri));
      await expect.poll(() => page.getByRole('status').innerText()).toBe('Signing you in…');
      // While the token is being traded, neither the address nor the history entry holds it.
      const stripped = `${keycard.origin()}/partners/${partner.code}/sso?${new URLSearchParams({ redirectUri: partner.redirectUri })}`;
      await expect.poll(() => page.url()).toBe(stripped);
      expect(await page.evaluate(() => window.location.href)).toBe(stripped);
      await expect.poll(() => page.title()).toBe('Partner sign-in | Grand Hotel Group');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('kc-heading');
      await expectAccessible(page, 'partner SSO loader');
      await screenshot(page, `partner-sso-loader-${viewport.width}`);
      expect(posted).toEqual([{ token }]);

      release();
      await expectHandOff(page, partner);
      expect(await sessionOf(page)).toMatchObject({
        exists: true,
        provider: 'authx',
        partnerCode: partner.code,
      });
      await page.context().close();
    }
  });

  it('refuses the same link a second time: the unknown-error page and no session', async () => {
    const token = signPartnerToken(partner, claimsFor(partner));
    const first = await freshPage();
    await openLink(first, partnerSsoLink(keycard.origin(), partner.code, token));
    await expectHandOff(first, partner);
    await first.context().close();

    const second = await freshPage();
    const answered = second.waitForResponse((response) =>
      response.url().endsWith(`/api/partners/${partner.code}/sso`),
    );
    await openLink(second, partnerSsoLink(keycard.origin(), partner.code, token));
    expect(((await (await answered).json()) as { code: string }).code).toBe(partnerErrors.tokenReplayed);
    await expectRefused(second);
    await second.context().close();
  });

  const refusals: Array<{ name: string; partnerCode?: string; token: () => string; code: string }> = [
    {
      name: 'an expired token',
      token: () =>
        signPartnerToken(partner, claimsFor(partner, { issuedAt: now() - 600, lifetimeSeconds: 300 })),
      code: partnerErrors.tokenInvalid,
    },
    {
      name: 'a token living longer than five minutes',
      token: () => signPartnerToken(partner, claimsFor(partner, { lifetimeSeconds: 3600 })),
      code: partnerErrors.tokenInvalid,
    },
    {
      name: 'a tampered signature',
      token: () => tamperedPartnerToken(partner, claimsFor(partner), 'signature'),
      code: partnerErrors.tokenInvalid,
    },
    {
      name: 'claims changed after signing',
      token: () => tamperedPartnerToken(partner, claimsFor(partner), 'claims'),
      code: partnerErrors.tokenInvalid,
    },
    {
      name: 'alg none',
      token: () => unsignedPartnerToken(partner, claimsFor(partner)),
      code: partnerErrors.tokenInvalid,
    },
    {
      name: "a token for another tenant's issuer (wrong aud)",
      token: () =>
        signPartnerToken(partner, claimsFor(partner, { audience: `${keycard.origin('seaside')}/oidc` })),
      code: partnerErrors.tokenInvalid,
    },
    {
      name: "another tenant's partner",
      partnerCode: summitPartner.code,
      token: () =>
        signPartnerToken(summitPartner, claimsFor(summitPartner, { audience: `${keycard.origin()}/oidc` })),
      code: partnerErrors.unknown,
    },
    {
      name: 'an unknown key id',
      token: () => signPartnerToken(partner, claimsFor(partner, { header: { kid: 'retired-key' } })),
      code: partnerErrors.tokenInvalid,
    },
  ];

  for (const refusal of refusals) {
    it(`refuses ${refusal.name}: the unknown-error page and no session`, async () => {
      const page = await freshPage();
      const partnerCode = refusal.partnerCode ?? partner.code;
      const answered = page.waitForResponse((response) =>
        response.url().endsWith(`/api/partners/${partnerCode}/sso`),
      );
      await openLink(page, partnerSsoLink(keycard.origin(), partnerCode, refusal.token()));
      expect(((await (await answered).json()) as { code: string }).code).toBe(refusal.code);
      await expectRefused(page);
      await page.context().close();
    });
  }

  it('hands no code to an address registered for neither the partner nor the tenant', async () => {
    const page = await freshPage();
    const handedOff = page.waitForResponse((response) =>
      response.url().endsWith(`/api/partners/${partner.code}/generate-token`),
    );
    await openLink(
      page,
      partnerSsoLink(
        keycard.origin(),
        partner.code,
        signPartnerToken(partner, claimsFor(partner)),
        `${partner.issuer}/elsewhere`,
      ),
    );
    expect((await handedOff).status()).toBe(400);
    await page.waitForURL(`${keycard.origin()}/error/`);
    await page.context().close();
  });

  it('opens the warning dialog when the server cannot be reached; Reload tries again and the sign-in goes on', async () => {
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 375, height: 740 },
    ]) {
      const page = await freshPage(viewport);
      let failures = 1;
      await page.route(ssoCall(partner), (route) =>
        failures-- > 0 ? route.abort('internetdisconnected') : route.continue(),
      );
      await openLink(
        page,
        partnerSsoLink(
          keycard.origin(),
          partner.code,
          signPartnerToken(partner, claimsFor(partner)),
          partner.redirectUri,
        ),
      );
      const dialog = page.getByRole('alertdialog', { name: 'Connection problem' });
      await expect.poll(() => dialog.isVisible()).toBe(true);
      expect(await dialog.innerText()).toContain("We're having trouble contacting our servers.");
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Reload');
      await expectAccessible(page, 'partner SSO network dialog');
      await screenshot(page, `partner-sso-dialog-${viewport.width}`);

      await dialog.getByRole('button', { name: 'Reload' }).click();
      await expectHandOff(page, partner);
      await page.context().close();
    }
  });

  it('after the token was accepted, Reload reads the session again instead of spending the token twice', async () => {
    const page = await freshPage();
    // The session read that follows the accepted token fails once (and only that one).
    let accepted = false;
    page.on('response', (response) => {
      if (response.url().endsWith(`/api/partners/${partner.code}/sso`) && response.ok()) accepted = true;
    });
    let failures = 1;
    await page.route('**/api/session', (route) =>
      accepted && failures-- > 0 ? route.abort('internetdisconnected') : route.continue(),
    );
    await openLink(
      page,
      partnerSsoLink(keycard.origin(), partner.code, signPartnerToken(partner, claimsFor(partner))),
    );
    const dialog = page.getByRole('alertdialog', { name: 'Connection problem' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Reload' }).click();
    await expectHandOff(page, partner);
    await page.context().close();
  });

  for (const dismiss of ['the Close button', 'Escape'] as const) {
    it(`closing the dialog with ${dismiss} goes to the unknown-error page`, async () => {
      const page = await freshPage();
      await page.route(ssoCall(partner), (route) => route.abort('internetdisconnected'));
      await openLink(
        page,
        partnerSsoLink(keycard.origin(), partner.code, signPartnerToken(partner, claimsFor(partner))),
      );
      const dialog = page.getByRole('alertdialog', { name: 'Connection problem' });
      await expect.poll(() => dialog.isVisible()).toBe(true);
      if (dismiss === 'Escape') await page.keyboard.press('Escape');
      else await dialog.getByRole('button', { name: 'Close' }).click();
      await expectRefused(page);
      await page.context().close();
    });
  }

  it('shows the loader and the dialog in all eight languages, accessible in each', async () => {
    for (const locale of locales) {
      const texts = await loadTexts(locale);
      const page = await freshPage();
      await page.route(ssoCall(partner), (route) => route.abort('internetdisconnected'));
      const link = new URL(
        partnerSsoLink(keycard.origin(), partner.code, signPartnerToken(partner, claimsFor(partner))),
      );
      link.searchParams.set('langCode', locale);
      await openLink(page, link.href);
      const dialog = page.getByRole('alertdialog', { name: texts.partnerSso.networkDialog.heading });
      await expect.poll(() => dialog.isVisible(), { message: locale }).toBe(true);
      // The title and texts follow the language once its catalogue has loaded: wait for them.
      await expect
        .poll(() => page.getByRole('status').innerText(), { message: locale })
        .toBe(texts.partnerSso.loading);
      await expect
        .poll(() => page.title(), { message: locale })
        .toBe(`${texts.titles.partnerSso} | Grand Hotel Group`);
      expect(await dialog.innerText(), locale).toContain(texts.partnerSso.networkDialog.body);
      await dialog.getByRole('button', { name: texts.partnerSso.networkDialog.reload }).waitFor();
      await dialog.getByRole('button', { name: texts.common.close }).waitFor();
      await expectAccessible(page, `partner SSO dialog (${locale})`);
      await page.context().close();
    }
  });

  it('asks for MFA first on a tenant that requires it, then hands the code back; a trusted browser is not asked again', async () => {
    const page = await freshPage();
    await openLink(
      page,
      partnerSsoLink(
        keycard.origin('summit'),
        summitPartner.code,
        signPartnerToken(summitPartner, claimsFor(summitPartner, {}, 'demo@summit.test')),
      ),
    );
    await page.waitForURL(`${keycard.origin('summit')}/mfa`);
    expect(await sessionOf(page, 'summit')).toMatchObject({
      exists: true,
      provider: 'authx',
      partnerCode: summitPartner.code,
      identity: { state: 'MFA_REGISTRATION_REQUIRED' },
    });
    await registerTotp(page, keycard);
    await continueAfterRecoveryCodes(page);
    await expectHandOff(page, summitPartner);

    // The next partner link in this browser, which the user trusted: straight back to the app.
    const posted = page.waitForRequest((request) =>
      request.url().endsWith(`/api/partners/${summitPartner.code}/sso`),
    );
    await openLink(
      page,
      partnerSsoLink(
        keycard.origin('summit'),
        summitPartner.code,
        signPartnerToken(summitPartner, claimsFor(summitPartner, {}, 'demo@summit.test')),
      ),
    );
    // The trusted browser's token rides in its HttpOnly cookie, not in the body.
    const sso = await posted;
    expect(sso.postDataJSON()).not.toHaveProperty('userDeviceToken');
    expect(await sso.headerValue('cookie')).toMatch(/(^|; )AUTH_X_DEVICE_ID=[\w-]{43}(;|$)/);
    await expectHandOff(page, summitPartner);
    await page.context().close();
  });

  it("links 'Trouble logging in?' to the partner's help page for the entered address when partnerCode is given", async () => {
    const trouble = async (query: string, email: string) => {
      const page = await freshPage();
      await page.goto(`${keycard.origin()}/login${query}`);
      await page.getByLabel('E-mail', { exact: true }).fill(email);
      await page.getByRole('button', { name: 'Next' }).click();
      const link = page.getByRole('link', { name: 'Trouble logging in?' });
      await expect.poll(() => link.count()).toBe(1);
      const href = await link.getAttribute('href');
      await page.context().close();
      return href;
    };
    const partnerHelp = (email: string) =>
      `${partner.issuer}/help?email=${encodeURIComponent(email)}&partner=${partner.code}`;
    expect(await trouble(`?partnerCode=${partner.code}`, 'demo@grand-hotel.test')).toBe(
      partnerHelp('demo@grand-hotel.test'),
    );
    // The same answer for an address without an account.
    expect(await trouble(`?partnerCode=${partner.code}`, 'nobody@grand-hotel.test')).toBe(
      partnerHelp('nobody@grand-hotel.test'),
    );
    // Without a partner (or with one this tenant does not have): the theme's link.
    expect(await trouble('', 'demo@grand-hotel.test')).toBe('https://help.grand-hotel.example/login-help');
    expect(await trouble(`?partnerCode=${summitPartner.code}`, 'demo@grand-hotel.test')).toBe(
      'https://help.grand-hotel.example/login-help',
    );
  });
});
