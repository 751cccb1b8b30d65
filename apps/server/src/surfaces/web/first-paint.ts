import { randomBytes } from 'node:crypto';
import {
  type Locale,
  localeNames,
  locales,
  type OverridableTextKey,
  paths,
  type Theme,
  themeCssVariables,
  themeRootAttributes,
  themeStyle,
  toLocale,
} from '@keycard/contract';
import { en, loadTexts, type Texts } from '@keycard/texts';
import type { TenantContext } from '../../features/tenants/index.ts';
import { escapeHtml } from '../../platform/shared/html.ts';
import { fontFaceCss } from './served-fonts.ts';

/**
 * The portal's first response, rendered per host (issue 11): the tenant's colours, title,
 * favicon, logo and language are in the HTML, and the login page's e-mail form is there too,
 * so the branded form paints from the first response instead of a blank page that waits for
 * the script, the theme call and the texts. The script then takes over the same markup.
 */

export interface FirstPaintContext {
  tenant: TenantContext | null;
  locale: Locale;
  pathname: string;
  search: URLSearchParams;
  /** The e-mail step's live session: who is signed in on this browser (portal.ts asks). */
  signedIn?: string | null;
}

/** What the portal script reads instead of asking again (apps/portal/src/app/bootstrap.ts). */
export interface PortalBootstrap {
  locale: Locale;
  branding: { theme: Theme; tenantCode: string } | null;
}

/** Where the portal script finds the bootstrap data: a JSON data block, never executed. */
export const bootstrapElementId = 'kc-bootstrap';

/**
 * Accept-Language, best first: `de-CH;q=0.9, en;q=0.8` gives de, en. Entries with q=0 are
 * refused languages; malformed ones are skipped.
 */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .slice(0, 512)
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const weight = params.find((p) => /^\s*q=/i.test(p));
      const q =
        weight === undefined
          ? 1
          : /^\s*q=(0(\.\d{0,3})?|1(\.0{0,3})?)\s*$/i.test(weight)
            ? Number(weight.split('=')[1])
            : Number.NaN;
      return { tag: tag.trim(), q, index };
    })
    .filter((entry) => entry.tag && Number.isFinite(entry.q) && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((entry) => entry.tag);
}

/**
 * The page's language (issue 11): a choice made in this browser's language menu (the
 * AUTH_X_LANG_MENU cookie: a mail link's langCode never overrides it, issue 19 item 14), then
 * the langCode query value, then the language this browser had before (the AUTH_X_LANG cookie:
 * the menu, or a langCode it arrived with), then the app's OIDC `ui_locales` (space-separated,
 * best first), then the browser's Accept-Language, then English. Only the part before the dash
 * counts (SPEC §1).
 */
export function choosePageLocale(input: {
  menu?: string | undefined;
  langCode: string | null;
  chosen?: string | undefined;
  uiLocales: string | undefined;
  acceptLanguage: string | undefined;
}): Locale {
  const candidates = [
    input.menu,
    input.langCode,
    input.chosen,
    ...(input.uiLocales ?? '').split(' '),
    ...acceptedLanguages(input.acceptLanguage),
  ];
  for (const candidate of candidates) {
    const locale = toLocale(candidate);
    if (locale) return locale;
  }
  return 'en';
}

/** JSON inside <script>: no `<` may end the element early (</script>, <!--). */
const jsonForScript = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/**
 * The theme as CSS variables (colours with the contrast guarantee, font, corners, logo size,
 * background, the dark scheme's colours), exactly those the portal's script sets (theme.tsx).
 * Every value is the contract's own: a hex colour, a px length, a listed font stack, or a
 * url() that escapes whatever could end it (theme-style.ts cssUrl).
 */
function themeCss(theme: Theme): string {
  const declarations = Object.entries(themeCssVariables(theme)).map(([name, value]) => `${name}:${value}`);
  // The picked font's @font-face rules, and only its (served-fonts.ts): nothing for `system`.
  // Not preloaded: found as early in this inline style, a preload would only take bandwidth
  // from the page's script on a slow line, while swap paints the text at once anyway.
  return `${fontFaceCss(themeStyle(theme).font)}:root{${declarations.join(';')}}`;
}

/** The <html> attributes that switch on the stylesheet's dark scheme and background rules. */
function rootAttributes(theme: Theme | null): string {
  if (!theme) return '';
  return Object.entries(themeRootAttributes(theme))
    .filter(([, on]) => on)
    .map(([name]) => ` ${name}`)
    .join('');
}

