import type { Theme } from '@keycard/contract/api';
import { paths } from '@keycard/contract/paths';
import type { PreviewDraftMessage, PreviewMessage, PreviewScreen } from '@keycard/contract/preview';
import type { Locale } from '@keycard/contract/user-state';
import { loadTexts } from '@keycard/texts/catalogues';
import type { Texts } from '@keycard/texts/en';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureOperatorTenant } from '../apps/server/src/features/operators/operator-tenant.ts';
import { cliActor } from '../apps/server/src/platform/audit/audit.service.ts';
import { expectAccessible, launchBrowser, newContext } from './support/browser.ts';
import { type Keycard, startKeycard } from './support/keycard.ts';

/** Two drafts a console could send, far from every demo tenant's colours. */
const plum: Theme = {
  name: 'Plum Hotels',
  images: { favicon: '/brand/seaside-favicon.svg', logo: '/brand/seaside-logo.svg' },
  colours: {
    primaryBackground: '#5b1a4a',
    primaryForeground: '#ffffff',
    secondaryBackground: '#f3e9f0',
    secondaryForeground: '#2a0f22',
    tertiaryBackground: '#2e5d3a',
    tertiaryForeground: '#ffffff',
  },
  links: { loginHelpUrl: null, contactSupportUrl: 'https://help.plum.example/support' },
};
const amber: Theme = {
  ...plum,
  name: 'Amber Stays',
  colours: {
    primaryBackground: '#7a3e00',
    primaryForeground: '#ffffff',
    secondaryBackground: '#fff4e0',
    secondaryForeground: '#1f1200',
    tertiaryBackground: '#1d4e89',
    tertiaryForeground: '#ffffff',
  },
};

function rgb(hex: string): string {
  const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  return `rgb(${r}, ${g}, ${b})`;
}

function text(texts: Texts, key: string): string {
  let node: unknown = texts;
  for (const part of key.split('.')) node = (node as Record<string, unknown>)[part];
  if (typeof node !== 'string') throw new Error(`no text ${key}`);
  return node;
}

/** What each screen is, by its heading and the control it must show (the real screen's). */
const screens: Record<
  PreviewScreen,
  { heading: string; control: (t: Texts) => { role: 'textbox' | 'button' | 'link'; name: string } }
> = {
  login: {
    heading: 'login.email.heading',
    control: (t) => ({ role: 'button', name: text(t, 'login.email.submit') }),
  },
  password: {
    heading: 'login.password.heading',
    control: (t) => ({ role: 'button', name: text(t, 'login.password.submit') }),
  },
  reset: {
    heading: 'lifecycle.resetRequest.heading',
    control: (t) => ({ role: 'button', name: text(t, 'lifecycle.resetRequest.submit') }),
  },
  mfa: {
    heading: 'mfa.verify.heading',
    control: (t) => ({ role: 'button', name: text(t, 'mfa.common.verify') }),
  },
  error: {
    heading: 'errors.accountDisabled.heading',
    control: (t) => ({ role: 'link', name: text(t, 'errors.accountDisabled.reset') }),
  },
};

