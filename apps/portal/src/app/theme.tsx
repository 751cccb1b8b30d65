import type { LoginDomainResponse, Theme } from '@keycard/contract/api';
import { signInApi } from '@keycard/contract/sign-in-api';
import { themeCssVariables, themeRootAttributes } from '@keycard/contract/theme-style';
import { apiRequest } from '../lib/api.ts';
import type { Branding } from '../lib/branding.tsx';

export async function loadBranding(hostname: string): Promise<Branding> {
  const answer = await apiRequest<LoginDomainResponse>('GET', signInApi.loginDomain(hostname));
  return { theme: answer.theme, tenantCode: answer.tenant.code, passkeys: answer.tenant.passkeys };
}

/** The variables a theme may set: one theme's are cleared before the next is applied (preview). */
const applied = new Set<string>();

/**
 * Applies the tenant's look: CSS variables (the SPEC six colours and what the portal draws with
 * them, each passing WCAG AA; font, corners, logo height, background; the dark scheme's colours
 * as --kc-dark-*), the <html> attributes that switch on the dark scheme and background rules of
 * app.css, and the favicon. The server's first paint sets the same (first-paint.ts); SPEC §9
 * defaults stand until then.
 */
export function applyBranding(theme: Theme): void {
  const root = document.documentElement;
  const variables = themeCssVariables(theme);
  for (const variable of applied) {
    if (!(variable in variables)) root.style.removeProperty(variable);
  }
  applied.clear();
  for (const [variable, value] of Object.entries(variables)) {
    root.style.setProperty(variable, value);
    applied.add(variable);
  }
  for (const [attribute, on] of Object.entries(themeRootAttributes(theme))) {
    root.toggleAttribute(attribute, on);
  }
  let icon = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (!icon) {
    icon = document.createElement('link');
    icon.rel = 'icon';
    document.head.append(icon);
  }
  icon.href = theme.images.favicon;
}
