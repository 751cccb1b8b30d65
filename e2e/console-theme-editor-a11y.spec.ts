import { tmpdir } from 'node:os';
import path from 'node:path';
import { de as consoleDe } from '@keycard/texts/console/de';
import { en as consoleEn } from '@keycard/texts/console/en';
import { fr as consoleFr } from '@keycard/texts/console/fr';
import { th as consoleTh } from '@keycard/texts/console/th';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { imageRules } from '../apps/console/src/features/theme/image-rules.ts';
import { imageSlots } from '../apps/server/src/features/assets/assets.service.ts';
import { expectAccessible } from './support/browser.ts';
import { fillText as fill, signInFirstTime, useConsoleStack } from './support/console.ts';
import type { Keycard } from './support/keycard.ts';

const owner = { email: 'theme-a11y@ops.example', password: 'Operator-theme-77' };
const shots = process.env.CONSOLE_SHOTS ?? path.join(tmpdir(), 'console-shots');
const tenant = 'grand-hotel';
type Catalogue = typeof consoleDe;
const catalogues = { en: consoleEn as Catalogue, de: consoleDe, fr: consoleFr, th: consoleTh };
type Language = keyof typeof catalogues;

/** A PNG's signature and header, then filler: a PNG by its type, not one the server can read. */
const fakePng = (size: number) => {
  const bytes = Buffer.alloc(size, 7);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes);
  return bytes;
};

/**
 * Issue 19 item 10, the theme editor's accessibility, in Chromium at 1280 and 375 px and in
 * several languages: focus never under the sticky Publish bar (WCAG 2.2 SC 2.4.11), upload
 * errors at the field naming the server's limit and types, contrast samples as swatches, a text
 * override too wide for the phone preview flagged at its field, and a new tenant's starting
 * colours contrast-checked before saving. axe finds nothing on any of it.
 */
