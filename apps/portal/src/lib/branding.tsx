import type { Theme } from '@keycard/contract/api';
import type { PasskeyMode } from '@keycard/contract/passkeys';
import { createContext, type ReactNode, useContext } from 'react';

/** The tenant's theme and code, for every screen (set once at start, app/theme.tsx loads it). */
export interface Branding {
  theme: Theme;
  tenantCode: string;
  /**
   * The tenant's passkey setting (docs/passkeys.md); absent where the page's bootstrap does not
   * carry it (the login then asks the login-domain answer).
   */
  passkeys?: PasskeyMode;
}

const BrandingContext = createContext<Branding | null>(null);

export function BrandingProvider({ branding, children }: { branding: Branding | null; children: ReactNode }) {
  return <BrandingContext.Provider value={branding}>{children}</BrandingContext.Provider>;
}

export function useBranding(): Branding | null {
  return useContext(BrandingContext);
}
