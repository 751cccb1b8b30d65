import { type Locale, storageKeys } from '@keycard/contract';
import { en, loadTexts, type Texts } from '@keycard/texts';
import { fillRedirectPortHint } from '@keycard/texts/provider-hints';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { type ProviderPageRenderer, portOnlyRedirectMismatch } from '../../features/oidc/index.ts';
import type { TenantContext } from '../../features/tenants/index.ts';
import { pagePolicy } from '../../platform/http/page-policy.ts';
import { escapeHtml } from '../../platform/shared/html.ts';
import {
  choosePageLocale,
  composePage,
  createNonce,
  pageShell,
  type RenderedPage,
} from '../web/first-paint.ts';

/**
 * The provider's own pages (its error page and RP-initiated logout's page) rendered as portal
 * pages (issue 11): the portal's template with the tenant's colours, logo, title and the
 * visitor's language in the first response, working without JavaScript; the portal script
 * then takes them over (apps/portal/src/features/errors/provider-page.tsx) from the data
 * block below.
 */

/** Text for HTML, attribute values included (the dev outbox's pages use it too). */

/** The data block the portal's provider screen reads (its element id and shape). */
export const providerPageElementId = 'kc-provider-page';
export type ProviderPageData =
  | {
      kind: 'error';
      code: string;
      request: 'sign-in' | 'log-out';
      /** A redirect that differs from the registered one only in its port (issue 19). */
      portHint?: { requested: string; registered: string };
    }
  | { kind: 'logout' };

/**
 * The stable error code, shown as it is: the provider's own codes are lower-case words, and
 * anything else (which it never sends) is shown as the generic server_error.
 */
export function displayedErrorCode(error: unknown): string {
  return typeof error === 'string' && /^[a-z_]{1,64}$/.test(error) ? error : 'server_error';
}

/** The explanation of a code, or the generic one; never a key from the object's prototype. */
function reasonFor(texts: Texts, code: string): string {
  const reasons: Record<string, string> = texts.errors.provider.reasons;
  return Object.hasOwn(reasons, code) ? (reasons[code] as string) : reasons.other!;
}

/** Used when no portal build is there (API tests, a server run without the portal). */
const fallbackTemplate =
  '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
  '<meta name="viewport" content="width=device-width, initial-scale=1"><title>Keycard</title>' +
  '<link rel="icon" href="data:,"><link rel="stylesheet" href="/_keycard/provider.css"></head>' +
  '<body><div id="root"></div></body></html>';

const single = (value: unknown) => (typeof value === 'string' ? value : undefined);

/**
 * The page's language, by the portal's rule (first-paint.ts choosePageLocale): langCode, the
 * browser's remembered choice, the request's ui_locales, Accept-Language, English.
 */
function localeOf(ctx: KoaContextWithOIDC): Locale {
  const params = (ctx.oidc?.params ?? {}) as Record<string, unknown>;
  return choosePageLocale({
    langCode: single(ctx.query.langCode) ?? null,
    chosen: ctx.cookies.get(storageKeys.languageCookie, { signed: false }),
    uiLocales: single(params.ui_locales) ?? single(ctx.query.ui_locales),
    acceptLanguage: ctx.get('accept-language') || undefined,
  });
}

export class ProviderPages implements ProviderPageRenderer {
  readonly #template: string;

  /** `template`: the portal's built index.html with its stylesheets inline (portal.ts). */
  constructor(template: string | undefined) {
    this.#template = template ?? fallbackTemplate;
  }

  /** The provider's error page: shown, never redirected (e.g. an unregistered redirect_uri). */
  async renderError(
    ctx: KoaContextWithOIDC,
    tenant: TenantContext,
    out: { error?: string; error_description?: string },
  ): Promise<void> {
    const redirect = (ctx.oidc?.params as Record<string, unknown> | undefined)?.redirect_uri;
    const portHint =
      out.error === 'invalid_redirect_uri'
        ? portOnlyRedirectMismatch(redirect, ctx.oidc?.client?.redirectUris ?? [])
        : undefined;
    const page = await this.#errorPage(localeOf(ctx), tenant, out.error, ctx.path, portHint);
    this.#send(ctx, page);
  }

