import { loopbackFetch } from '@keycard/demo-app/loopback-fetch';
import { en, type Texts } from '@keycard/texts';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { createUser } from '../../apps/server/src/features/accounts/user.repository.ts';
import type { TenantSettings } from '../../apps/server/src/features/tenants/tenant.types.ts';
import type { Keycard } from './keycard.ts';
import { totpCode } from './totp.ts';

export const password = 'Keycard-demo-1';
let counter = 0;

/** A fresh active user on a tenant (each test its own, so attempt counters never meet). */
export async function createTestUser(keycard: Keycard, tenant: string, type = 'property'): Promise<string> {
  counter += 1;
  const email = `e2e${counter}-${Date.now().toString(36)}@${tenant}.test`;
  await createUser(keycard.services.db, {
    tenantCode: tenant,
    email,
    type: type as 'property',
    locale: 'en',
    status: 'active',
    password,
    emailVerified: true,
  });
  return email;
}

/** The two-step login as a person does it, in the page's language. */
export async function signIn(page: Page, email: string, texts: Texts = en): Promise<void> {
  // Typed once the portal has taken the server-rendered form over: what is typed and pressed
  // during that hand-over is first-paint.spec.ts's subject, not these flows'.
  await page.locator('[data-kc-first-paint]').waitFor({ state: 'detached' });
  await page.getByLabel(texts.login.email.label, { exact: true }).fill(email);
  await page.getByRole('button', { name: texts.login.email.submit }).click();
  await page.getByLabel(texts.login.password.label, { exact: true }).fill(password);
  await page.getByRole('button', { name: texts.login.password.submit }).click();
}

export async function heading(page: Page): Promise<string> {
  return page.getByRole('heading', { level: 1 }).innerText();
}

export async function expectHeading(page: Page, text: string): Promise<void> {
  await expect.poll(() => heading(page), { timeout: 15_000 }).toBe(text);
}

/** Changes a tenant's settings in the database and drops the server's cached copy. */
export async function setTenantSettings(keycard: Keycard, tenant: string, settings: Partial<TenantSettings>) {
  const row = await keycard.services.db
    .selectFrom('tenants')
    .select('settings')
    .where('code', '=', tenant)
    .executeTakeFirstOrThrow();
  await keycard.services.db
    .updateTable('tenants')
    .set({ settings: JSON.stringify({ ...JSON.parse(row.settings), ...settings }) })
    .where('code', '=', tenant)
    .execute();
  keycard.services.tenants.invalidate();
}

/** The newest SMS or call the outbox holds for a number (what /_dev/outbox shows), with its code. */
export async function lastPhoneCode(
  keycard: Keycard,
  phone: string,
): Promise<{ channel: string; text: string; code: string }> {
  const response = await loopbackFetch(
    `http://localhost:${keycard.port}/_dev/outbox.json?to=${encodeURIComponent(phone)}`,
  );
  const [latest] = (await response.json()) as Array<{ channel: string; content: { text: string } }>;
  if (!latest) throw new Error(`no message for ${phone}`);
  const text = latest.content.text;
  const code =
    text.match(/#(\d{6})/)?.[1] ??
    text
      .match(/(\d)(?:, )(\d)(?:, )(\d)(?:, )(\d)(?:, )(\d)(?:, )(\d)/)
      ?.slice(1)
      .join('');
  if (!code) throw new Error(`no code in ${text}`);
  return { channel: latest.channel, text, code };
}

/**
 * Pastes a text into a field as a person does: it goes to the clipboard, then Ctrl+V in the
 * focused field (a trusted paste, so the browser applies the field's own limits to it).
 */
export async function pasteInto(field: Locator, text: string): Promise<void> {
  const page = field.page();
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: new URL(page.url()).origin,
  });
  await page.evaluate((value) => navigator.clipboard.writeText(value), text);
  await field.fill('');
  await field.focus();
  await page.keyboard.press('ControlOrMeta+V');
}

/** A 6-digit code as SMS texts and authenticator apps often show it: "123 456". */
export const spaced = (code: string) => `${code.slice(0, 3)} ${code.slice(3)}`;
/** …or "123-456". */
export const dashed = (code: string) => `${code.slice(0, 3)}-${code.slice(3)}`;

