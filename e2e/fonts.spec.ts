import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Theme } from '@keycard/contract/api';
import type { PreviewDraftMessage, PreviewMessage } from '@keycard/contract/preview';
import { themeExtrasTexts } from '@keycard/texts/console/theme-extras';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { ensureOperatorTenant } from '../apps/server/src/features/operators/operator-tenant.ts';
import { cliActor } from '../apps/server/src/platform/audit/audit.service.ts';
import { expectAccessible, launchBrowser, newContext } from './support/browser.ts';
import { adminOrigin, createOwner, runKeycardCli, signInFirstTime } from './support/console.ts';
import { type Keycard, startKeycard } from './support/keycard.ts';

/**
 * Issue 19 item 11: a font from a small set Keycard serves itself. A tenant that picked one
 * gets that one, from Keycard's own origin, and no other; a tenant on the system's fonts
 * downloads none; Thai pages keep Noto Sans Thai first; the console's preview draws a draft's.
 */
const shots = process.env.SCREENSHOT_DIR ?? mkdtempSync(path.join(tmpdir(), 'fonts-'));
const dir = mkdtempSync(path.join(tmpdir(), 'fonts-config-'));

/** The page's font faces: family and whether the browser loaded it. */
const faces = (page: Page | Frame) =>
  page.evaluate(async () => {
    await document.fonts.ready;
    return [...document.fonts].map((face) => ({
      family: face.family.replace(/"/g, ''),
      status: face.status,
    }));
  });

/** Which fonts Chromium really drew an element's text with (DevTools protocol). */
async function drawnWith(context: BrowserContext, page: Page, selector: string): Promise<string[]> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('DOM.enable');
  await cdp.send('CSS.enable');
  const { root } = await cdp.send('DOM.getDocument', { depth: -1 });
  const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
  const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
  await cdp.detach();
  return fonts.map((font) => `${font.familyName}${font.isCustomFont ? ' (served)' : ''}`);
}

