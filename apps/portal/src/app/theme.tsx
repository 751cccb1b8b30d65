import type { LoginDomainResponse, Theme } from '@keycard/contract/api';
import { apiPaths } from '@keycard/contract/api-paths';
import { themeVariables } from '@keycard/contract/contrast';
import { apiRequest } from '../lib/api.ts';
import type { Branding } from '../lib/branding.tsx';

export async function loadBranding(hostname: string): Promise<Branding> {
  const answer = await apiRequest<LoginDomainResponse>('GET', apiPaths.loginDomain(hostname));
  return { theme: answer.theme, tenantCode: answer.tenant.code };
}

/**
 * Applies the tenant's colours (CSS variables: the SPEC six, and what the portal draws with
 * them, each passing WCAG AA; SPEC §9 defaults stand until then) and favicon.
 */
export function applyBranding(theme: Theme): void {
  const root = document.documentElement;
  for (const [variable, value] of Object.entries(themeVariables(theme.colours))) {
    root.style.setProperty(variable, value);
  }
  let icon = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (!icon) {
    icon = document.createElement('link');
    icon.rel = 'icon';
    document.head.append(icon);
  }
  icon.href = theme.images.favicon;
}