/** The title key of the routes whose title the server knows (the portal sets it again). */
function titleKey(pathname: string, search: URLSearchParams): keyof Texts['titles'] | null {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === '/login' || path === '/') return search.has('activateSuccess') ? 'accountCreated' : 'login';
  if (path === '/login/password') return 'loginPassword';
  if (path.startsWith('/partners/')) return 'partnerSso';
  const known: Record<string, keyof Texts['titles']> = {
    '/logout': 'logout',
    '/authenticate': 'authenticate',
    '/authenticated': 'authenticated',
    '/authorize': 'authorize',
    '/error': 'unknownError',
    '/error/account-disabled': 'accountDisabled',
  };
  return known[path] ?? null;
}

/** The card and the language menu of every screen, as the portal's Page component renders them. */
export function pageShell(
  texts: Texts,
  theme: Theme | null,
  locale: Locale,
  heading: string,
  body: string,
): string {
  // A theme without a logo shows its name in the band (never a broken image).
  const logo = theme?.images.logo
    ? `<img class="kc-logo" src="${escapeHtml(theme.images.logo)}" alt="${escapeHtml(
        texts.common.logoAlt.replace('{{name}}', theme.name),
      )}" height="40">`
    : `<span class="kc-logo-text">${escapeHtml(theme?.name ?? texts.common.appName)}</span>`;
  const options = locales
    .map(
      (code) =>
        `<option value="${code}" lang="${code}"${code === locale ? ' selected' : ''}>${escapeHtml(localeNames[code])}</option>`,
    )
    .join('');
  return (
    `<div class="kc-shell"><main class="kc-main" id="main"><section class="kc-card" aria-labelledby="kc-heading">` +
    `<header class="kc-card-brand">${logo}</header>` +
    `<h1 id="kc-heading" tabindex="-1">${escapeHtml(heading)}</h1>${body}</section></main>` +
    `<footer class="kc-footer"><div class="kc-language"><label for="kc-fp-language">${escapeHtml(
      texts.common.language,
    )}</label><select id="kc-fp-language">${options}</select></div></footer></div>`
  );
}

/**
 * A text as the portal shows it: the tenant's override for this language, else the
 * catalogue's. Plain text, so every caller escapes it as any other text.
 */
function tenantText(theme: Theme | null, locale: Locale, key: OverridableTextKey, catalogue: string): string {
  return theme?.texts?.[locale]?.[key] ?? catalogue;
}

/**
 * The login page's e-mail step, working before the script arrives: a plain GET form, checked
 * by the browser (required, type=email), that keeps the flow's query values (iid,
 * redirectUri, …) and goes on to the password step with the address, as the script's Next does.
 */
function emailStep(texts: Texts, intro: string, search: URLSearchParams): string {
  const kept = [...search.entries()]
    .filter(([name]) => name !== 'email' && name !== 'remember')
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');
  const email = search.get('email') ?? '';
  return (
    `<p>${escapeHtml(intro)}</p>` +
    `<form method="get" action="/login/password" data-kc-first-paint="login">${kept}` +
    `<div class="kc-field"><label for="kc-fp-email">${escapeHtml(texts.login.email.label)}</label>` +
    `<input id="kc-fp-email" type="email" name="email" autocomplete="username" inputmode="email" required autofocus value="${escapeHtml(email)}"></div>` +
    `<div class="kc-checkbox"><input id="kc-fp-remember" type="checkbox" name="remember" value="1">` +
    `<label for="kc-fp-remember">${escapeHtml(texts.login.email.remember)}</label></div>` +
    `<button class="kc-button" type="submit">${escapeHtml(texts.login.email.submit)}</button></form>`
  );
}

/**
 * The e-mail step's word on a live session, as the portal's LiveSession draws it: who is signed
 * in, the way on and the way out. Not when an app is asking (its request goes on by itself;
 * a fresh sign-in an app asks for comes with its iid too), nor after a log-out.
 */
function liveSession(texts: Texts, email: string | null): string {
  if (!email) return '';
  const notice = escapeHtml(texts.login.signedIn.notice.replace('{{email}}', email));
  return (
    `<div class="kc-live-session"><div class="kc-notice kc-notice-info" role="status">${notice}</div>` +
    `<div class="kc-actions"><a class="kc-button" href="${paths.authenticated}">${escapeHtml(texts.login.signedIn.continue)}</a>` +
    `<a class="kc-button kc-button-secondary" href="${paths.logout}">${escapeHtml(texts.login.signedIn.logOut)}</a></div>` +
    `<p>${escapeHtml(texts.login.signedIn.other)}</p></div>`
  );
}

