// Redirect targets (clients, tenants' defaults): a module apart from the e-mail and password
// rules, which the portal's login route carries; these only the server and the zod schemas use.

// RFC 8252 §7.1: a native app's private-use scheme is in reverse-DNS form, so it contains a dot
// (com.example.app). No scheme that runs or embeds content (javascript:, data:, vbscript:,
// file:, blob:, about:) has one.
const privateUseScheme = /^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+$/;
// The host names oidc-provider accepts for a native client's http redirect (RFC 8252 §7.3).
const nativeLoopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

function isLoopbackAddress(hostname: string): boolean {
  return hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

function isLocalhostName(hostname: string): boolean {
  return hostname === 'localhost' || hostname.endsWith('.localhost');
}

/** A native app's redirect (RFC 8252 §7.1): its scheme is private-use, in reverse-DNS form. */
export function isPrivateUseRedirect(uri: string): boolean {
  const url = URL.parse(uri);
  return url !== null && privateUseScheme.test(url.protocol.slice(0, -1));
}

/**
 * Why `uri` may not be a redirect target (a client's redirect or post-logout URI, a tenant's
 * default redirect), or undefined when it may. Allowed: `https`; `http` on a loopback address
 * (127.0.0.0/8, [::1]), or on `localhost` and `*.localhost` names outside production; a native
 * app's private-use scheme in reverse-DNS form (RFC 8252 §7.1, `com.example.app:/callback`).
 * Every other scheme is refused, `javascript:` and `data:` above all: the portal navigates to
 * these targets. No fragment (OAuth 2.0 §3.1.2), no user name or password, no white space.
 */
export function redirectTargetProblem(uri: string, options: { production: boolean }): string | undefined {
  if (uri.length > 2048) return 'at most 2048 characters';
  // The URL parser drops tabs and line breaks and trims control characters; the raw value is
  // what is matched and navigated to, so it must be what was checked.
  if (/[\s\p{Cc}]/u.test(uri)) return 'no spaces or control characters in a redirect URI';
  const url = URL.parse(uri);
  if (!url) return 'an absolute URI such as https://app.example.com/callback';
  if (uri.includes('#')) return 'no fragment (#) in a redirect URI';
  if (url.username || url.password) return 'no user name or password in a redirect URI';
  const scheme = url.protocol.slice(0, -1);
  if (scheme === 'https' || scheme === 'http') {
    if (!/^https?:\/\/[^/]/i.test(uri) || !url.hostname) {
      return 'an absolute URI such as https://app.example.com/callback';
    }
    if (scheme === 'https' || isLoopbackAddress(url.hostname)) return undefined;
    if (isLocalhostName(url.hostname)) {
      return options.production ? 'http only on 127.0.0.1 or [::1] in production; use https' : undefined;
    }
    return 'http only on localhost or a loopback address; use https';
  }
  if (privateUseScheme.test(scheme)) return undefined;
  return `the ${scheme}: scheme is not allowed: use https, http on localhost, or an app scheme such as com.example.app:/callback`;
}

/**
 * Why a client's redirect URIs cannot serve one client, or undefined. A client with an app
 * scheme is a native client (RFC 8252), whose http redirects go only to localhost, 127.0.0.1
 * or [::1] and whose https redirects never do (the provider's rule for native clients).
 */
export function nativeClientProblem(uris: readonly string[]): string | undefined {
  if (!uris.some(isPrivateUseRedirect)) return undefined;
  for (const uri of uris) {
    const url = URL.parse(uri);
    if (!url || isPrivateUseRedirect(uri)) continue;
    const loopback = nativeLoopbackHosts.has(url.hostname);
    if (url.protocol === 'http:' && !loopback) {
      return `a client with an app scheme uses http only on localhost, 127.0.0.1 or [::1] (${uri})`;
    }
    if (url.protocol === 'https:' && loopback) {
      return `a client with an app scheme uses https only on public host names (${uri})`;
    }
  }
  return undefined;
}

/** The application type the OIDC provider is given for a client with these redirect URIs. */
export function clientApplicationType(uris: readonly string[]): 'native' | 'web' {
  return uris.some(isPrivateUseRedirect) ? 'native' : 'web';
}
