import type { Theme } from '@keycard/contract/api';
import { type Locale, toLocale } from '@keycard/contract/user-state';

/**
 * What the server rendered into the page (apps/server/src/http/first-paint.ts): the chosen
 * language and the host's branding, so the script starts without asking for them again, and
 * what the visitor already typed into the server-rendered login form.
 */
export interface PortalBootstrap {
  locale: Locale;
  branding: { theme: Theme; tenantCode: string } | null;
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

let typed: { email: string; focused: boolean } | null = null;

/** Keeps what was typed into the server-rendered form before the script replaces it. */
export function keepFirstPaintInput(): void {
  const input = document.querySelector<HTMLInputElement>('[data-kc-first-paint] input[name="email"]');
  if (input && (input.value || document.activeElement === input)) {
    typed = { email: input.value, focused: document.activeElement === input };
  }
}

/** The address typed before the script ran, and whether its field had focus. */
export function firstPaintInput(): { email: string; focused: boolean } | null {
  return typed;
}

/** Used once, by the first e-mail step: later visits start from their own state. */
export function clearFirstPaintInput(): void {
  typed = null;
}