describe('the console’s live theme preview (Chromium)', () => {
  let keycard: Keycard;
  let browser: Browser;
  beforeAll(async () => {
    keycard = await startKeycard();
    // The operator host's own tenant, as `keycard operators create-owner` makes it.
    await ensureOperatorTenant(
      { db: keycard.services.db, config: keycard.services.config, actor: cliActor },
      Date.now(),
    );
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await keycard?.close();
  });

  const adminOrigin = () => `http://admin.localhost:${keycard.port}`;

  interface Console {
    page: Page;
    frame: Frame;
    /** Every request the preview frame made. */
    requests: string[];
    /** Messages the preview posted to the console, in order. */
    messages: () => Promise<PreviewMessage[]>;
    /** Sends a draft as the console does and waits until the preview says it drew it. */
    draw: (theme: Theme, locale: Locale, width: number) => Promise<void>;
    /** Posts anything from the console window; resolves at once. */
    post: (data: unknown) => Promise<void>;
  }

  /**
   * A page on the operator host (the operator tenant's login page, same origin as the console)
   * with the preview framed in it, as the console frames it.
   */
  async function openConsole(screen: string): Promise<Console> {
    const context = await newContext(browser);
    const page = await context.newPage();
    const requests: string[] = [];
    page.on('request', (request) => {
      if (request.frame().parentFrame()) requests.push(request.url());
    });
    await page.goto(`${adminOrigin()}${paths.login}`);
    await page.evaluate((src) => {
      const messages: unknown[] = [];
      (window as unknown as { previewMessages: unknown[] }).previewMessages = messages;
      window.addEventListener('message', (event) => {
        if (event.origin === location.origin) messages.push(event.data);
      });
      const frame = document.createElement('iframe');
      frame.id = 'preview';
      frame.title = 'Preview';
      frame.style.width = '375px';
      frame.style.height = '800px';
      frame.style.border = '0';
      frame.src = src;
      document.body.append(frame);
    }, `/preview/${screen}`);
    const messages = () =>
      page.evaluate(() => (window as unknown as { previewMessages: PreviewMessage[] }).previewMessages);
    await expect.poll(async () => (await messages()).map((m) => m.type)).toContain('keycard:preview-ready');
    const frame = await (await page.$('#preview'))!.contentFrame();
    if (!frame) throw new Error('no preview frame');
    const post = (data: unknown) =>
      page.evaluate((message) => {
        const target = (document.getElementById('preview') as HTMLIFrameElement).contentWindow!;
        target.postMessage(message, location.origin);
      }, data);
    const draw = async (theme: Theme, locale: Locale, width: number) => {
      await page.evaluate((w) => {
        document.getElementById('preview')!.style.width = `${w}px`;
      }, width);
      const before = (await messages()).length;
      const draft: PreviewDraftMessage = { type: 'keycard:preview-draft', theme, locale, tenantCode: 'plum' };
      await post(draft);
      await expect
        .poll(async () =>
          (await messages())
            .slice(before)
            .find((m) => m.type === 'keycard:preview-rendered' && m.locale === locale),
        )
        .toMatchObject({ screen, primaryBackground: theme.colours.primaryBackground });
    };
    return { page, frame, requests, messages, draw, post };
  }

  async function expectDrawn(
    frame: Frame,
    screen: PreviewScreen,
    theme: Theme,
    locale: Locale,
    width: number,
  ) {
    const texts = await loadTexts(locale);
    const heading = frame.getByRole('heading', { level: 1 });
    expect(await heading.innerText()).toBe(text(texts, screens[screen].heading));
    const control = screens[screen].control(texts);
    expect(await frame.getByRole(control.role, { name: control.name, exact: true }).isVisible()).toBe(true);
    expect(await frame.locator('html').getAttribute('lang')).toBe(locale);
    expect(await frame.locator('html').getAttribute('dir')).toBe('ltr');
    expect(
      await frame
        .getByRole('img', { name: text(texts, 'common.logoAlt').replace('{{name}}', theme.name) })
        .getAttribute('src'),
    ).toBe(theme.images.logo);
    expect(await frame.locator('.kc-card-brand').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(
      rgb(theme.colours.primaryBackground),
    );
    expect(await frame.locator('body').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(
      rgb(theme.colours.secondaryBackground),
    );
    // The frame is as wide as the console made it, and nothing scrolls sideways in it.
    const layout = await frame.evaluate(() => ({
      width: window.innerWidth,
      overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    }));
    expect(layout).toEqual({ width, overflow: 0 });
    await expectAccessible(frame, `${screen} preview in ${locale} at ${width} px`);
  }

  for (const screen of Object.keys(screens) as PreviewScreen[]) {
    it(`draws the real ${screen} screen in each draft's theme and language, at 375 and 1280 px, and calls no API`, async () => {
      const { page, frame, requests, draw } = await openConsole(screen);
      await draw(plum, 'de', 375);
      await expectDrawn(frame, screen, plum, 'de', 375);
      await draw(amber, 'th', 1280);
      await expectDrawn(frame, screen, amber, 'th', 1280);
      await draw(plum, 'en', 1280);
      await expectDrawn(frame, screen, plum, 'en', 1280);
      expect(requests.filter((url) => new URL(url).pathname.startsWith('/api/'))).toEqual([]);
      await page.context().close();
    });
  }

  it('submits nothing and goes nowhere: forms, links and the language menu stay put', async () => {
    const { page, frame, requests, draw } = await openConsole('password');
    await draw(plum, 'en', 375);
    await frame.getByLabel('Password', { exact: true }).fill('Keycard-demo-1');
    await frame.getByRole('button', { name: 'Log in' }).click();
    await frame.getByLabel('Password', { exact: true }).press('Enter');
    // A submission without a click (a script's, an assistive tool's) is stopped too.
    await frame.locator('form').evaluate((form: HTMLFormElement) => form.requestSubmit());
    await frame.getByRole('link', { name: 'Forgot your password?' }).click();
    await frame.getByRole('combobox', { name: 'Language' }).selectOption('de');
    await page.waitForTimeout(300);
    expect(frame.url()).toBe(`${adminOrigin()}/preview/password`);
    expect(await frame.getByRole('heading', { level: 1 }).innerText()).toBe('Enter your password');
    expect(await frame.locator('html').getAttribute('lang')).toBe('en');
    expect(await frame.getByRole('combobox', { name: 'Language' }).inputValue()).toBe('en');
    // Had the screen tried to log in, it would say it could not reach the server.
    expect(await frame.getByRole('alert').count()).toBe(0);
    expect(requests.filter((url) => new URL(url).pathname.startsWith('/api/'))).toEqual([]);
    expect(await page.context().cookies()).not.toContainEqual(
      expect.objectContaining({ name: 'AUTH_X_LANG' }),
    );

    const login = await openConsole('login');
    await login.frame.getByLabel('E-mail', { exact: true }).fill('someone@example.com');
    await login.frame.getByLabel('Remember my e-mail').check();
    await login.frame.getByRole('button', { name: 'Next' }).click();
    await login.frame.locator('form').evaluate((form: HTMLFormElement) => form.requestSubmit());
    await login.page.waitForTimeout(300);
    expect(login.frame.url()).toBe(`${adminOrigin()}/preview/login`);
    expect(await login.frame.getByRole('heading', { level: 1 }).innerText()).toBe('Log in');
    // The e-mail step's submit remembers the address for the next visit: not from the preview.
    expect(await login.frame.evaluate(() => Object.keys(localStorage))).toEqual([]);
    expect(login.requests.filter((url) => new URL(url).pathname.startsWith('/api/'))).toEqual([]);
    await page.context().close();
    await login.page.context().close();
  });

  it('opens no link in a new tab: a middle click stays put', async () => {
    const { page, frame, draw } = await openConsole('password');
    await draw(plum, 'en', 375);
    const link = frame.getByRole('link', { name: 'Forgot your password?' });
    await link.click({ button: 'middle' });
    await link.click({ modifiers: ['ControlOrMeta'] });
    await page.waitForTimeout(300);
    expect(page.context().pages()).toEqual([page]);
    expect(frame.url()).toBe(`${adminOrigin()}/preview/password`);
    await page.context().close();
  });

  it('cannot send requests: XHR and WebSocket are refused in the page, and by its policy in the browser', async () => {
    // The preview's document comes with a policy that allows no requests and no form posts.
    const context = await newContext(browser);
    const direct = await (await context.newPage()).goto(`${adminOrigin()}/preview/login`);
    const csp = direct?.headers()['content-security-policy'] ?? '';
    for (const directive of [
      "default-src 'none'",
      "connect-src 'none'",
      "form-action 'none'",
      "frame-ancestors 'self'",
    ]) {
      expect(csp).toContain(directive);
    }
    await context.close();

    const { page, frame, draw } = await openConsole('login');
    await draw(plum, 'en', 375);
    const answered: string[] = [];
    const failed: string[] = [];
    page.on('response', (response) => answered.push(response.url()));
    page.on('requestfailed', (request) => failed.push(`${request.url()} ${request.failure()?.errorText}`));
    const attempts = await frame.evaluate(() => {
      const attempt = (make: () => unknown) => {
        try {
          make();
          return 'made';
        } catch (error) {
          return (error as Error).message;
        }
      };
      return {
        xhr: attempt(() => new XMLHttpRequest()),
        socket: attempt(() => new WebSocket(`ws://${location.host}/api/mobile-beef/graphql`)),
      };
    });
    expect(attempts).toEqual({
      xhr: 'The theme preview sends no requests (XMLHttpRequest).',
      socket: 'The theme preview sends no requests (WebSocket).',
    });
    // A script that found an untouched XMLHttpRequest (a new blank frame's, which inherits the
    // preview's policy) is stopped by the browser before anything leaves.
    const blocked = await frame.evaluate(
      () =>
        new Promise<{ status: number; violated: string }>((resolve) => {
          const child = document.createElement('iframe');
          document.body.append(child);
          const realm = child.contentWindow as unknown as {
            XMLHttpRequest: typeof XMLHttpRequest;
            document: Document;
          };
          let violated = '';
          for (const target of [document, realm.document]) {
            target.addEventListener('securitypolicyviolation', (event) => {
              violated = event.effectiveDirective;
            });
          }
          const request = new realm.XMLHttpRequest();
          request.open('GET', '/api/theme');
          request.onloadend = () => setTimeout(() => resolve({ status: request.status, violated }), 100);
          request.send();
        }),
    );
    expect(blocked).toEqual({ status: 0, violated: 'connect-src' });
    // The browser reports the request as blocked by the policy (Chromium's reason: `csp`).
    expect(failed).toEqual([`${adminOrigin()}/api/theme csp`]);
    expect(answered.filter((url) => new URL(url).pathname.startsWith('/api/'))).toEqual([]);
    await page.context().close();
  });

  it('ignores a draft from another origin, from a window other than the console, and a malformed one', async () => {
    const { page, frame, messages, draw, post } = await openConsole('login');
    await draw(plum, 'en', 375);
    const drawn = await messages();
    const amberDraft: PreviewDraftMessage = {
      type: 'keycard:preview-draft',
      theme: amber,
      locale: 'de',
      tenantCode: 'x',
    };
    // A page elsewhere cannot reach this frame's window with this origin; dispatched directly,
    // the message says where it came from.
    await frame.evaluate((data) => {
      window.dispatchEvent(
        new MessageEvent('message', { data, origin: 'https://evil.example', source: window.parent }),
      );
      // The right origin but not the console: the frame's own window, and no window at all.
      window.postMessage(data, location.origin);
      window.dispatchEvent(new MessageEvent('message', { data, origin: location.origin, source: null }));
    }, amberDraft);
    await post({
      ...amberDraft,
      theme: { ...amber, colours: { ...amber.colours, primaryBackground: 'red' } },
    });
    await post({ ...amberDraft, locale: 'xx' });
    await post({ ...amberDraft, theme: { name: 'No colours' } });
    await page.waitForTimeout(500);
    expect(await messages()).toEqual(drawn);
    await expectDrawn(frame, 'login', plum, 'en', 375);
    await page.context().close();
  });

  it('shows a draft’s own wording in the language it is written for, and the catalogue’s in the others', async () => {
    const { page, frame, draw } = await openConsole('login');
    const worded: Theme = {
      ...plum,
      texts: {
        de: { 'login.email.heading': 'Willkommen bei Plum', 'login.email.intro': 'Ihre Adresse, bitte.' },
      },
    };
    await draw(worded, 'de', 375);
    expect(await frame.getByRole('heading', { level: 1 }).innerText()).toBe('Willkommen bei Plum');
    expect(await frame.getByText('Ihre Adresse, bitte.').isVisible()).toBe(true);
    await draw(worded, 'en', 375);
    expect(await frame.getByRole('heading', { level: 1 }).innerText()).toBe('Log in');
    // A draft without them drops the wording the one before had.
    await draw(plum, 'de', 375);
    expect(await frame.getByRole('heading', { level: 1 }).innerText()).toBe(
      text(await loadTexts('de'), 'login.email.heading'),
    );
    await page.context().close();
  });

  it('is served on the operator host only: a tenant’s host answers 404', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    for (const screen of ['login', 'mfa']) {
      const answer = await page.goto(`${keycard.origin('grand-hotel')}/preview/${screen}`);
      expect(answer?.status()).toBe(404);
      expect(await page.locator('h1').count()).toBe(0);
    }
    await context.close();
  });

  it('shows the host’s own theme until a draft arrives, and takes no focus from the console', async () => {
    const { page, frame } = await openConsole('login');
    expect(await frame.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex');
    expect(await frame.getByRole('heading', { level: 1 }).innerText()).toBe('Log in');
    expect(await frame.title()).toMatch(/^Log in \| /);
    expect(await page.evaluate(() => document.activeElement?.id ?? document.activeElement?.tagName)).not.toBe(
      'preview',
    );
    await page.context().close();

    const unknown = await openConsole('signup');
    expect(await unknown.frame.getByRole('heading', { level: 1 }).innerText()).toBe('Page not found');
    await unknown.page.context().close();
  });
});
