import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import { errorCodes, paths, storageKeys, toLocale } from '@keycard/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { BrowserExchange } from '../../features/oidc/index.ts';
import type { TenantContext } from '../../features/tenants/index.ts';
import { hostnameOf } from '../../platform/http/host.ts';
import { allowPageStyle } from '../../platform/http/security.ts';
import {
  choosePageLocale,
  createNonce,
  inlineStylesheets,
  isEmailStep,
  renderFirstPaint,
} from './first-paint.ts';

/** Route patterns of the portal, from the one paths object; anything else is a 404 page. */
const routePatterns = Object.values(paths).map((route) => {
  const body = route
    .replace(/\/$/, '')
    .split('/')
    .map((part) => (part.startsWith(':') ? (part.endsWith('?') ? '(?:[^/]+)?' : '[^/]+') : part))
    .join('/');
  return new RegExp(`^${body}/?$`);
});
// /login/:stage? — the password stage.
routePatterns.push(/^\/login\/password\/?$/);

const previewPattern = /^\/preview(\/|$)/;

export function isPortalRoute(pathname: string): boolean {
  return routePatterns.some((pattern) => pattern.test(pathname));
}

/** Brotli, else gzip, as the browser accepts (every current browser takes both). */
function pageEncoding(header: string | undefined): 'br' | 'gzip' | undefined {
  const accepted = (header ?? '').split(',').map((part) => part.trim().split(';')[0]?.trim());
  if (accepted.includes('br')) return 'br';
  if (accepted.includes('gzip')) return 'gzip';
  return undefined;
}

/** A page is a few kB: fast settings cost well under a millisecond and save a round trip's worth. */
function compressPage(html: string, encoding: 'br' | 'gzip' | undefined): string | Buffer {
  if (encoding === 'br') return brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } });
  if (encoding === 'gzip') return gzipSync(html, { level: 6 });
  return html;
}

function loadBuiltPage(distDir: string): string | undefined {
  const indexFile = path.join(distDir, 'index.html');
  return existsSync(indexFile) ? readFileSync(indexFile, 'utf8') : undefined;
}

/**
 * The built index.html as pages rendered per host use it (the first paint, the provider's
 * pages): its stylesheets inline (allowed by each page's nonce). Undefined without a build.
 */
export function loadPortalTemplate(distDir: string): string | undefined {
  const builtHtml = loadBuiltPage(distDir);
  return builtHtml
    ? inlineStylesheets(builtHtml, (file) => {
        const asset = path.join(distDir, file);
        return asset.startsWith(path.join(distDir, 'assets')) && existsSync(asset)
          ? readFileSync(asset, 'utf8')
          : undefined;
      })
    : undefined;
}

/** What the branded first paint needs to know of a request's host and sign-in request. */
export interface FirstPaintSource {
  resolveTenant(host: string): Promise<TenantContext | null>;
  /**
   * The OIDC request's ui_locales, for a page opened with the interaction's iid in the browser
   * that holds the interaction's cookie.
   */
  uiLocales(tenant: TenantContext, iid: string, browser: BrowserExchange): Promise<string | undefined>;
  /**
   * The e-mail address of this browser's complete session on the tenant, if it has one: the
   * login page says who is signed in (issue 19, item 13). Asked only for the e-mail step.
   */
  signedInAs?(tenant: TenantContext, request: FastifyRequest): Promise<string | null>;
  /** The public URLs are https: cookies set here are Secure. */
  secureCookies: boolean;
}

const oneYearSeconds = 365 * 24 * 60 * 60;

/**
 * Serves the built SPA: hashed assets with long caching, and index.html for every portal
 * route (history routing), with status 404 for paths no route knows. With a first-paint
 * source, each page is rendered for its host: theme, language, title and the login form.
 */
