import type { LoginDomainResponse, Theme } from '@keycard/contract/api';
import { apiPaths } from '@keycard/contract/api-paths';
import { createContext, type ReactNode, useContext } from 'react';
import { apiRequest } from '../lib/api.ts';

export interface Branding {
  theme: Theme;
  tenantCode: string;
}

const BrandingContext = createContext<Branding | null>(null);

export function BrandingProvider({ branding, children }: { branding: Branding | null; children: ReactNode }) {
  return <BrandingContext.Provider value={branding}>{children}</BrandingContext.Provider>;
}

export function useBranding(): Branding | null {
  return useContext(BrandingContext);
}

export async function loadBranding(hostname: string): Promise<Branding> {
  const answer = await apiRequest<LoginDomainResponse>('GET', apiPaths.loginDomain(hostname));
  return { theme: answer.theme, tenantCode: answer.tenant.code };
}

const colourVariables: Record<keyof Theme['colours'], string> = {
  primaryBackground: '--kc-primary-bg',
  primaryForeground: '--kc-primary-fg',
  secondaryBackground: '--kc-secondary-bg',
  secondaryForeground: '--kc-secondary-fg',
  tertiaryBackground: '--kc-tertiary-bg',
  tertiaryForeground: '--kc-tertiary-fg',
};

/** Applies the tenant's colours (CSS variables; SPEC §9 defaults stand until then) and favicon. */
export function applyBranding(theme: Theme): void {
  const root = document.documentElement;
  for (const [key, variable] of Object.entries(colourVariables)) {
    root.style.setProperty(variable, theme.colours[key as keyof Theme['colours']]);
  }
  let icon = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (!icon) {
    icon = document.createElement('link');
    icon.rel = 'icon';
    document.head.append(icon);
  }
  icon.href = theme.images.favicon;
}
