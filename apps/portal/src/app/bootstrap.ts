import type { Theme } from '@keycard/contract/api';
import type { PasskeyMode } from '@keycard/contract/passkeys';
import { type Locale, toLocale } from '@keycard/contract/user-state';

/**
 * What the server rendered into the page (apps/server/src/http/first-paint.ts): the chosen
 * language and the host's branding, so the script starts without asking for them again (what
 * the visitor typed into its login form: lib/first-paint-input.ts).
 */
export interface PortalBootstrap {
  locale: Locale;
  branding: { theme: Theme; tenantCode: string; passkeys?: PasskeyMode } | null;
}

export function readBootstrap(): PortalBootstrap | null {
  const element = document.getElementById('kc-bootstrap');
  if (!element?.textContent) return null;
  try {
    const data = JSON.parse(element.textContent) as Partial<PortalBootstrap>;
    const locale = toLocale(data.locale);
    if (!locale) return null;
    return { locale, branding: data.branding ?? null };
  } catch {
    return null;
  }
}
