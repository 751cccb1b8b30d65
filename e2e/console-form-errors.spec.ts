import { tmpdir } from 'node:os';
import path from 'node:path';
import { de as consoleDe } from '@keycard/texts/console/de';
import { en as consoleEn } from '@keycard/texts/console/en';
import { fr as consoleFr } from '@keycard/texts/console/fr';
import { th as consoleTh } from '@keycard/texts/console/th';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible } from './support/browser.ts';
import { expectSignedInAs, fillText as fill, signInFirstTime, useConsoleStack } from './support/console.ts';
import type { Keycard } from './support/keycard.ts';

const owner = { email: 'forms-owner@ops.example', password: 'Operator-forms-77' };
const shots = process.env.CONSOLE_SHOTS ?? path.join(tmpdir(), 'console-shots');
const tenant = 'grand-hotel';
type Catalogue = typeof consoleDe;

/** API paths and field names the admin API refuses with: never on the page (issue 19, item 4). */
const apiPath =
  /\w+\.\d+|\bmfa\.|settings\.|trustedDeviceDays|passwordExpiryDays|passwordWarningDays|analyticsId|\bclientId\b|common\.validation/;

/**
 * Issue 19 item 4 for the forms the client and partner work left: the tenant settings (and their
 * JSON), inviting and finding users, and the operator forms. Each is submitted with bad values in
 * Chromium; each refused field says its reason in words in the console's language, the first takes
 * focus, the alert names the fields by label, no API path or browser bubble is shown. English,
 * German, Thai and French; axe and screenshots at 1280 and 375 px.
 */