  /**
   * The same page for a request the provider never saw: an outage before it could be reached
   * (the tenant or its provider could not be loaded). In the tenant's branding when the tenant
   * is known, else plain. `path` is inside the provider (/auth, /session/end). Answers the page
   * and the content security policy it needs (the provider's, with the page's style nonce).
   */
  async errorPageOutside(input: {
    tenant: TenantContext | null;
    code: string;
    path: string;
    query: Record<string, unknown>;
    chosenLocale: string | undefined;
    acceptLanguage: string | undefined;
  }): Promise<{ html: string; csp: string }> {
    const locale = choosePageLocale({
      langCode: single(input.query.langCode) ?? null,
      chosen: input.chosenLocale,
      uiLocales: single(input.query.ui_locales),
      acceptLanguage: input.acceptLanguage,
    });
    const page = await this.#errorPage(locale, input.tenant, input.code, input.path);
    const nonce = createNonce();
    return {
      html: composePage(this.#template, page, nonce),
      csp: providerPageCsp(nonce),
    };
  }

  async #errorPage(
    locale: Locale,
    tenant: TenantContext | null,
    error: unknown,
    path: string,
    portHint?: { requested: string; registered: string },
  ): Promise<RenderedPage> {
    const texts = locale === 'en' ? en : await loadTexts(locale);
    // The code is stable and safe to show. The description is not shown: it is English, and
    // some repeat what the request carried (a path, a parameter), text an attacker chooses.
    const code = displayedErrorCode(error);
    const request = path.startsWith('/session') ? 'log-out' : 'sign-in';
    const heading = request === 'log-out' ? texts.titles.logoutRefused : texts.titles.requestRefused;
    const support = tenant?.theme.links.contactSupportUrl;
    const body =
      `<p>${escapeHtml(reasonFor(texts, code))}</p>` +
      (portHint ? `<p>${escapeHtml(fillRedirectPortHint(locale, portHint))}</p>` : '') +
      `<p>${escapeHtml(texts.errors.provider.next)}</p>` +
      `<p>${escapeHtml(texts.errors.provider.codeLabel)}: <code>${escapeHtml(code)}</code></p>` +
      (support
        ? `<div class="kc-links"><a class="kc-link" href="${escapeHtml(support)}" target="_blank" rel="noopener noreferrer">${escapeHtml(texts.common.contactSupport)}</a></div>`
        : '');
    const data: ProviderPageData = { kind: 'error', code, request, ...(portHint ? { portHint } : {}) };
    return {
      locale,
      tenant,
      title: `${heading} | ${tenant?.theme.name ?? texts.common.appName}`,
      root: pageShell(texts, tenant?.theme ?? null, locale, heading, body),
      data: { [providerPageElementId]: data },
    };
  }

  /**
   * RP-initiated logout: the provider's own form (it carries the provider's CSRF token, xsrf)
   * stays outside what the portal script replaces; /_keycard/logout.js submits it at once, and
   * without JavaScript the card's button does.
   */
  async renderLogout(ctx: KoaContextWithOIDC, tenant: TenantContext, form: string): Promise<void> {
    const locale = localeOf(ctx);
    const texts = locale === 'en' ? en : await loadTexts(locale);
    const body =
      `<p>${escapeHtml(texts.logout.provider.body)}</p>` +
      `<button class="kc-button" type="submit" form="op.logoutForm" name="logout" value="yes">${escapeHtml(
        texts.logout.provider.submit,
      )}</button>`;
    const data: ProviderPageData = { kind: 'logout' };
    this.#send(ctx, {
      locale,
      tenant,
      title: `${texts.titles.logout} | ${tenant.theme.name}`,
      root: pageShell(texts, tenant.theme, locale, texts.titles.logout, body),
      afterRoot: `${form}<script src="/_keycard/logout.js"></script>`,
      data: { [providerPageElementId]: data },
    });
  }

  #send(ctx: KoaContextWithOIDC, page: RenderedPage): void {
    const nonce = createNonce();
    ctx.set('content-security-policy', providerPageCsp(nonce));
    ctx.type = 'html';
    ctx.body = composePage(this.#template, page, nonce);
  }
}

/** The provider's page policy (platform/http/page-policy.ts) with this page's style nonce. */
function providerPageCsp(nonce: string): string {
  return pagePolicy({ kind: 'provider', nonce })['content-security-policy'] ?? '';
}

/** Submits the provider's logout form with logout=yes: the session ends everywhere. */
export const logoutScript = `(function () {
  var form = document.getElementById('op.logoutForm');
  if (!form) return;
  var input = document.createElement('input');
  input.type = 'hidden'; input.name = 'logout'; input.value = 'yes';
  form.appendChild(input);
  form.submit();
})();`;

/** The card's look when no portal build is there to lend its stylesheet. */
export const providerCss = `body{font-family:system-ui,sans-serif;margin:0;background:var(--kc-secondary-bg,#ddd);color:#1a1a1a}
.kc-main{display:flex;justify-content:center;padding:2rem 1rem}
.kc-card{background:#fff;max-width:26rem;width:100%;padding:2rem;border-radius:8px}
.kc-card-brand{margin:-2rem -2rem 1.5rem;padding:.75rem 2rem;background:var(--kc-primary-bg,#424242);border-radius:8px 8px 0 0}
.kc-button{display:block;width:100%;font:inherit;font-weight:600;padding:.7rem 1rem;border:2px solid var(--kc-primary-edge,#424242);border-radius:6px;background:var(--kc-primary-bg,#424242);color:var(--kc-primary-text,#fff)}
.kc-link{color:var(--kc-link,#2c2c2c)}.kc-footer{display:flex;justify-content:center;padding:1rem}
h1{font-size:1.5rem}`;
