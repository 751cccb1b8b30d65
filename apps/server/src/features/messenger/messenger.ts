import type { MessengerConfig, MessengerProvider } from '@keycard/contract';
import type { Config } from '../../platform/config.ts';
import type { TenantContext } from '../tenants/index.ts';

/** A CSP directive and the sources a widget adds to it. */
export type CspAdditions = Partial<Record<CspDirective, readonly string[]>>;
type CspDirective =
  | 'script-src'
  | 'connect-src'
  | 'frame-src'
  | 'font-src'
  | 'img-src'
  | 'media-src'
  | 'form-action';

/**
 * Intercom's origins, the one place they are listed: the source allowlist of "Using Intercom
 * with Content Security Policy" (intercom.com/help, article 3894), US, EU and Australian
 * regions. Only Intercom's own origins: the third-party video frames that article also lists
 * are left out. Intercom also asks for style-src 'unsafe-inline'; it is not granted, since a
 * page with a style nonce makes browsers ignore it anyway (CSP Level 3) and it would open the
 * page to injected styles.
 */
export const intercomCsp: CspAdditions = {
  'script-src': ['https://app.intercom.io', 'https://widget.intercom.io', 'https://js.intercomcdn.com'],
  'connect-src': [
    'https://via.intercom.io',
    'https://api.intercom.io',
    'https://api.eu.intercom.io',
    'https://api.au.intercom.io',
    'https://api-iam.intercom.io',
    'https://api-iam.eu.intercom.io',
    'https://api-iam.au.intercom.io',
    'https://api-ping.intercom.io',
    'https://nexus-websocket-a.intercom.io',
    'wss://nexus-websocket-a.intercom.io',
    'https://nexus-websocket-b.intercom.io',
    'wss://nexus-websocket-b.intercom.io',
    'https://nexus-europe-websocket.intercom.io',
    'wss://nexus-europe-websocket.intercom.io',
    'https://nexus-australia-websocket.intercom.io',
    'wss://nexus-australia-websocket.intercom.io',
    'https://uploads.intercomcdn.com',
    'https://uploads.intercomcdn.eu',
    'https://uploads.au.intercomcdn.com',
    'https://uploads.intercomusercontent.com',
  ],
  'frame-src': ['https://intercom-sheets.com', 'https://www.intercom-reporting.com'],
  'font-src': ['https://js.intercomcdn.com', 'https://fonts.intercomcdn.com'],
  'media-src': ['https://js.intercomcdn.com'],
  'form-action': ['https://intercom.help', 'https://api-iam.intercom.io'],
};

/** Intercom's widget script for an app (its documented loader URL). */
export function intercomScriptUrl(appId: string): string {
  return `https://widget.intercom.io/widget/${encodeURIComponent(appId)}`;
}

export interface MessengerSettings {
  provider: MessengerProvider;
  appId: string;
  domains: string[];
  scriptUrl: string;
  csp: CspAdditions;
}

/** The stand-in's origin, for its script, its calls (http and websocket) and its frames. */
function standinCsp(scriptUrl: string): CspAdditions | null {
  let url: URL;
  try {
    url = new URL(scriptUrl);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const socket = `${url.protocol === 'https:' ? 'wss' : 'ws'}://${url.host}`;
  return {
    'script-src': [url.origin],
    'connect-src': [url.origin, socket],
    'frame-src': [url.origin],
    'img-src': [url.origin],
  };
}

/**
 * The tenant's messenger widget when it has a complete one, else null: a provider, an app id
 * (Intercom) or a script (the stand-in), and at least one domain. The stand-in is refused in
 * production, so a test double can never reach real users' pages.
 */
export function messengerSettingsOf(
  tenant: TenantContext,
  config: Pick<Config, 'env'>,
): MessengerSettings | null {
  const stored = tenant.settings.messenger;
  const domains = (stored.domains ?? []).map((domain) => domain.toLowerCase());
  if (!stored.provider || domains.length === 0) return null;
  if (stored.provider === 'intercom') {
    if (!stored.appId) return null;
    return {
      provider: 'intercom',
      appId: stored.appId,
      domains,
      scriptUrl: intercomScriptUrl(stored.appId),
      csp: intercomCsp,
    };
  }
  if (config.env === 'production' || !stored.scriptUrl) return null;
  const csp = standinCsp(stored.scriptUrl);
  if (!csp) return null;
  return { provider: 'standin', appId: stored.appId ?? 'standin', domains, scriptUrl: stored.scriptUrl, csp };
}

/** What the portal is told (GET /api/messenger): nothing secret, all off when there is none. */
export function messengerConfigOf(settings: MessengerSettings | null): MessengerConfig {
  if (!settings) return { provider: null, appId: null, domains: [], scriptUrl: null };
  const { provider, appId, domains, scriptUrl } = settings;
  return { provider, appId, domains, scriptUrl };
}

/**
 * A page's Content-Security-Policy with a widget's sources added to its directives. A
 * directive the policy lacks falls back to default-src ('self' for the portal), so it is
 * added as 'self' plus the sources; everything else in the policy stays as it was.
 */
export function cspWithSources(csp: string, additions: CspAdditions): string {
  const directives = csp
    .split(';')
    .map((d) => d.trim())
    .filter(Boolean);
  for (const [name, sources] of Object.entries(additions)) {
    if (!sources || sources.length === 0) continue;
    const index = directives.findIndex((d) => d === name || d.startsWith(`${name} `));
    if (index === -1) directives.push(`${name} 'self' ${sources.join(' ')}`);
    else directives[index] = `${directives[index]} ${sources.join(' ')}`;
  }
  return directives.join('; ');
}