describe('console form errors (Chromium)', () => {
  let keycard: Keycard;
  let browser: Browser;
  let page: Page;
  let admin: string;

  useConsoleStack(owner, (stack) => ({ keycard, browser, page, admin } = stack), { shots });

  const language = (code: string) => page.locator('label.language select').selectOption(code);
  const alert = () => page.getByRole('alert').filter({ hasText: /\S/ }).first().innerText();
  const focused = () => page.evaluate(() => document.activeElement?.id ?? '');
  const errorOf = (id: string) => page.locator(`#${id}-error`).innerText();
  const invalid = (id: string) => page.locator(`#${id}`).getAttribute('aria-invalid');

  /** The error tied to the control: aria-invalid, and aria-describedby naming the error's text. */
  async function expectTied(id: string, text: string): Promise<void> {
    await expect.poll(() => invalid(id)).toBe('true');
    const describedBy = (await page.locator(`#${id}`).getAttribute('aria-describedby')) ?? '';
    expect(describedBy.split(' ')).toContain(`${id}-error`);
    expect(await errorOf(id)).toBe(text);
  }

  /** What people read: every alert, status and form (controls' own values left out). */
  async function expectNoApiPath(): Promise<void> {
    const shown = await page.evaluate(() => {
      const parts = [...document.querySelectorAll('[role="alert"], [role="status"], form')].map((node) => {
        const copy = node.cloneNode(true) as HTMLElement;
        for (const control of copy.querySelectorAll('textarea, input, select')) control.remove();
        return copy.textContent ?? '';
      });
      return parts.join('\n');
    });
    expect(shown).not.toMatch(apiPath);
  }

  async function checkWidths(label: string): Promise<void> {
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: width < 600 ? 800 : 900 });
      await expectAccessible(page, `${label} at ${width} px`);
      await page.screenshot({ path: path.join(shots, `form-errors-${label}-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  let signedIn = false;
  /** The owner's first sign-in (password, a new authenticator app), the passkey offer declined. */
  async function signIn(): Promise<void> {
    if (signedIn) return;
    await page.goto(`${admin}/console/`);
    await signInFirstTime(page, keycard, owner);
    signedIn = true;
  }

  async function open(address: string): Promise<void> {
    await signIn();
    await page.goto(`${admin}${address}`);
    await expectSignedInAs(page, owner.email);
  }

  /** The settings form with four mistakes: each said at its field, the first focused. */
  async function settingsMistakes(c: Catalogue, label: string): Promise<void> {
    await page.locator('#trusted-days').fill('0x10');
    await page.locator('#password-expiry').fill('0');
    await page.locator('#password-warning').fill('400');
    for (const name of Object.values(c.settings.methodNames)) await page.getByLabel(name).uncheck();
    await page.getByRole('button', { name: c.settings.save }).click();
    await expectTied('trusted-days', c.fieldErrors.wholeNumber);
    await expect.poll(focused).toBe('trusted-days');
    await expectTied('password-expiry', fill(c.fieldErrors.atLeast, { min: 1 }));
    await expectTied('password-warning', fill(c.fieldErrors.atMost, { max: 365 }));
    expect(await page.locator('#mfa-methods-error').innerText()).toBe(c.fieldErrors.pickOne);
    const methods = page.getByLabel(Object.values(c.settings.methodNames)[0] ?? '');
    expect(await methods.getAttribute('aria-invalid')).toBe('true');
    expect(await alert()).toBe(
      fill(c.fieldErrors.summary, {
        fields: [
          c.settings.trustedDeviceDays,
          c.settings.methods,
          c.settings.passwordExpiryDays,
          c.settings.passwordWarningDays,
        ].join(', '),
      }),
    );
    await expectNoApiPath();
    await checkWidths(label);
  }

  it('says each settings mistake at its field, in English, German and Thai', async () => {
    await open(`/console/tenants/${tenant}/settings`);
    const form = page.getByRole('form', { name: consoleEn.settings.heading, exact: true });
    await form.waitFor();
    // A tenant without a list is shown what the server offers it: not the partner app (item 12).
    expect(await page.getByLabel(consoleEn.settings.methodNames.smmobile).isChecked()).toBe(false);
    expect(await page.getByLabel(consoleEn.settings.methodNames.totp).isChecked()).toBe(true);
    expect(await form.getAttribute('novalidate')).not.toBeNull();
    // Day counts are typed, not spun: no browser number field that turns "1e" into nothing.
    expect(await page.locator('#trusted-days').getAttribute('type')).toBeNull();
    await settingsMistakes(consoleEn, 'settings-en');
    // Nothing was saved.
    await keycard.services.tenants.refresh();
    expect((await keycard.services.tenants.byCode(tenant))!.settings.passwordExpiryDays ?? null).toBeNull();

    // A warning longer than the expiry, said at the warning.
    await page.locator('#trusted-days').fill('30');
    await page.locator('#password-expiry').fill('30');
    await page.locator('#password-warning').fill('60');
    await page.getByLabel(consoleEn.settings.methodNames.totp).check();
    await page.getByRole('button', { name: consoleEn.settings.save }).click();
    await expectTied('password-warning', consoleEn.fieldErrors.warningTooLong);
    await expect.poll(focused).toBe('password-warning');
    expect(await invalid('password-expiry')).toBe('false');
    await page.locator('#password-warning').fill('7');
    await page.getByRole('button', { name: consoleEn.settings.save }).click();
    await page.getByRole('status').filter({ hasText: consoleEn.common.saved }).waitFor();
    expect(await invalid('password-warning')).toBe('false');

    await language('de');
    await page.getByRole('heading', { name: consoleDe.settings.heading, level: 2 }).waitFor();
    await settingsMistakes(consoleDe, 'settings-de');
    await language('th');
    await page.getByRole('heading', { name: consoleTh.settings.heading, level: 2 }).waitFor();
    await settingsMistakes(consoleTh, 'settings-th');
    await language('en');
  });

  it('says what is wrong in the settings JSON in words, including what only the server knows', async () => {
    await open(`/console/tenants/${tenant}/settings`);
    const json = page.locator('#settings-json');
    const apply = page.getByRole('button', { name: consoleEn.settings.jsonSave });
    await json.fill('{ "mfa": ');
    await apply.click();
    await expectTied('settings-json', consoleEn.errors.invalidJson);
    await expect.poll(focused).toBe('settings-json');
    expect(await alert()).toBe(
      fill(consoleEn.fieldErrors.summary, { fields: consoleEn.settings.jsonHeading }),
    );

    await json.fill('{ "mfa": { "trustedDeviceDays": 900 }, "captcha": { "siteKey": "" }, "colour": 1 }');
    await apply.click();
    await expect
      .poll(() => errorOf('settings-json'))
      .toBe(
        [
          fill(consoleEn.fieldErrors.jsonAt, {
            where: consoleEn.settings.trustedDeviceDays,
            reason: fill(consoleEn.fieldErrors.atMost, { max: 365 }),
          }),
          fill(consoleEn.fieldErrors.jsonAt, {
            where: 'captcha › siteKey',
            reason: consoleEn.fieldErrors.required,
          }),
          fill(consoleEn.fieldErrors.unknownSetting, { name: 'colour' }),
        ].join(' '),
      );

    // The stored expiry is 30 days: a longer warning is refused by the server, said the same way.
    await json.fill('{ "passwordWarningDays": 60 }');
    await apply.click();
    await expect
      .poll(() => errorOf('settings-json'))
      .toBe(
        fill(consoleEn.fieldErrors.jsonAt, {
          where: consoleEn.settings.passwordWarningDays,
          reason: consoleEn.fieldErrors.warningTooLong,
        }),
      );
    await expect.poll(focused).toBe('settings-json');
    await expectNoApiPath();
    await checkWidths('settings-json-en');
  });

  it('says what is wrong when inviting or finding users, in English and German', async () => {
    await open(`/console/tenants/${tenant}/users`);
    const invite = page.getByRole('form', { name: consoleEn.users.inviteHeading });
    await invite.waitFor();
    expect(await invite.getAttribute('novalidate')).not.toBeNull();
    await invite.getByRole('button', { name: consoleEn.users.invite }).click();
    await expectTied('invite-email', consoleEn.fieldErrors.required);
    await expect.poll(focused).toBe('invite-email');
    expect(await alert()).toBe(fill(consoleEn.fieldErrors.summary, { fields: consoleEn.users.email }));

    await page.locator('#invite-email').fill('not-an-address');
    await invite.getByRole('button', { name: consoleEn.users.invite }).click();
    await expect.poll(() => errorOf('invite-email')).toBe(consoleEn.fieldErrors.email);
    await expect.poll(focused).toBe('invite-email');

    // A full-width "ａ" (a look-alike the API refuses) in the search: said at the search field.
    await page.locator('#user-search').fill('\uff41nna');
    await page.getByRole('button', { name: consoleEn.users.searchButton }).click();
    await expectTied('user-search', consoleEn.fieldErrors.emailPart);
    await expect.poll(focused).toBe('user-search');
    expect(await invalid('invite-email')).toBe('false');
    await expectNoApiPath();
    await checkWidths('users-en');

    await language('de');
    await page.getByRole('heading', { name: consoleDe.users.heading, level: 2 }).waitFor();
    await page.locator('#invite-email').fill('anna@');
    await page.getByRole('button', { name: consoleDe.users.invite }).click();
    await expectTied('invite-email', consoleDe.fieldErrors.email);
    await expect.poll(focused).toBe('invite-email');
    expect(await alert()).toBe(fill(consoleDe.fieldErrors.summary, { fields: consoleDe.users.email }));
    await expectNoApiPath();
    await checkWidths('users-de');
    // The section's alert is said again in the language the console changes to, field and all.
    await language('th');
    await expect.poll(alert).toBe(fill(consoleTh.fieldErrors.summary, { fields: consoleTh.users.email }));
    await expect.poll(() => errorOf('invite-email')).toBe(consoleTh.fieldErrors.email);
    await language('en');
  });

  it('says what is wrong in the operator forms, and a code in use at its field, in English and French', async () => {
    await open('/console/operators');
    const person = page.getByRole('form', { name: consoleEn.operators.inviteHeading });
    const machine = page.getByRole('form', { name: consoleEn.operators.machineHeading });
    await person.waitFor();
    for (const form of [person, machine]) expect(await form.getAttribute('novalidate')).not.toBeNull();

    await person.getByRole('button', { name: consoleEn.operators.invite }).click();
    await expectTied('operator-email', consoleEn.fieldErrors.required);
    await expect.poll(focused).toBe('operator-email');
    await page.locator('#operator-email').fill('someone');
    await person.getByRole('button', { name: consoleEn.operators.invite }).click();
    await expect.poll(() => errorOf('operator-email')).toBe(consoleEn.fieldErrors.email);
    // The owner is an operator already: said at the address.
    await page.locator('#operator-email').fill(owner.email);
    await person.getByRole('button', { name: consoleEn.operators.invite }).click();
    await expect.poll(() => errorOf('operator-email')).toBe(consoleEn.fieldErrors.personTaken);
    await expect.poll(focused).toBe('operator-email');

    await machine.getByRole('button', { name: consoleEn.operators.createMachine }).click();
    await expectTied('operator-client-id', consoleEn.fieldErrors.required);
    await expect.poll(focused).toBe('operator-client-id');
    await page.locator('#operator-client-id').fill('ci bot!');
    await machine.getByRole('button', { name: consoleEn.operators.createMachine }).click();
    await expect.poll(() => errorOf('operator-client-id')).toBe(consoleEn.fieldErrors.clientIdFormat);
    expect(await alert()).toBe(fill(consoleEn.fieldErrors.summary, { fields: consoleEn.operators.clientId }));
    await expectNoApiPath();
    await checkWidths('operators-en');

    await page.locator('#operator-client-id').fill('ci-bot');
    await machine.getByRole('button', { name: consoleEn.operators.createMachine }).click();
    await page.getByRole('button', { name: consoleEn.clients.secretDone }).click();
    await page.locator('#operator-client-id').fill('ci-bot');
    await machine.getByRole('button', { name: consoleEn.operators.createMachine }).click();
    await expectTied('operator-client-id', consoleEn.fieldErrors.machineTaken);
    await expect.poll(focused).toBe('operator-client-id');
    expect(await alert()).toBe(consoleEn.errors.admin.operator_exists);
    // The invitation's language starts as the console's.
    expect(await page.locator('#operator-locale').inputValue()).toBe('en');

    await language('fr');
    await page.getByRole('heading', { name: consoleFr.operators.heading, level: 1 }).waitFor();
    // A change of language says the marked field, and the section's alert, again in the new one.
    await expect.poll(() => errorOf('operator-client-id')).toBe(consoleFr.fieldErrors.machineTaken);
    await expect.poll(alert).toBe(consoleFr.errors.admin.operator_exists);
    // The invitation's language follows the console's until the owner picks one.
    await expect.poll(() => page.locator('#operator-locale').inputValue()).toBe('fr');
    await page.locator('#operator-locale').selectOption('de');
    await language('th');
    await expect.poll(alert).toBe(consoleTh.errors.admin.operator_exists);
    expect(await page.locator('#operator-locale').inputValue()).toBe('de');
    await language('fr');
    await page.getByRole('heading', { name: consoleFr.operators.heading, level: 1 }).waitFor();
    // The only owner cannot become a tenant administrator: said at the role.
    const mine = page.getByRole('listitem').filter({
      has: page.getByRole('heading', { name: fill(consoleFr.operators.you, { name: owner.email }) }),
    });
    await mine.getByRole('button', { name: consoleFr.operators.edit }).click();
    const role = mine.getByRole('combobox', { name: consoleFr.operators.role, exact: true });
    await role.selectOption('tenant_admin');
    await mine.getByRole('button', { name: consoleFr.operators.save }).click();
    const roleId = (await role.getAttribute('id')) ?? '';
    await expectTied(roleId, consoleFr.fieldErrors.lastOwner);
    await expect.poll(focused).toBe(roleId);
    expect(await alert()).toBe(consoleFr.errors.admin.last_owner);

    await page.locator('#operator-email').fill('quelqu’un');
    await page.getByRole('button', { name: consoleFr.operators.invite, exact: true }).click();
    await expectTied('operator-email', consoleFr.fieldErrors.email);
    expect(await alert()).toBe(fill(consoleFr.fieldErrors.summary, { fields: consoleFr.operators.email }));
    await expectNoApiPath();
    await checkWidths('operators-fr');
    await language('en');
  });

  it('says the new-tenant form’s summaries, its created notice and the overview’s saved again in a new language', async () => {
    await open('/console/new-tenant');
    const status = () => page.getByRole('status').filter({ hasText: /\S/ }).first().innerText();
    const create = (c: Catalogue) =>
      page.getByRole('button', { name: c.newTenant.create, exact: true }).click();
    await page.locator('#new-code').fill('Harbour Inn');
    await page.locator('#new-name').fill('Harbour Inn');
    await page.locator('#new-loginDomain').fill('harbour.localhost');
    await page.locator('#primaryForeground-hex').fill('#8a8a8a');
    // The starting colours are checked first: the summary and the failing pair at its colour.
    await create(consoleEn);
    await expect.poll(alert).toBe(consoleEn.newTenant.contrastSummary);
    expect((await errorOf('primaryForeground')).startsWith(consoleEn.contrast.pairs.primaryText)).toBe(true);
    await language('de');
    await expect.poll(alert).toBe(consoleDe.newTenant.contrastSummary);
    const pairSaid = async () =>
      (await errorOf('primaryForeground')).startsWith(consoleDe.contrast.pairs.primaryText);
    await expect.poll(pairSaid).toBe(true);

    // A passing colour; the code's format is said at its field, and both follow a switch.
    await page.locator('#primaryForeground-hex').fill('#ffffff');
    await create(consoleDe);
    await expectTied('new-code', consoleDe.fieldErrors.codeFormat);
    expect(await alert()).toBe(consoleDe.fieldErrors.summaryShort);
    await language('th');
    await expect.poll(alert).toBe(consoleTh.fieldErrors.summaryShort);
    await expect.poll(() => errorOf('new-code')).toBe(consoleTh.fieldErrors.codeFormat);

    // Created, its login client's secret shown once: the notice is said in each new language.
    await page.locator('#new-code').fill('harbour');
    await create(consoleTh);
    await expect.poll(status).toBe(fill(consoleTh.newTenant.created, { code: 'harbour' }));
    await language('fr');
    await expect.poll(status).toBe(fill(consoleFr.newTenant.created, { code: 'harbour' }));
    await checkWidths('new-tenant-created-fr');

    // The overview's "saved", the same.
    await page.getByRole('button', { name: consoleFr.clients.secretDone }).click();
    await page.waitForURL(`${admin}/console/tenants/harbour/overview`);
    await page.locator('#default-redirect').fill('https://app.harbour.example/home');
    await page.getByRole('button', { name: consoleFr.overview.saveDetails, exact: true }).click();
    await expect.poll(status).toBe(consoleFr.common.saved);
    await language('de');
    await expect.poll(status).toBe(consoleDe.common.saved);
    await language('en');
    await expect.poll(status).toBe(consoleEn.common.saved);
  });
});
