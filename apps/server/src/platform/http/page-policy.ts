/**
 * The page policy: the Content-Security-Policy and the headers that go with it, for every
 * answer, from one function. What kind of page it is picks the base policy; features that
 * put something of a third party on a tenant's pages (its captcha, its messenger widget) give
 * their origins as data (`PageSources`); a page drawn with an inline style adds its nonce.
 * Nothing else writes these headers, so no order between hooks decides a page's policy.
 */

/** The directives a feature may widen. */
export type SourceDirective =
  | 'script-src'
  | 'connect-src'
  | 'frame-src'
  | 'font-src'
  | 'img-src'
  | 'media-src'
  | 'form-action';

/** What one feature adds to a tenant's portal pages. */
export interface PageSources {
  /** The sources it adds, by directive. */
  readonly add: Partial<Record<SourceDirective, readonly string[]>>;
  /**
   * Directives the base policy lacks that hold only the features' sources, not default-src's
   * ('self'): the captcha's frames are the only frames a page needs. Any other missing
   * directive starts from default-src, as a browser would read it without the directive.
   */
  readonly alone?: readonly SourceDirective[];
}

/**
 * `portal`: a tenant's pages and everything else its hosts answer; `provider`: /oidc;
 * `console` and `preview`: the operator host's console and the console's theme preview.
 */
export type PageKind = 'portal' | 'provider' | 'console' | 'preview';

type Policy = ReadonlyArray<readonly [directive: string, sources: readonly string[]]>;

const portalPolicy: Policy = [
  ['default-src', ["'self'"]],
  ['script-src', ["'self'"]],
  ['style-src', ["'self'"]],
  ['img-src', ["'self'", 'data:', 'https:']],
  ['connect-src', ["'self'"]],
  ['font-src', ["'self'"]],
  ['object-src', ["'none'"]],
  ['base-uri', ["'none'"]],
  ['frame-ancestors', ["'none'"]],
  ['form-action', ["'self'"]],
];

// Provider pages post forms that end in a redirect to an app; Chromium applies form-action
// to that redirect, so those pages carry no form-action limit.
const providerPolicy: Policy = [
  ['default-src', ["'self'"]],
  ['script-src', ["'self'"]],
  ['style-src', ["'self'"]],
  ['img-src', ["'self'", 'data:', 'https:']],
  ['object-src', ["'none'"]],
  ['base-uri', ["'none'"]],
  ['frame-ancestors', ["'none'"]],
];

/**
 * The admin console (operator host only): its own scripts and styles (React sets style
 * attributes through the CSSOM, which CSP does not govern; Vite's build has no inline script),
 * API calls to its own origin, and frames of its own origin (the portal's theme preview).
 * Images also from https: a theme's logo may be an address of the tenant's choosing, which
 * the portal shows too; uploaded ones are same-origin (/_keycard/assets on every host).
 */
const consolePolicy: Policy = [
  ['default-src', ["'self'"]],
  ['script-src', ["'self'"]],
  ['style-src', ["'self'"]],
  ['img-src', ["'self'", 'data:', 'https:']],
  ['connect-src', ["'self'"]],
  ['font-src', ["'self'"]],
  ['frame-src', ["'self'"]],
  ['object-src', ["'none'"]],
  ['base-uri', ["'none'"]],
  ['frame-ancestors', ["'none'"]],
  ['form-action', ["'self'"]],
];

/**
 * The portal's theme preview, framed by the console (same origin) and by nothing else. It draws
 * whatever draft the console hands it and must reach nothing from there: no requests of any
 * kind (`connect-src 'none'`, beside inert-preview.ts stopping them in the page) and no form
 * posts; only what drawing takes — the portal's scripts, its styles (with the page's nonce),
 * fonts, and images from itself or https (a theme's logo).
 */
const previewPolicy: Policy = [
  ['default-src', ["'none'"]],
  ['script-src', ["'self'"]],
  ['style-src', ["'self'"]],
  ['img-src', ["'self'", 'https:']],
  ['font-src', ["'self'"]],
  ['connect-src', ["'none'"]],
  ['form-action', ["'none'"]],
  ['object-src', ["'none'"]],
  ['base-uri', ["'none'"]],
  ['frame-ancestors', ["'self'"]],
];