describe('served theme fonts (Chromium)', () => {
  let keycard: Keycard;
  let browser: Browser;
  beforeAll(async () => {
    keycard = await startKeycard();
    await ensureOperatorTenant(
      { db: keycard.services.db, config: keycard.services.config, actor: cliActor },
      Date.now(),
    );
    browser = await launchBrowser();
    // Seaside picks the humanist font with `keycard apply`, as an integrator would.
    const exported = await runKeycardCli(keycard, ['export', '--tenant', 'seaside']);
    expect(exported.code).toBe(0);
    const config = parse(exported.out);
    config.tenants[0].theme.font = 'humanist';
    const file = path.join(dir, 'seaside.yaml');
    writeFileSync(file, stringify(config));
    const applied = await runKeycardCli(keycard, ['apply', '-f', file]);
    expect(applied.code, applied.out).toBe(0);
    const again = parse((await runKeycardCli(keycard, ['export', '--tenant', 'seaside'])).out);
    expect(again.tenants[0].theme.font).toBe('humanist');
    await keycard.services.tenants.refresh();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await keycard?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The login page of a tenant, with every font file the page fetched. */
  async function openLogin(tenant: string, locale: string, width: number) {
    const context = await browser.newContext({ locale, viewport: { width, height: 900 } });
    const page = await context.newPage();
    const fonts: { url: string; status: number; type: string | undefined }[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'font') {
        fonts.push({
          url: response.url(),
          status: response.status(),
          type: response.headers()['content-type'],
        });
      }
    });
    await page.goto(`${keycard.origin(tenant)}/login`);
    await page
      .getByRole('button', { name: locale === 'th-TH' ? /.+/ : 'Next' })
      .first()
      .waitFor();
    return { context, page, fonts };
  }

  for (const width of [375, 1280]) {
    it(`loads the picked font and only it, from Keycard's own origin, at ${width} px`, async () => {
      const { context, page, fonts } = await openLogin('seaside', 'en-GB', width);
      try {
        await expect
          .poll(async () =>
            (await faces(page)).filter((face) => face.status === 'loaded').map((f) => f.family),
          )
          .toEqual(['Source Sans 3']);
        // Its faces and the Thai font's, declared; no other served family.
        const families = new Set((await faces(page)).map((face) => face.family));
        expect([...families].sort()).toEqual(['Noto Sans Thai', 'Source Sans 3']);
        expect(fonts.length).toBeGreaterThan(0);
        for (const font of fonts) {
          expect(font.url).toMatch(
            new RegExp(
              `^${keycard.origin('seaside')}/_keycard/fonts/source-sans-3-latin\\.[0-9a-f]{16}\\.woff2$`,
            ),
          );
          expect(font).toMatchObject({ status: 200, type: 'font/woff2' });
        }
        // The variable file names its default instance (ExtraLight); one file draws every weight.
        for (const selector of ['.kc-card h1', '.kc-card label', '.kc-card button[type="submit"]']) {
          const used = await drawnWith(context, page, selector);
          expect(used, selector).toHaveLength(1);
          expect(used[0], selector).toMatch(/^Source Sans 3( \w+)? \(served\)$/);
        }
        await expectAccessible(page, `seaside login with its served font at ${width} px`);
        await page.screenshot({ path: path.join(shots, `fonts-seaside-${width}.png`), fullPage: true });
      } finally {
        await context.close();
      }
    });
  }

  it('fetches no font at all for a tenant on the system’s fonts', async () => {
    const { context, page, fonts } = await openLogin('grand-hotel', 'en-GB', 375);
    try {
      expect((await faces(page)).filter((face) => face.status === 'loaded')).toEqual([]);
      expect(new Set((await faces(page)).map((face) => face.family))).toEqual(new Set(['Noto Sans Thai']));
      expect(fonts).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('keeps Noto Sans Thai first on Thai pages, the picked font after it', async () => {
    const { context, page } = await openLogin('seaside', 'th-TH', 375);
    try {
      await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('th');
      const font = await page.locator('body').evaluate((element) => getComputedStyle(element).fontFamily);
      expect(font).toMatch(/^"Noto Sans Thai", "Source Sans 3"/);
      await faces(page);
      expect(await drawnWith(context, page, '.kc-card h1')).toEqual(['Noto Sans Thai (served)']);
      await expectAccessible(page, 'seaside login in Thai with its served font');
      await page.screenshot({ path: path.join(shots, 'fonts-seaside-th-375.png'), fullPage: true });
    } finally {
      await context.close();
    }
  });

  it('draws a draft’s font in the console’s preview, and none for the system’s', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    try {
      // A page on the operator host framing the preview, as the console frames it.
      await page.goto(`${adminOrigin(keycard)}/login`);
      await page.evaluate(() => {
        const messages: unknown[] = [];
        (window as unknown as { previewMessages: unknown[] }).previewMessages = messages;
        window.addEventListener('message', (event) => {
          if (event.origin === location.origin) messages.push(event.data);
        });
        const frame = document.createElement('iframe');
        frame.id = 'preview';
        frame.title = 'Preview';
        frame.style.cssText = 'width:375px;height:800px;border:0';
        frame.src = '/preview/login';
        document.body.append(frame);
      });
      const messages = () =>
        page.evaluate(() => (window as unknown as { previewMessages: PreviewMessage[] }).previewMessages);
      await expect.poll(async () => (await messages()).map((m) => m.type)).toContain('keycard:preview-ready');
      const frame = await (await page.$('#preview'))?.contentFrame();
      if (!frame) throw new Error('no preview frame');
      const seaside = await keycard.services.tenants.resolveHost(`seaside.localhost:${keycard.port}`);
      if (!seaside) throw new Error('no seaside');
      const draw = async (theme: Theme) => {
        const before = (await messages()).length;
        const draft: PreviewDraftMessage = {
          type: 'keycard:preview-draft',
          theme,
          locale: 'en',
          tenantCode: 'seaside',
        };
        await page.evaluate((message) => {
          const target = (document.getElementById('preview') as HTMLIFrameElement).contentWindow;
          target?.postMessage(message, location.origin);
        }, draft);
        await expect
          .poll(async () =>
            (await messages()).slice(before).some((m) => m.type === 'keycard:preview-rendered'),
          )
          .toBe(true);
      };

      await draw({ ...seaside.theme, font: 'rounded' });
      await expect
        .poll(async () =>
          (await faces(frame)).filter((face) => face.status === 'loaded').map((f) => f.family),
        )
        .toContain('Nunito');
      expect(await frame.locator('body').evaluate((element) => getComputedStyle(element).fontFamily)).toMatch(
        /^Nunito,/,
      );
      await expectAccessible(frame, 'preview drawn in a served font');
      await page.locator('#preview').screenshot({ path: path.join(shots, 'fonts-preview-375.png') });

      const { font: _picked, ...system } = seaside.theme;
      await draw(system);
      expect(await frame.locator('link[rel="stylesheet"][href^="/_keycard/fonts/"]').count()).toBe(0);
      expect(await frame.locator('body').evaluate((element) => getComputedStyle(element).fontFamily)).toMatch(
        /^system-ui/,
      );
    } finally {
      await context.close();
    }
  });
});

describe('the picked font in the console’s theme editor (Chromium)', () => {
  it('draws the font picked in the editor in its live preview', async () => {
    const keycard = await startKeycard();
    const browser = await launchBrowser();
    try {
      const owner = { email: 'owner@ops.example', password: 'Operator-owner-77' };
      await createOwner(keycard, owner);
      await keycard.services.tenants.refresh();
      const page = await (await newContext(browser)).newPage();
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(`${adminOrigin(keycard)}/console/`);
      await signInFirstTime(page, keycard, owner);
      await page.goto(`${adminOrigin(keycard)}/console/tenants/summit/theme`);
      const texts = themeExtrasTexts.en;
      await page.getByRole('group', { name: texts.heading }).waitFor();
      const preview = page.locator('.preview-box iframe');
      await preview.waitFor();
      for (const [font, family] of [
        ['serif', 'Source Serif 4'],
        ['rounded', 'Nunito'],
      ] as const) {
        await page.getByLabel(texts.font, { exact: true }).selectOption(font);
        expect(
          await page.getByLabel(texts.font, { exact: true }).locator('option:checked').textContent(),
        ).toBe(texts.fonts[font]);
        const frame = await (await preview.elementHandle())?.contentFrame();
        if (!frame) throw new Error('no preview frame');
        await expect
          .poll(
            async () => (await faces(frame)).filter((face) => face.status === 'loaded').map((f) => f.family),
            {
              timeout: 10_000,
            },
          )
          .toContain(family);
        await expect
          .poll(() => frame.locator('body').evaluate((element) => getComputedStyle(element).fontFamily))
          .toMatch(new RegExp(`^"?${family}"?,`));
      }
      await page.getByRole('group', { name: texts.heading }).scrollIntoViewIfNeeded();
      await expectAccessible(page, 'theme editor with a served font picked');
      await preview.screenshot({ path: path.join(shots, 'fonts-console-preview.png') });
      await page
        .getByRole('group', { name: texts.heading })
        .screenshot({ path: path.join(shots, 'fonts-console-field.png') });
    } finally {
      await browser.close();
      await keycard.close();
    }
  }, 240_000);
});