export function isEmailStep(pathname: string): boolean {
  const path = pathname.replace(/\/+$/, '') || '/';
  return path === '/login';
}

/** Stands for the page's nonce in a template whose stylesheets were put inline. */
const inlineStyleNonce = '__KC_STYLE_NONCE__';

/**
 * The built page with its own stylesheets put inline (read once, at start): a render-blocking
 * stylesheet costs a round trip before the first paint, a long one on a phone network. The
 * files are the build's own (a few kB); their url()s are absolute (/assets/…), so they hold.
 */
export function inlineStylesheets(template: string, readAsset: (file: string) => string | undefined): string {
  return template.replace(
    /<link rel="stylesheet"[^>]*href="(\/assets\/[^"]+\.css)"[^>]*>/g,
    (link, file: string) => {
      const css = readAsset(file);
      return css === undefined || css.includes('</style')
        ? link
        : `<style nonce="${inlineStyleNonce}">${css}</style>`;
    },
  );
}

/** A fresh nonce for the page's inline styles (its CSP names it). */
export function createNonce(): string {
  return randomBytes(16).toString('base64');
}

/** A page rendered on the server into the portal's template: its head and its root's content. */
export interface RenderedPage {
  locale: Locale;
  title: string;
  tenant: TenantContext | null;
  /** The root's server-rendered content, which the portal script replaces. */
  root: string;
  /** Markup after the root, outside what the script replaces (a form, a classic script). */
  afterRoot?: string;
  /** More JSON data blocks for the script, by element id. */
  data?: Record<string, unknown>;
}

/**
 * The built index.html with a page put in. The template's own title, favicon, lang attribute
 * and empty root are replaced; everything else (the hashed script and stylesheet links) stays
 * as built. Inline styles carry the nonce the page's CSP names.
 */
export function composePage(template: string, page: RenderedPage, nonce: string): string {
  const { tenant, locale } = page;
  const theme = tenant?.theme ?? null;
  const bootstrap: PortalBootstrap = {
    locale,
    branding: tenant && theme ? { theme, tenantCode: tenant.code } : null,
  };
  const blocks = { [bootstrapElementId]: bootstrap, ...page.data };
  const head =
    `<title>${escapeHtml(page.title)}</title>` +
    (theme
      ? `<link rel="icon" href="${escapeHtml(theme.images.favicon)}">`
      : '<link rel="icon" href="data:,">') +
    (theme ? `<style nonce="${nonce}">${themeCss(theme)}</style>` : '') +
    Object.entries(blocks)
      .map(([id, value]) => `<script type="application/json" id="${id}">${jsonForScript(value)}</script>`)
      .join('');
  return template
    .replaceAll(inlineStyleNonce, nonce)
    .replace(/<html lang="[^"]*"/, `<html lang="${locale}"${rootAttributes(theme)}`)
    .replace(/<title>[^<]*<\/title>/, '')
    .replace(/<link rel="icon"[^>]*>/, '')
    .replace('</head>', `${head}</head>`)
    .replace('<div id="root"></div>', `<div id="root">${page.root}</div>${page.afterRoot ?? ''}`);
}

/** The built index.html with this host's first paint put in. */
export async function renderFirstPaint(
  template: string,
  context: FirstPaintContext,
  nonce: string,
): Promise<string> {
  const { tenant, locale, pathname, search } = context;
  const signedIn = search.has('iid') || search.has('loggedOut') ? null : (context.signedIn ?? null);
  const texts = locale === 'en' ? en : await loadTexts(locale);
  const theme = tenant?.theme ?? null;
  const key = titleKey(pathname, search);
  // The account page's title is in its own catalogue (texts.account), not the core titles.
  const heading = key
    ? texts.titles[key]
    : /^\/account\/?$/.test(pathname)
      ? texts.account.titles.account
      : null;
  const suffix = theme?.name ?? texts.common.appName;
  const root =
    tenant && isEmailStep(pathname)
      ? pageShell(
          texts,
          theme,
          locale,
          search.has('activateSuccess')
            ? texts.titles.accountCreated
            : tenantText(theme, locale, 'login.email.heading', texts.login.email.heading),
          liveSession(texts, signedIn) +
            emailStep(texts, tenantText(theme, locale, 'login.email.intro', texts.login.email.intro), search),
        )
      : '';
  return composePage(
    template,
    {
      locale,
      tenant,
      title: heading ? `${heading} | ${suffix}` : suffix,
      root,
      // Read by the portal's e-mail step (apps/portal/src/lib/signed-in.ts).
      ...(signedIn ? { data: { 'kc-signed-in': { email: signedIn } } } : {}),
    },
    nonce,
  );
}