const policies: Record<PageKind, { csp: Policy; frameOptions: string }> = {
  portal: { csp: portalPolicy, frameOptions: 'DENY' },
  provider: { csp: providerPolicy, frameOptions: 'DENY' },
  console: { csp: consolePolicy, frameOptions: 'DENY' },
  // Framed by the console, on its own origin.
  preview: { csp: previewPolicy, frameOptions: 'SAMEORIGIN' },
};

export interface PagePolicyInput {
  kind: PageKind;
  /** The nonce of the page's one inline style (the tenant's colours in the first paint). */
  nonce?: string | null | undefined;
  /**
   * What features add, in a fixed order (captcha, then messenger). Only a tenant's portal
   * pages take them: the provider's pages, the console and the preview stay as they are.
   */
  sources?: readonly PageSources[];
  /** The public URLs are https: browsers are told to keep to it (HSTS). */
  https?: boolean;
}

/** The headers of one answer: its Content-Security-Policy and the headers that go with it. */
export function pagePolicy(input: PagePolicyInput): Record<string, string> {
  const { csp, frameOptions } = policies[input.kind];
  const headers: Record<string, string> = {
    'content-security-policy': contentSecurityPolicy(
      input.kind,
      csp,
      input.kind === 'portal' ? (input.sources ?? []) : [],
      input.nonce ?? null,
    ),
    // Tokens ride in URLs (activation, reset, login codes): never send them on as a referrer.
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'x-frame-options': frameOptions,
    'cross-origin-opener-policy': 'same-origin',
    'permissions-policy': 'camera=(), microphone=(), geolocation=()',
  };
  if (input.https) headers['strict-transport-security'] = 'max-age=31536000; includeSubDomains';
  return headers;
}

/** Each kind's policy as it is with nothing added: most answers (API calls, files) get just that. */
const plainPolicies = new Map<PageKind, string>();

function contentSecurityPolicy(
  kind: PageKind,
  base: Policy,
  features: readonly PageSources[],
  nonce: string | null,
): string {
  const plain = features.length === 0 && nonce === null;
  const known = plain ? plainPolicies.get(kind) : undefined;
  if (known !== undefined) return known;
  const directives = new Map<string, string[]>(base.map(([name, sources]) => [name, [...sources]]));
  const fallback = directives.get('default-src') ?? [];
  // A directive the base lacks comes after the base's, in the order features first name it.
  for (const feature of features) {
    for (const [name, sources] of Object.entries(feature.add) as Array<[SourceDirective, string[]]>) {
      if (sources.length === 0) continue;
      let current = directives.get(name);
      if (!current) {
        const alone = features.some((each) => each.add[name]?.length && each.alone?.includes(name));
        current = alone ? [] : [...fallback];
        directives.set(name, current);
      }
      current.push(...sources);
    }
  }
  if (nonce) {
    const style = directives.get('style-src');
    if (style) style.push(`'nonce-${nonce}'`);
    else directives.set('style-src', ["'self'", `'nonce-${nonce}'`]);
  }
  const policy = [...directives].map(([name, sources]) => [name, ...sources].join(' ')).join('; ');
  if (plain) plainPolicies.set(kind, policy);
  return policy;
}

/** Which kind of page an address is: `adminHost` says the request came to the operator host. */
export function pageKindOf(path: string, adminHost: boolean): PageKind {
  if (path.startsWith('/oidc')) return 'provider';
  if (adminHost && (path === '/console' || path.startsWith('/console/'))) return 'console';
  if (adminHost && path.startsWith('/preview/')) return 'preview';
  return 'portal';
}

/**
 * Whether an answer may be a tenant's page, the only answers features widen: a GET or HEAD
 * of an address that is no API call, provider address, Keycard file (/_keycard) or file of the
 * build (a dot in it).
 */
export function isPageRequest(method: string, path: string): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  return !(
    path.startsWith('/api/') ||
    path.startsWith('/oidc') ||
    path.startsWith('/_') ||
    path.includes('.')
  );
}
