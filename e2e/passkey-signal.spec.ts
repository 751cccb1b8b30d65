import { randomUUID } from 'node:crypto';
import { en } from '@keycard/texts';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { announcements, launchBrowser, newContext } from './support/browser.ts';
import { type Keycard, startKeycard } from './support/keycard.ts';
import { createTestUser, expectHeading, signIn, stubDefaultRedirect } from './support/mfa.ts';
import { addAuthenticator, type VirtualCredential, withoutConditionalUi } from './support/webauthn.ts';

const account = en.account;
const rpId = 'grand-hotel.localhost';
const signalNames = ['signalUnknownCredential', 'signalAllAcceptedCredentials', 'signalCurrentUserDetails'];

interface RecordedSignal {
  name: string;
  options: Record<string, unknown>;
}

/**
 * Wraps the browser's own Signal API methods (WebAuthn L3 §5.1.10) before any page script runs:
 * each call is recorded in the tab's sessionStorage (kept across its pages) and then made, so
 * the virtual authenticator still gets it.
 */
async function recordSignals(page: Page): Promise<void> {
  await page.addInitScript((names: string[]) => {
    const api = window.PublicKeyCredential as unknown as Record<string, (options: unknown) => Promise<void>>;
    for (const name of names) {
      const real = api?.[name];
      if (typeof real !== 'function') continue;
      Object.defineProperty(api, name, {
        configurable: true,
        writable: true,
        value(options: unknown) {
          const list = JSON.parse(sessionStorage.getItem('e2e-signals') ?? '[]') as unknown[];
          list.push({ name, options });
          sessionStorage.setItem('e2e-signals', JSON.stringify(list));
          return real.call(api, options);
        },
      });
    }
  }, signalNames);
}

async function signals(page: Page, name: string): Promise<Record<string, unknown>[]> {
  const all = (await page.evaluate(() =>
    JSON.parse(sessionStorage.getItem('e2e-signals') ?? '[]'),
  )) as RecordedSignal[];
  return all.filter((signal) => signal.name === name).map((signal) => signal.options);
}

/** The virtual authenticator reports binary fields in base64; the Signal API takes base64url. */
const base64url = (base64: string) => Buffer.from(base64, 'base64').toString('base64url');

/** After a password sign-in the hand-off may offer a passkey once: "Not now" goes on. */
async function passOfferTo(page: Page, url: string): Promise<void> {
  const notNow = page.getByRole('button', { name: en.passkeys.offer.notNow, exact: true });
  await expect
    .poll(async () => (await notNow.isVisible()) || page.url().startsWith(url), { timeout: 15_000 })
    .toBe(true);
  if (await notNow.isVisible()) await notNow.click();
  await page.waitForURL((address) => address.href.startsWith(url));
}

/**
 * The WebAuthn Signal API on the portal (docs/passkeys.md "Keeping authenticators in step"), in
 * Chromium with its virtual authenticator: the account page lists exactly the account's
 * passkeys for this domain and names a removed one; a passkey sign-in refused as unknown names
 * that credential, and a stored passkey refused for another reason is never named.
 */