describe('theme editor accessibility (Chromium)', () => {
  let keycard: Keycard;
  let browser: Browser;
  let page: Page;
  let admin: string;

  useConsoleStack(owner, (stack) => ({ keycard, browser, page, admin } = stack), { shots });

  // The language menu is in the header, folded away on a phone: chosen at 1280 px.
  const language = async (code: Language) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.locator('label.language select').selectOption(code);
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(code);
  };
  const shot = (name: string) => page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });
  const openEditor = async () => {
    await page.goto(`${admin}/console/tenants/${tenant}/theme`);
    await page.locator('#theme-heading').waitFor();
    await page.locator('#theme-name').waitFor();
  };
  const describedBy = async (selector: string) =>
    ((await page.locator(selector).getAttribute('aria-describedby')) ?? '').split(' ');
  /** The accepted types as the language writes a list with "or". */
  const typesIn = (code: Language, slot: 'logo' | 'favicon' | 'background') =>
    new Intl.ListFormat(code, { type: 'disjunction' }).format(imageRules[slot].names);

  // expect.poll (in registerTotp) runs only inside a test.
  it('signs the owner in', async () => {
    await page.goto(`${admin}/console/`);
    await signInFirstTime(page, keycard, owner);
  });

  it('keeps the limits and types the console names equal to the server’s', () => {
    for (const slot of ['logo', 'favicon', 'background'] as const) {
      expect(imageRules[slot].maxBytes).toBe(imageSlots[slot].maxBytes);
      expect(imageRules[slot].names.map((name) => name.toLowerCase())).toEqual(imageSlots[slot].types);
    }
  });

  it('never hides the focused control under the sticky Publish bar, at 1280 and 375 px', async () => {
    await language('en');
    await openEditor();
    // A change, so Publish and Discard are live and the bar is at its tallest.
    await page.locator('#theme-name').fill('Grand Hotel (draft)');
    for (const [width, height] of [
      [1280, 720],
      [375, 700],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.locator('#theme-name').focus();
      const seen: string[] = [];
      for (let step = 0; step < 150; step++) {
        const state = await page.evaluate(() => {
          const focused = document.activeElement as HTMLElement | null;
          const bar = document.querySelector('.publish-bar') as HTMLElement;
          const form = document.querySelector('.theme-form') as HTMLElement;
          if (!focused || !form.contains(focused)) return null;
          const name = `${focused.tagName}#${focused.id}[${focused.getAttribute('aria-label') ?? focused.textContent?.trim().slice(0, 30) ?? ''}]`;
          if (bar.contains(focused)) return { name, covered: false };
          const a = focused.getBoundingClientRect();
          const b = bar.getBoundingClientRect();
          const covered = a.left < b.right && a.right > b.left && a.top < b.bottom && a.bottom > b.top;
          return { name, covered, sticky: getComputedStyle(bar).position === 'sticky' };
        });
        if (!state) break;
        seen.push(state.name);
        expect(state.covered, `${state.name} under the Publish bar at ${width} px`).toBe(false);
        await page.keyboard.press('Tab');
      }
      // Every control of the form was reached, up to the bar's own buttons.
      expect(seen.length).toBeGreaterThan(20);
      expect(seen.some((name) => name.includes(consoleEn.theme.publish))).toBe(true);
      expect(await page.locator('.publish-bar').evaluate((bar) => getComputedStyle(bar).position)).toBe(
        width === 1280 ? 'sticky' : 'static',
      );
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('says an upload error at its field, with the limit and the types in the console’s language', async () => {
    for (const code of ['de', 'en', 'th'] as const) {
      const texts = catalogues[code];
      await language(code);
      await openEditor();
      const kib = (bytes: number) =>
        fill(texts.theme.kib, { size: new Intl.NumberFormat(code).format(bytes / 1024) });
      // Too large for the logo: refused before sending, at the field.
      await page.locator('#logo-upload').setInputFiles({
        name: 'huge.png',
        mimeType: 'image/png',
        buffer: fakePng(300 * 1024),
      });
      const logoError = page.locator('#logo-upload-error');
      await expect
        .poll(() => logoError.innerText())
        .toBe(
          fill(texts.theme.uploadTooLarge, {
            actual: kib(300 * 1024),
            types: typesIn(code, 'logo'),
            size: kib(256 * 1024),
          }),
        );
      expect(await logoError.getAttribute('role')).toBe('alert');
      expect(await describedBy('#logo-upload')).toContain('logo-upload-error');
      expect(await page.locator('#logo-upload').getAttribute('aria-invalid')).toBe('true');
      // The label names the same limit and types.
      expect(await page.locator('label[for="logo-upload"]').innerText()).toBe(
        fill(texts.theme.uploadLogo, { types: typesIn(code, 'logo'), size: kib(256 * 1024) }),
      );
      // A type the favicon does not take.
      await page.locator('#favicon-upload').setInputFiles({
        name: 'icon.gif',
        mimeType: 'image/gif',
        buffer: Buffer.from('GIF89a'),
      });
      const faviconError = page.locator('#favicon-upload-error');
      await expect
        .poll(() => faviconError.innerText())
        .toBe(fill(texts.theme.uploadWrongType, { types: typesIn(code, 'favicon'), size: kib(64 * 1024) }));
      expect(await describedBy('#favicon-upload')).toContain('favicon-upload-error');
      // A PNG by name that the server cannot read: its refusal is said at the field too.
      await page.locator('#logo-upload').setInputFiles({
        name: 'broken.png',
        mimeType: 'image/png',
        buffer: fakePng(2048),
      });
      await expect
        .poll(() => logoError.innerText())
        .toBe(fill(texts.theme.uploadInvalid, { types: typesIn(code, 'logo'), size: kib(256 * 1024) }));
      // The background image: the same reasons at its own field, with its limit and types.
      const backgroundError = page.locator('#background-upload-error');
      const background = page.locator('#background-upload');
      await background.setInputFiles({
        name: 'huge.webp',
        mimeType: 'image/webp',
        buffer: fakePng(300 * 1024),
      });
      await expect
        .poll(() => backgroundError.innerText())
        .toBe(
          fill(texts.theme.uploadTooLarge, {
            actual: kib(300 * 1024),
            types: typesIn(code, 'background'),
            size: kib(256 * 1024),
          }),
        );
      expect(await backgroundError.getAttribute('role')).toBe('alert');
      expect(await describedBy('#background-upload')).toContain('background-upload-error');
      expect(await background.getAttribute('aria-invalid')).toBe('true');
      await background.setInputFiles({
        name: 'photo.gif',
        mimeType: 'image/gif',
        buffer: Buffer.from('GIF89a'),
      });
      await expect
        .poll(() => backgroundError.innerText())
        .toBe(
          fill(texts.theme.uploadWrongType, { types: typesIn(code, 'background'), size: kib(256 * 1024) }),
        );
      // Refused by the server (a PNG by name it cannot read): said at the field, not the alert.
      await background.setInputFiles({ name: 'broken.png', mimeType: 'image/png', buffer: fakePng(2048) });
      await expect
        .poll(() => backgroundError.innerText())
        .toBe(fill(texts.theme.uploadInvalid, { types: typesIn(code, 'background'), size: kib(256 * 1024) }));
      expect(await page.locator('.publish-bar [role="alert"]').innerText()).toBe('');
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: 900 });
        await page.locator('#background-upload').scrollIntoViewIfNeeded();
        await expectAccessible(page, `theme editor upload errors ${code} ${width}`);
        await page.screenshot({ path: path.join(shots, `theme-upload-errors-${code}-${width}.png`) });
      }
      await page.setViewportSize({ width: 1280, height: 900 });
    }
    // The console's language changed: the reasons at the fields follow it.
    await language('de');
    await expect
      .poll(() => page.locator('#background-upload-error').innerText())
      .toBe(
        fill(consoleDe.theme.uploadInvalid, {
          types: typesIn('de', 'background'),
          size: fill(consoleDe.theme.kib, { size: '256' }),
        }),
      );
    await expect
      .poll(() => page.locator('#favicon-upload-error').innerText())
      .toBe(
        fill(consoleDe.theme.uploadWrongType, {
          types: typesIn('de', 'favicon'),
          size: fill(consoleDe.theme.kib, { size: '64' }),
        }),
      );
  });

  it('draws the contrast samples as swatches, with the verdict in words, and axe finds nothing', async () => {
    await language('en');
    await openEditor();
    const foreground = page.getByLabel(
      fill(consoleEn.theme.colourHex, { name: consoleEn.theme.colours.primaryForeground }),
    );
    await foreground.fill('#8a8a8a');
    const failing = page.locator('.contrast-list li[data-pair="primaryText"]');
    await expect.poll(() => failing.getAttribute('class')).toBe('fail');
    expect(await failing.innerText()).toContain(consoleEn.contrast.fails);
    // No text inside a swatch: nothing there for contrast to fail on.
    expect(await page.locator('.pair-swatch').evaluateAll((all) => all.map((s) => s.textContent))).toEqual(
      Array(6).fill(''),
    );
    // Its ratio is written as the language writes numbers: "4.48" in English, "4,48" in French.
    expect(await failing.innerText()).toMatch(/\d\.\d\d/);
    for (const code of ['en', 'fr', 'th'] as const) {
      await language(code);
      if (code === 'fr') {
        await expect.poll(() => failing.innerText()).toMatch(/\d,\d\d/);
        expect(await failing.innerText()).not.toMatch(/\d\.\d\d/);
      }
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: 900 });
        await expectAccessible(page, `theme editor with a failing pair ${code} ${width}`);
        await shot(`theme-editor-a11y-${code}-${width}`);
      }
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('button', { name: consoleTh.theme.discard }).click();
    await page.getByRole('dialog').getByRole('button', { name: consoleTh.theme.discard }).click();
    // The editor's announcement is said again in the language the console changes to.
    const status = page.locator('.publish-bar [role="status"]');
    await expect.poll(() => status.innerText()).toBe(consoleTh.theme.discarded);
    await language('de');
    await expect.poll(() => status.innerText()).toBe(consoleDe.theme.discarded);
    await language('fr');
    await expect.poll(() => status.innerText()).toBe(consoleFr.theme.discarded);
  });

  it('flags a text override too wide for the phone preview at its field', async () => {
    for (const code of ['en', 'de'] as const) {
      const texts = catalogues[code];
      await language(code);
      await openEditor();
      await page.locator('#preview-language').selectOption('en');
      await page.getByLabel(texts.preview.mobile).check();
      const field = page.locator('[id="text-login.email.heading"]');
      const error = page.locator('[id="text-login.email.heading-error"]');
      const frame = page.frameLocator('iframe[title]');
      // One word wider than a phone's line.
      const long = 'Pneumonoultramicroscopicsilicovolcanoconiosis';
      await field.fill(long);
      await expect.poll(() => frame.getByRole('heading', { level: 1 }).innerText()).toBe(long);
      await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
      expect(await error.innerText()).toBe(texts.theme.textOverflows);
      expect(await describedBy('[id="text-login.email.heading"]')).toContain(
        'text-login.email.heading-error',
      );
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: 900 });
        await field.scrollIntoViewIfNeeded();
        await expectAccessible(page, `theme editor overflow flag ${code} ${width}`);
        await page.screenshot({ path: path.join(shots, `theme-override-overflow-${code}-${width}.png`) });
      }
      await page.setViewportSize({ width: 1280, height: 900 });
      // Words that fit: the flag goes.
      await field.fill('Welcome to the Grand Hotel');
      await expect
        .poll(() => frame.getByRole('heading', { level: 1 }).innerText())
        .toBe('Welcome to the Grand Hotel');
      await expect.poll(() => field.getAttribute('aria-invalid')).toBe('false');
      expect(await error.count()).toBe(0);
      await page.getByRole('button', { name: texts.theme.discard }).click();
      await page.getByRole('dialog').getByRole('button', { name: texts.theme.discard }).click();
    }
  });

  it('checks a new tenant’s starting colours before saving, naming the failing pair at the colour', async () => {
    for (const code of ['fr', 'en'] as const) {
      const texts = catalogues[code];
      await language(code);
      await page.goto(`${admin}/console/new-tenant`);
      await page.locator('#new-code').fill(`lakeside-${code}`);
      await page.locator('#new-name').fill('Lakeside');
      await page.locator('#new-loginDomain').fill(`login.lakeside-${code}.example`);
      await page.locator('#new-defaultRedirectUri').fill('https://app.lakeside.example/');
      await page.locator('#primaryForeground-hex').fill('#8a8a8a');
      await page.getByRole('button', { name: texts.newTenant.create }).click();
      await expect
        .poll(() => page.locator('#primaryForeground-hex').getAttribute('aria-invalid'))
        .toBe('true');
      const error = await page.locator('#primaryForeground-error').innerText();
      expect(error).toContain(texts.contrast.pairs.primaryText);
      expect(error.startsWith(texts.contrast.pairs.primaryText)).toBe(true);
      expect(await describedBy('#primaryForeground-hex')).toContain('primaryForeground-error');
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('primaryForeground-hex');
      expect(await page.getByRole('alert').filter({ hasText: /\S/ }).first().innerText()).toBe(
        texts.newTenant.contrastSummary,
      );
      // Nothing was sent: the tenant does not exist.
      await keycard.services.tenants.refresh();
      expect(await keycard.services.tenants.byCode(`lakeside-${code}`)).toBeFalsy();
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: 900 });
        await page.locator('#primaryForeground-hex').scrollIntoViewIfNeeded();
        await expectAccessible(page, `new tenant contrast ${code} ${width}`);
        await page.screenshot({ path: path.join(shots, `new-tenant-contrast-${code}-${width}.png`) });
      }
      await page.setViewportSize({ width: 1280, height: 900 });
      // A passing colour: the tenant is created.
      await page.locator('#primaryForeground-hex').fill('#ffffff');
      await page.getByRole('button', { name: texts.newTenant.create }).click();
      await expect.poll(() => page.getByText(`lakeside-${code}-app`).count()).toBeGreaterThan(0);
      await keycard.services.tenants.refresh();
      expect(await keycard.services.tenants.byCode(`lakeside-${code}`)).toBeTruthy();
    }
  });
});