export async function portalRoutes(
  app: FastifyInstance,
  opts: {
    distDir: string;
    firstPaint?: FirstPaintSource;
    /** The operator host: the only one with the theme preview (paths.preview) the console frames. */
    adminDomain?: string;
  },
): Promise<void> {
  const built = existsSync(path.join(opts.distDir, 'index.html'));
  const indexHtml = opts.firstPaint ? loadPortalTemplate(opts.distDir) : loadBuiltPage(opts.distDir);
  if (built) {
    await app.register(fastifyStatic, {
      root: opts.distDir,
      prefix: '/',
      wildcard: false,
      index: false,
      // The build writes .br and .gz copies of its assets: sent as they are, no work per request.
      preCompressed: true,
      setHeaders: (res, filePath) => {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.setHeader('cache-control', 'public, max-age=31536000, immutable');
        }
      },
    });
  }

  async function pageFor(request: FastifyRequest, reply: FastifyReply, template: string, pathname: string) {
    const source = opts.firstPaint;
    if (!source) return { html: template, nonce: null, personal: false };
    const search = new URLSearchParams(request.url.split('?')[1] ?? '');
    const tenant = await source.resolveTenant(request.host);
    const iid = search.get('iid');
    const uiLocales =
      tenant && iid && iid.length <= 128
        ? await source.uiLocales(tenant, iid, { req: request.raw, res: reply.raw }).catch(() => undefined)
        : undefined;
    const menu = toLocale(request.cookies?.[storageKeys.languageMenuCookie]);
    const locale = choosePageLocale({
      menu,
      langCode: search.get('langCode'),
      chosen: request.cookies?.[storageKeys.languageCookie],
      uiLocales,
      acceptLanguage: request.headers['accept-language'],
    });
    // A langCode the browser arrived with (a mail link, an app) stays for its later pages:
    // the flow, its redirects and the next visit keep the language. Not HttpOnly: the
    // portal's language menu changes it. A choice made in the menu stays (issue 19 item 14).
    const arrivedWith = toLocale(search.get('langCode'));
    if (arrivedWith && !menu) {
      reply.setCookie(storageKeys.languageCookie, arrivedWith, {
        path: '/',
        sameSite: 'lax',
        secure: source.secureCookies,
        maxAge: oneYearSeconds,
      });
    }
    const signedIn =
      tenant && source.signedInAs && isEmailStep(pathname)
        ? await source.signedInAs(tenant, request).catch(() => null)
        : null;
    const nonce = createNonce();
    const html = await renderFirstPaint(template, { tenant, locale, pathname, search, signedIn }, nonce);
    return { html, nonce, personal: signedIn !== null };
  }

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    // Elsewhere the preview is not even the SPA's 404 page: the SPA would draw the route anyway.
    const previewElsewhere = previewPattern.test(pathname) && hostnameOf(request.host) !== opts.adminDomain;
    const wantsPage =
      !previewElsewhere &&
      (request.method === 'GET' || request.method === 'HEAD') &&
      !pathname.startsWith('/api/') &&
      !pathname.startsWith('/oidc') &&
      // A missing asset (a dot in its last segment) is a JSON 404, but a portal route whose
      // parameter has dots in it is a page: a partner link ends in a JWT (header.payload.sig).
      (!path.extname(pathname) || isPortalRoute(pathname));
    if (wantsPage && indexHtml) {
      const { html, nonce, personal } = await pageFor(request, reply, indexHtml, pathname);
      const encoding = pageEncoding(request.headers['accept-encoding']);
      if (encoding) reply.header('content-encoding', encoding);
      if (nonce) allowPageStyle(request, reply, nonce);
      return (
        reply
          .status(isPortalRoute(pathname) ? 200 : 404)
          .type('text/html; charset=utf-8')
          // Rendered per host and language: never shared between them by a cache.
          // A page naming who is signed in is kept by no cache at all.
          .header('cache-control', personal ? 'private, no-store' : 'no-cache')
          .header('vary', 'Host, Accept-Language, Accept-Encoding')
          .send(compressPage(html, encoding))
      );
    }
    return reply
      .status(404)
      .send({ code: errorCodes.notFound, message: `No route for ${request.method} ${pathname}` });
  });
}