/** Pastes a code (formatted as shown somewhere else) on the current MFA screen and submits it. */
export async function pasteCode(page: Page, pasted: string, texts: Texts = en): Promise<void> {
  const field = page.getByLabel(texts.mfa.common.codeLabel, { exact: true });
  await pasteInto(field, pasted);
  // What the person sees before submitting: the six digits, nothing cut off.
  expect(await field.inputValue()).toBe(pasted.replace(/\D/g, ''));
  await page.getByRole('button', { name: texts.mfa.common.verify, exact: true }).click();
}

/** Enters a 6-digit code on the current MFA screen and submits it. */
export async function enterCode(page: Page, code: string, texts: Texts = en): Promise<void> {
  await page.getByLabel(texts.mfa.common.codeLabel, { exact: true }).fill(code);
  await page.getByRole('button', { name: texts.mfa.common.verify, exact: true }).click();
}

/**
 * Registers an authenticator app through the four screens, reading the setup key from the
 * page and computing the code independently. Answers the secret and the recovery codes shown.
 */
export async function registerTotp(
  page: Page,
  keycard: Keycard,
  options: {
    texts?: Texts;
    onScreen?: (name: string) => Promise<void>;
    trust?: boolean;
    /** Paste the code in this form (e.g. `spaced`) instead of typing it. */
    pasted?: (code: string) => string;
  } = {},
): Promise<{ secret: string; recoveryCodes: string[] }> {
  const texts = options.texts ?? en;
  const screen = options.onScreen ?? (async () => undefined);
  await page.getByRole('button', { name: texts.mfa.choose.app }).click();
  await expectHeading(page, texts.mfa.totp.download.heading);
  await screen('totp step 1');
  await page.getByRole('button', { name: texts.mfa.common.next, exact: true }).click();
  await expectHeading(page, texts.mfa.totp.scan.heading);
  // The QR code is an inline SVG from the server: it renders under the CSP with no network call.
  await expect
    .poll(() => page.locator('img.kc-mfa-qr').evaluate((img) => (img as HTMLImageElement).naturalWidth))
    .toBeGreaterThan(0);
  expect(await page.locator('img.kc-mfa-qr').getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/);
  await screen('totp step 2');
  const secret = (await page.getByLabel(texts.mfa.totp.scan.keyLabel, { exact: true }).inputValue()).replace(
    /\s+/g,
    '',
  );
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await page.getByRole('button', { name: texts.mfa.common.next, exact: true }).click();
  await expectHeading(page, texts.mfa.totp.code.heading);
  await screen('totp step 3');
  // "Trust this device" starts unticked (issue 19): the helper ticks it unless told not to.
  // Its words name the tenant's trusted-device days (60 by default, 1 on the operator tenant).
  const trustWords = texts.mfa.common.trustDevice.other.split('{{count}}')[0] ?? '';
  const trustBox = page.getByRole('checkbox', { name: new RegExp(`^${escapeRegExp(trustWords)}`) });
  expect(await trustBox.isChecked()).toBe(false);
  if (options.trust !== false) await trustBox.check();
  const code = await totpCode(keycard, secret);
  if (options.pasted) await pasteCode(page, options.pasted(code), texts);
  else await enterCode(page, code, texts);
  await expectHeading(page, texts.mfa.totp.done.heading);
  await screen('totp step 4 (recovery codes)');
  const recoveryCodes = await page
    .getByRole('list', { name: texts.mfa.recovery.listLabel })
    .getByRole('listitem')
    .allInnerTexts();
  expect(recoveryCodes).toHaveLength(10);
  return { secret, recoveryCodes };
}

/** Confirms the recovery codes are saved and continues out of the registration. */
export async function continueAfterRecoveryCodes(page: Page, texts: Texts = en): Promise<void> {
  await page.getByLabel(texts.mfa.recovery.saved).check();
  await page.getByRole('button', { name: texts.mfa.common.continue, exact: true }).click();
}

/** Stands in for the tenant's default redirect (the demo app's home) without a running app. */
export async function stubDefaultRedirect(page: Page): Promise<void> {
  await page.route('http://localhost:3001/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>app home</title><h1>App</h1>' }),
  );
}

/** Stored analytics events of a tenant, oldest first. */
export async function analyticsEvents(keycard: Keycard, tenant: string) {
  const rows = await keycard.services.db
    .selectFrom('analytics_events')
    .selectAll()
    .where('tenant_code', '=', tenant)
    .orderBy('created_at')
    .execute();
  return rows.map((row) => ({ event: row.event, userType: row.user_type, ...JSON.parse(row.properties) }));
}

/** A text as a regular expression that matches it literally. */
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