describe('passkeys: the Signal API (Chromium, virtual authenticator)', () => {
  let keycard: Keycard;
  let browser: Browser;

  beforeAll(async () => {
    keycard = await startKeycard({ env: { LOGIN_IP_LIMIT_PER_MINUTE: '1000' } });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await keycard?.close();
  });

  async function recordingPage(options: { conditional?: boolean } = {}) {
    const page = await (await newContext(browser)).newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await recordSignals(page);
    if (options.conditional === false) await withoutConditionalUi(page);
    await stubDefaultRedirect(page);
    const authenticator = await addAuthenticator(page);
    return { page, authenticator };
  }

  const userId = (email: string) =>
    keycard.services.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow()
      .then((row) => row.id);

  it('the account page lists exactly the passkeys of this domain, and names a removed one', async () => {
    const email = await createTestUser(keycard, 'grand-hotel');
    const { page, authenticator } = await recordingPage();
    const accountPage = `${keycard.origin('grand-hotel')}/account`;
    await page.goto(`${keycard.origin('grand-hotel')}/login?redirectUri=${encodeURIComponent(accountPage)}`);
    // This Chromium has the Signal API itself: the calls below are real ones, recorded on the way.
    expect(
      await page.evaluate(() =>
        ['signalUnknownCredential', 'signalAllAcceptedCredentials', 'signalCurrentUserDetails'].map(
          (name) => typeof (PublicKeyCredential as unknown as Record<string, unknown>)[name],
        ),
      ),
    ).toEqual(['function', 'function', 'function']);
    await signIn(page, email);
    await passOfferTo(page, accountPage);

    await page.getByRole('button', { name: account.passkeys.create }).click();
    await expect
      .poll(() => announcements(page))
      .toContainEqual(expect.stringMatching(/^Passkey “.+” created\.$/));
    const [made] = await authenticator.credentials();
    if (!made?.userHandle) throw new Error('no passkey was made');
    const credentialId = base64url(made.credentialId);
    const handle = base64url(made.userHandle);
    // Before the passkey the account had no user handle: the first load said nothing.
    await expect
      .poll(() => signals(page, 'signalAllAcceptedCredentials'))
      .toEqual([{ rpId, userId: handle, allAcceptedCredentialIds: [credentialId] }]);
    expect(await signals(page, 'signalCurrentUserDetails')).toEqual([
      { rpId, userId: handle, name: email, displayName: email },
    ]);

    // A passkey made on the tenant's other domain (localhost) is another relying party's: not listed.
    const id = await userId(email);
    await keycard.services.db
      .insertInto('passkey_credentials')
      .values({
        id: randomUUID(),
        tenant_code: 'grand-hotel',
        user_id: id,
        credential_id: 'other-domain-credential',
        public_key: 'AA',
        counter: 0,
        transports: '[]',
        rp_id: 'localhost',
        aaguid: '00000000-0000-0000-0000-000000000000',
        backup_eligible: 0,
        backed_up: 0,
        name: 'On the other domain',
        created_at: keycard.clock.now(),
        last_used_at: null,
      })
      .execute();
    await page.reload();
    await expect.poll(async () => (await signals(page, 'signalAllAcceptedCredentials')).length).toBe(2);
    expect((await signals(page, 'signalAllAcceptedCredentials'))[1]).toEqual({
      rpId,
      userId: handle,
      allAcceptedCredentialIds: [credentialId],
    });

    // Removing the other domain's passkey names nothing to this domain's authenticators.
    await page.getByRole('button', { name: 'Remove: On the other domain' }).click();
    await page
      .getByRole('alertdialog')
      .getByRole('button', { name: account.passkeys.removeConfirm.confirm })
      .click();
    await expect.poll(() => announcements(page)).toContain('Passkey “On the other domain” removed.');
    await expect.poll(async () => (await signals(page, 'signalAllAcceptedCredentials')).length).toBe(3);
    expect(await signals(page, 'signalUnknownCredential')).toEqual([]);

    // Removing this domain's passkey names exactly it; the list that follows is empty.
    const name = (await page.getByRole('button', { name: /^Remove: / }).innerText()).trim();
    expect(name).toBeTruthy();
    await page.getByRole('button', { name: /^Remove: / }).click();
    await page
      .getByRole('alertdialog')
      .getByRole('button', { name: account.passkeys.removeConfirm.confirm })
      .click();
    await expect.poll(() => page.getByText(account.passkeys.none).isVisible()).toBe(true);
    await expect.poll(() => signals(page, 'signalUnknownCredential')).toEqual([{ rpId, credentialId }]);
    await expect
      .poll(async () => (await signals(page, 'signalAllAcceptedCredentials')).at(-1))
      .toEqual({
        rpId,
        userId: handle,
        allAcceptedCredentialIds: [],
      });
    // Chromium's virtual authenticator acts on the signal as a passkey provider would.
    await expect.poll(async () => (await authenticator.credentials()).length).toBe(0);
    await page.context().close();
  });

  /** A new user with a passkey made from the offer after a password sign-in; answers it. */
  async function userWithPasskey(): Promise<{ email: string; credential: VirtualCredential }> {
    const email = await createTestUser(keycard, 'grand-hotel');
    const { page, authenticator } = await recordingPage({ conditional: false });
    await page.goto(`${keycard.origin('grand-hotel')}/login`);
    await signIn(page, email);
    await expectHeading(page, en.passkeys.offer.heading);
    await page.getByRole('button', { name: en.passkeys.offer.create }).click();
    await expectHeading(page, en.passkeys.titles.created);
    const [credential] = await authenticator.credentials();
    if (!credential) throw new Error('no passkey was made');
    await page.context().close();
    return { email, credential };
  }

  /** A passkey sign-in that is refused, with the words the page shows for that refusal. */
  async function signInWithPasskey(
    page: Page,
    said: string = en.login.passkey.errors.failed,
  ): Promise<{ status: number; code: unknown }> {
    const answer = page.waitForResponse((response) => response.url().endsWith('/api/passkeys/sign-in'));
    await page.getByRole('button', { name: en.login.passkey.signIn }).click();
    const response = await answer;
    const body = (await response.json()) as { code?: unknown };
    await expect.poll(() => page.getByText(said).isVisible()).toBe(true);
    return { status: response.status(), code: body.code };
  }

  it('a passkey sign-in refused as unknown names that credential; a stored one refused is never named', async () => {
    const { email, credential } = await userWithPasskey();
    const credentialId = base64url(credential.credentialId);
    const { page, authenticator } = await recordingPage({ conditional: false });
    await authenticator.addCredential(credential);
    await page.goto(`${keycard.origin('grand-hotel')}/login`);
    const id = await userId(email);

    // A disabled account's passkey is still the server's: refused, and not named unknown.
    await keycard.services.db.updateTable('users').set({ status: 'disabled' }).where('id', '=', id).execute();
    expect(await signInWithPasskey(page)).toEqual({ status: 401, code: 'passkey.verification_failed' });
    expect(await signals(page, 'signalUnknownCredential')).toEqual([]);
    expect(await authenticator.credentials()).toHaveLength(1);
    await keycard.services.db.updateTable('users').set({ status: 'active' }).where('id', '=', id).execute();

    // Its server record deleted: the refusal says unknown, and the page names the credential.
    await keycard.services.db
      .deleteFrom('passkey_credentials')
      .where('tenant_code', '=', 'grand-hotel')
      .where('credential_id', '=', credentialId)
      .execute();
    await page.reload();
    expect(await signInWithPasskey(page, en.login.passkey.errors.removed)).toEqual({
      status: 401,
      code: 'passkey.unknown_credential',
    });
    await expect.poll(() => signals(page, 'signalUnknownCredential')).toEqual([{ rpId, credentialId }]);
    await expect.poll(async () => (await authenticator.credentials()).length).toBe(0);
    await page.context().close();
  });
});
