import type { PasskeyMode } from '@keycard/contract/passkeys';

/** How long "Not now" (or an offer once shown) keeps this browser from being asked again. */
export const offerQuietDays = 30;
const dayMs = 24 * 60 * 60 * 1000;

/** Per tenant, per browser: when the offer was last shown here (epoch ms). */
const storageKey = (tenantCode: string) => `AUTH_X_PASSKEY_OFFER:${tenantCode}`;

export const offerMemory = {
  shownAt(tenantCode: string): number | null {
    try {
      const value = Number(localStorage.getItem(storageKey(tenantCode)));
      return Number.isFinite(value) && value > 0 ? value : null;
    } catch {
      return null;
    }
  },
  remember(tenantCode: string, now: number): void {
    try {
      localStorage.setItem(storageKey(tenantCode), String(now));
    } catch {
      // Storage refused (private mode): the offer may come again; nothing else changes.
    }
  },
};

/** What the hand-off knows when it decides whether to offer a passkey. */
export interface OfferFacts {
  mode: PasskeyMode | undefined;
  /** This tab just signed in with a password (and its factor). */
  passwordSignIn: boolean;
  /** The device can make a passkey (a user-verifying platform authenticator). */
  webAuthn: boolean;
  /** The session's first proof: a partner's sign-in or a passkey is never asked. */
  provider: 'keycard' | 'authx' | 'passkey';
  /** When the offer was last shown in this browser for this tenant. */
  shownAt: number | null;
  now: number;
}

/**
 * The offer after a password sign-in (docs/passkeys.md): only where the tenant offers passkeys
 * and the browser can make one; 'offered' once, then not for 30 days in this browser;
 * 'preferred' after every password sign-in until the account has a passkey here (the caller
 * asks that last, as it costs a request).
 */
export function mayOffer(facts: OfferFacts): boolean {
  if (!facts.passwordSignIn || !facts.webAuthn || facts.provider !== 'keycard') return false;
  if (facts.mode === 'preferred') return true;
  if (facts.mode !== 'offered') return false;
  return facts.shownAt === null || facts.now - facts.shownAt >= offerQuietDays * dayMs;
}
