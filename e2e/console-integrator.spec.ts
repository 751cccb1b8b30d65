import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loopbackFetch } from '@keycard/demo-app/loopback-fetch';
import { de as consoleDe } from '@keycard/texts/console/de';
import { en as consoleEn } from '@keycard/texts/console/en';
import { th as consoleTh } from '@keycard/texts/console/th';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launchBrowser } from './support/browser.ts';
import { adminOrigin, createOwner, expectSignedInAs, fillText as fill } from './support/console.ts';
import { type Keycard, startKeycard } from './support/keycard.ts';
import { loginWithPassword } from './support/login.ts';
import { continueAfterRecoveryCodes, registerTotp } from './support/mfa.ts';

const owner = { email: 'owner@integrator.example', password: 'Operator-owner-77' };
const shots = process.env.CONSOLE_SHOTS ?? path.join(tmpdir(), 'console-shots');

/**
 * Issue 19's integrator items, each as people see them, in Chromium: the shell's loading,
 * busy and signed-out states and its folding header (9), tenants by name, logo and colour (8),
 * each tenant's endpoints in several languages (2), clients and partners changed in forms (3),
 * errors said at their fields in words (4) and a readable audit log (5). axe at 1280 and 375 px.
 */
describe('the console for integrators (Chromium)', () => {
  let keycard: Keycard;
  let browser: Browser;
  let page: Page;
  let admin: string;

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    keycard = await startKeycard({ env: { LOGIN_IP_LIMIT_PER_MINUTE: '1000' } });
    browser = await launchBrowser();
    admin = adminOrigin(keycard);
    await createOwner(keycard, owner);
    await keycard.services.tenants.refresh();
    const context = await browser.newContext({ locale: 'en-GB' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: admin });
    page = await context.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
  });
  afterAll(async () => {
    await browser?.close();
    await keycard?.close();
  });

  const heading = () => page.getByRole('heading', { level: 1 }).innerText();
  const alert = () => page.getByRole('alert').filter({ hasText: /\S/ }).first().innerText();

  /** axe and a screenshot at both widths, back at 1280 px after. */
  async function checkWidths(label: string): Promise<void> {
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: width < 600 ? 800 : 900 });
      await expectAccessible(page, `${label} at ${width} px`);
      await page.screenshot({ path: path.join(shots, `integrator-${label}-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  /** The passkey offer after a password sign-in, when it comes, is put off. */
  async function passOffer(arrived: () => boolean): Promise<void> {
    const notNow = page.getByRole('button', { name: 'Not now' });
    await expect
      .poll(
        async () => {
          if (arrived()) return true;
          if (await notNow.isVisible().catch(() => false)) await notNow.click().catch(() => undefined);
          return arrived();
        },
        { timeout: 20_000 },
      )
      .toBe(true);
  }

  /** Opens a console address afresh: a new silent sign-in (past a passkey offer) brings it back. */
  async function visit(address: string): Promise<void> {
    await page.goto(`${admin}${address}`);
    await passOffer(() => page.url() === `${admin}${address}`);
    await expectSignedInAs(page, owner.email);
  }

  /** The language menu, whatever language it is in now. */
  const language = (code: string) => page.locator('label.language select').selectOption(code);

  it('paints Loading at once, is busy while it signs in, and says so after a sign-out (item 9)', async () => {
    // The HTML shell alone, before any script: it says the console is loading.
    const shell = await (await loopbackFetch(`${admin}/console/`)).text();
    expect(shell).toMatch(
      /<p role="status">[^<]*<span class="spinner" aria-hidden="true"><\/span> Loading…<\/p>/,
    );

    // A slow network at the provider: the console says it is signing in, never a blank page.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/oidc/.well-known/openid-configuration', async (route) => {
      await held;
      await route.continue().catch(() => undefined);
    });
    await page.goto(`${admin}/console/`);
    await expect.poll(() => page.getByRole('status').innerText()).toContain(consoleEn.app.signingIn);
    await expectAccessible(page, 'signing in');
    release();
    await page.unroute('**/oidc/.well-known/openid-configuration');
    await page.waitForURL(/\/login\?iid=/);
    await loginWithPassword(page, owner.email, owner.password);
    await registerTotp(page, keycard);
    await continueAfterRecoveryCodes(page);
    await passOffer(() => page.url() === `${admin}/console/`);
    await expectSignedInAs(page, owner.email);

    // On a phone the header folds behind Menu; on a desktop there is no Menu.
    await page.setViewportSize({ width: 375, height: 800 });
    const menu = page.getByRole('button', { name: consoleEn.shell.menu });
    const signOut = page.getByRole('button', { name: consoleEn.app.signOut });
    expect(await menu.isVisible()).toBe(true);
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await signOut.isVisible()).toBe(false);
    await page.screenshot({ path: path.join(shots, 'integrator-header-folded-375.png') });
    await menu.click();
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    expect(await signOut.isVisible()).toBe(true);
    await expectAccessible(page, 'open menu at 375 px');
    await page.screenshot({ path: path.join(shots, 'integrator-header-open-375.png') });
    // Following a link folds it again.
    await page.getByRole('link', { name: consoleEn.app.nav.audit }).click();
    await expect.poll(() => menu.getAttribute('aria-expanded')).toBe('false');
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(await menu.isVisible()).toBe(false);
    expect(await signOut.isVisible()).toBe(true);

    await signOut.click();
    await page.waitForURL(`${admin}/console/`);
    await expect.poll(() => page.getByRole('status').innerText()).toBe(consoleEn.shell.signedOut);
    expect(await heading()).toBe(consoleEn.shell.signedOutHeading);
    await checkWidths('signed-out');
    // Signing in again asks for the password (the provider's session ended), then comes back.
    await page.getByRole('button', { name: consoleEn.shell.signInAgain }).click();
    await page.waitForURL(/\/login\?iid=/);
    await loginWithPassword(page, owner.email, owner.password);
    await passOffer(() => page.url() === `${admin}/console/`);
    await expectSignedInAs(page, owner.email);
  });

  it('lists tenants by name, logo and colour, without the internal version (item 8)', async () => {
    await visit('/console/');
    await expect.poll(heading).toBe(consoleEn.tenants.heading);
    const list = page.getByRole('list', { name: fill(consoleEn.tenants.count, { count: 4 }) });
    await list.waitFor();
    for (const name of ['Grand Hotel Group', 'Seaside Resorts', 'Summit']) {
      expect(await list.getByRole('link', { name }).count()).toBe(1);
    }
    const card = list.getByRole('listitem').filter({ has: page.getByRole('link', { name: 'Summit' }) });
    expect(await card.innerText()).toContain('summit.localhost');
    expect(
      await card.locator('.tenant-swatch').evaluate((swatch) => getComputedStyle(swatch).backgroundColor),
    ).toBe('rgb(35, 61, 46)');
    expect(await list.innerText()).not.toContain(consoleEn.tenants.version);
    // Found by name too.
    await page.getByLabel(consoleEn.tenants.search).fill('seaside res');
    await expect.poll(() => list.getByRole('listitem').count()).toBe(0);
    await page.getByLabel(consoleEn.tenants.search).fill('seaside');
    await page.getByRole('list', { name: fill(consoleEn.tenants.count, { count: 1 }) }).waitFor();
    await page.getByLabel(consoleEn.tenants.search).fill('');
    await checkWidths('tenant-list');
  });

  it('shows each tenant’s endpoints with copy buttons, in German and Thai (item 2)', async () => {
    await visit('/console/tenants/grand-hotel/overview');
    const origin = keycard.origin('grand-hotel');
    for (const [code, texts] of [
      ['de', consoleDe],
      ['th', consoleTh],
      ['en', consoleEn],
    ] as const) {
      await language(code);
      const region = page.getByRole('region', { name: texts.endpoints.heading });
      await region.waitFor();
      const text = await region.innerText();
      for (const address of [
        `${origin}/oidc`,
        `${origin}/oidc/.well-known/openid-configuration`,
        `${origin}/oidc/jwks`,
        `${origin}/login`,
      ]) {
        expect(text).toContain(address);
      }
      const open = region.getByRole('link', { name: new RegExp(texts.endpoints.open) });
      expect(await open.getAttribute('href')).toBe(`${origin}/login`);
      expect(await open.getAttribute('target')).toBe('_blank');
      if (code !== 'en') await checkWidths(`endpoints-${code}`);
    }
    // Copy: the issuer lands on the clipboard, and the page says so.
    const issuerRow = page.locator('.endpoint').filter({ hasText: consoleEn.endpoints.issuer }).first();
    await issuerRow.getByRole('button', { name: consoleEn.common.copy }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${origin}/oidc`);
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: consoleEn.endpoints.issuer }).count())
      .toBe(1);
  });

  it('says what is wrong and where in a client form, and a client is changed after creation (items 3, 4)', async () => {
    await visit('/console/tenants/grand-hotel/clients');
    const form = page.getByRole('form', { name: consoleEn.clients.createHeading });
    await form.waitFor();
    // No browser bubbles: the console validates.
    expect(await form.getAttribute('novalidate')).not.toBeNull();
    const id = form.getByLabel(consoleEn.clients.clientId, { exact: true });
    const redirects = form.getByLabel(consoleEn.clients.redirectUris, { exact: true });
    await form.getByRole('button', { name: consoleEn.clients.create }).click();
    await expect.poll(() => id.getAttribute('aria-invalid')).toBe('true');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('client-new-id');
    expect(await page.locator('#client-new-id-error').innerText()).toBe(consoleEn.fieldErrors.required);

    await id.fill('grand-web');
    await redirects.fill(
      'https://app.example.com/ok\nhttps://app.example.com/back#top\nhttp://app.example.com/plain',
    );
    await form.getByRole('button', { name: consoleEn.clients.create }).click();
    await expect.poll(() => redirects.getAttribute('aria-invalid')).toBe('true');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('client-new-redirects');
    expect(await page.locator('#client-new-redirects-error').innerText()).toBe(
      fill(consoleEn.fieldErrors.onLine, { line: 2, reason: consoleEn.fieldErrors.noFragment }),
    );
    expect(await alert()).toBe(
      fill(consoleEn.fieldErrors.summary, { fields: consoleEn.clients.redirectUris }),
    );
    // No API path anywhere on the page.
    expect(await page.locator('main').innerText()).not.toMatch(/redirectUris|\.\d\b/);
    await checkWidths('client-errors');

    await redirects.fill('https://app.example.com/ok\nhttp://app.example.com/plain');
    await form.getByRole('button', { name: consoleEn.clients.create }).click();
    await expect
      .poll(() => page.locator('#client-new-redirects-error').innerText())
      .toBe(fill(consoleEn.fieldErrors.onLine, { line: 2, reason: consoleEn.fieldErrors.needsHttps }));

    // A client id in use is said at the client id field.
    await id.fill('demo-app');
    await redirects.fill('https://app.example.com/ok');
    await form.getByRole('button', { name: consoleEn.clients.create }).click();
    await expect
      .poll(() => page.locator('#client-new-id-error').innerText())
      .toBe(consoleEn.fieldErrors.clientTaken);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('client-new-id');

    await id.fill('grand-web');
    await form.getByLabel(consoleEn.clientForm.name, { exact: false }).fill('Grand Web');
    await form.getByRole('button', { name: consoleEn.clients.create }).click();
    await page.getByRole('button', { name: consoleEn.clients.secretDone }).click();
    // The name people see when they sign in to it is on its card.
    await expect
      .poll(() =>
        page
          .getByRole('listitem')
          .filter({ has: page.getByRole('heading', { name: 'grand-web' }) })
          .innerText(),
      )
      .toContain('Grand Web');

    // Changed after creation: a new redirect, made public (no secret), then confidential again.
    await page.getByRole('button', { name: `${consoleEn.common.edit}: grand-web` }).click();
    const edit = page.getByRole('form', {
      name: fill(consoleEn.clientForm.editHeading, { clientId: 'grand-web' }),
    });
    await edit
      .getByLabel(consoleEn.clients.redirectUris, { exact: true })
      .fill('https://app.example.com/new#x');
    await edit.getByRole('button', { name: consoleEn.clientForm.save }).click();
    await expect
      .poll(() => page.locator('#client-grand-web-redirects-error').innerText())
      .toBe(fill(consoleEn.fieldErrors.onLine, { line: 1, reason: consoleEn.fieldErrors.noFragment }));
    await checkWidths('client-edit');
    await edit
      .getByLabel(consoleEn.clients.redirectUris, { exact: true })
      .fill('https://app.example.com/new');
    await edit.getByLabel(consoleEn.clients.authMethod).selectOption('none');
    await edit.getByRole('button', { name: consoleEn.clientForm.save }).click();
    await expect
      .poll(() =>
        page
          .getByRole('status')
          .filter({ hasText: fill(consoleEn.clientForm.saved, { clientId: 'grand-web' }) })
          .count(),
      )
      .toBe(1);
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'grand-web' }) });
    await expect.poll(() => card.innerText()).toContain('https://app.example.com/new');
    await expect.poll(() => card.innerText()).toContain(consoleEn.clients.authMethods.none);
    const stored = await keycard.services.db
      .selectFrom('oidc_clients')
      .select('metadata')
      .where('tenant_code', '=', 'grand-hotel')
      .where('client_id', '=', 'grand-web')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(stored.metadata)).toMatchObject({
      redirect_uris: ['https://app.example.com/new'],
      token_endpoint_auth_method: 'none',
    });
    await page.getByRole('button', { name: `${consoleEn.common.edit}: grand-web` }).click();
    await edit.getByLabel(consoleEn.clients.authMethod).selectOption('client_secret_basic');
    await edit.getByRole('button', { name: consoleEn.clientForm.save }).click();
    await page
      .getByRole('heading', { name: fill(consoleEn.clients.secretHeading, { clientId: 'grand-web' }) })
      .waitFor();
    await page.getByRole('button', { name: consoleEn.clients.secretDone }).click();
  });

  it('makes and changes a partner in a form, its refusals at their fields (items 3, 4)', async () => {
    await visit('/console/tenants/seaside/partners');
    const form = page.getByRole('form', { name: consoleEn.partnerForm.newHeading });
    await form.waitFor();
    await form.getByLabel(consoleEn.partners.code).fill('Booking App');
    await form.getByLabel(consoleEn.partners.issuer).fill('https://booking.example');
    await form
      .getByLabel(consoleEn.partnerForm.jwksUri, { exact: true })
      .fill('https://booking.example/jwks.json');
    await form.getByRole('button', { name: consoleEn.partners.save }).click();
    await expect
      .poll(() => page.locator('[aria-invalid="true"]').first().getAttribute('id'))
      .toMatch(/-code$/);
    expect(await alert()).toBe(fill(consoleEn.fieldErrors.summary, { fields: consoleEn.partners.code }));
    expect(await form.innerText()).toContain(consoleEn.fieldErrors.codeFormat);
    await checkWidths('partner-errors');

    await form.getByLabel(consoleEn.partners.code).fill('booking-app');
    await form.getByLabel(consoleEn.partnerForm.displayName, { exact: false }).fill('Booking app');
    await form.getByLabel(consoleEn.partnerForm.linking).selectOption('existing-only');
    await form.getByRole('button', { name: consoleEn.partners.save }).click();
    await expect
      .poll(() =>
        page
          .getByRole('status')
          .filter({ hasText: fill(consoleEn.partners.saved, { code: 'booking-app' }) })
          .count(),
      )
      .toBe(1);
    const stored = await keycard.services.db
      .selectFrom('partners')
      .selectAll()
      .where('tenant_code', '=', 'seaside')
      .where('partner_code', '=', 'booking-app')
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ linking: 'existing-only', display_name: 'Booking app', skip_mfa: 0 });

    await page.getByRole('button', { name: `${consoleEn.common.edit}: booking-app` }).click();
    const edit = page.getByRole('form', {
      name: fill(consoleEn.partnerForm.editHeading, { code: 'booking-app' }),
    });
    expect(await edit.getByLabel(consoleEn.partners.issuer).inputValue()).toBe('https://booking.example');
    await edit.getByLabel(consoleEn.partnerForm.skipMfa).check();
    await edit.getByRole('button', { name: consoleEn.partners.save }).click();
    await expect
      .poll(() => page.getByRole('form', { name: consoleEn.partnerForm.newHeading }).count())
      .toBe(1);
    const changed = await keycard.services.db
      .selectFrom('partners')
      .select(['skip_mfa', 'linking'])
      .where('tenant_code', '=', 'seaside')
      .where('partner_code', '=', 'booking-app')
      .executeTakeFirstOrThrow();
    expect(changed).toEqual({ skip_mfa: 1, linking: 'existing-only' });
    await checkWidths('partners');
  });

  it('says a tenant code in use at its field on the new-tenant form (item 4)', async () => {
    await visit('/console/new-tenant');
    const code = page.locator('#new-code');
    await code.fill('summit');
    await page.locator('#new-name').fill('Summit again');
    await page.locator('#new-loginDomain').fill('summit-again.localhost');
    await page.locator('#new-defaultRedirectUri').fill('https://app.example.com/');
    await page.getByRole('button', { name: consoleEn.newTenant.create }).click();
    await expect
      .poll(() => page.locator('#new-code-error').innerText())
      .toBe(consoleEn.fieldErrors.codeTaken);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('new-code');
    await code.fill('Summit Two');
    await page.getByRole('button', { name: consoleEn.newTenant.create }).click();
    await expect
      .poll(() => page.locator('#new-code-error').innerText())
      .toBe(consoleEn.fieldErrors.codeFormat);
    expect(await page.locator('main').innerText()).not.toMatch(/clients\.0|theme\.|loginDomain/);
  });

  it('reads the audit log as a table, by name, in words, with filters picked and a diff (item 5)', async () => {
    await visit('/console/audit');
    const table = page.getByRole('table', { name: consoleEn.auditLog.caption });
    await table.waitFor();
    expect(await table.innerText()).toContain(owner.email);
    // Pick a person and an action rather than typing ids.
    await page
      .getByLabel(consoleEn.auditLog.person)
      .selectOption({ label: `${owner.email} · ${consoleEn.audit.actorKinds.operator}` });
    await page
      .getByLabel(consoleEn.auditLog.action)
      .selectOption({ label: consoleEn.auditLog.actions.client.update });
    await page.getByRole('button', { name: consoleEn.audit.apply }).click();
    await expect.poll(() => table.locator('tbody > tr').count()).toBe(2);
    const rows = await table.locator('tbody > tr').allInnerTexts();
    for (const row of rows) {
      expect(row).toContain(owner.email);
      expect(row).toContain(consoleEn.auditLog.actions.client.update);
      expect(row).toContain('grand-web');
    }
    // The change, as a diff across the page.
    await table.getByRole('button', { name: consoleEn.auditLog.showChange }).first().click();
    const diff = page.getByRole('table', { name: consoleEn.auditLog.diffCaption });
    await diff.waitFor();
    expect(await diff.innerText()).toContain('authMethod');
    const width = await diff.evaluate((element) => element.getBoundingClientRect().width);
    const tableWidth = await table.evaluate((element) => element.getBoundingClientRect().width);
    expect(width).toBeGreaterThan(tableWidth * 0.9);
    // Ids on demand only.
    const operatorId = (
      await keycard.services.db.selectFrom('operators').select('id').executeTakeFirstOrThrow()
    ).id;
    expect(await table.innerText()).not.toContain(operatorId);
    await page.getByLabel(consoleEn.auditLog.showIds).check();
    expect(await table.innerText()).toContain(operatorId);
    await checkWidths('audit-filtered');

    // In German: actions and labels in words.
    await language('de');
    const germanTable = page.getByRole('table', { name: consoleDe.auditLog.caption });
    await expect.poll(() => germanTable.innerText()).toContain(consoleDe.auditLog.actions.client.update);
    await page.getByRole('button', { name: consoleDe.auditLog.clear }).click();
    await expect.poll(() => germanTable.locator('tbody > tr').count()).toBeGreaterThan(2);
    await expect.poll(() => germanTable.innerText()).toContain(consoleDe.auditLog.actions.partner.create);
    await checkWidths('audit-de');
    await language('en');
  });
});
