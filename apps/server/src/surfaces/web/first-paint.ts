import { randomBytes } from 'node:crypto';
import {
  type Locale,
  localeNames,
  locales,
  type OverridableTextKey,
  type Theme,
  themeVariables,
  toLocale,
} from '@keycard/contract';
import { en, loadTexts, type Texts } from '@keycard/texts';
import type { TenantContext } from '../../features/tenants/index.ts';
import { escapeHtml } from '../../platform/shared/html.ts';

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
 * The page's language (issue 11): the langCode query value, then the language this browser
 * chose before (the AUTH_X_LANG cookie: the language menu, or a langCode it arrived with), then
 * the app's OIDC `ui_locales` (space-separated, best first), then the browser's
 * Accept-Language, then English. Only the part before the dash counts (SPEC §1).
 */
export function choosePageLocale(input: {
  langCode: string | null;
  chosen?: string | undefined;
  uiLocales: string | undefined;
  acceptLanguage: string | undefined;
}): Locale {
  const candidates = [
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

/** The theme's colours as CSS variables, with the contrast guarantee the portal applies too. */
function themeCss(theme: Theme): string {
  const declarations = Object.entries(themeVariables(theme.colours))
    .filter(([, value]) => /^#[0-9a-f]{6}$/.test(value))
    .map(([name, value]) => `${name}:${value}`);
  return `:root{${declarations.join(';')}}`;
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

function isEmailStep(pathname: string): boolean {
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
    .replace(/<html lang="[^"]*"/, `<html lang="${locale}"`)
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
  const texts = locale === 'en' ? en : await loadTexts(locale);
  const theme = tenant?.theme ?? null;
  const key = titleKey(pathname, search);
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
          emailStep(texts, tenantText(theme, locale, 'login.email.intro', texts.login.email.intro), search),
        )
      : '';
  return composePage(
    template,
    { locale, tenant, title: key ? `${texts.titles[key]} | ${suffix}` : suffix, root },
    nonce,
  );
}
