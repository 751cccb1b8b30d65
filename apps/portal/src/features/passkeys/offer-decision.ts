import type { Branding } from '../../lib/branding.tsx';
import { passkeyModeOf } from '../../lib/passkey-mode.ts';
import { passwordSignIn } from '../../lib/passkey-offer.ts';
import { isPlatformAuthenticatorAvailable } from '../../lib/webauthn.ts';
import { passkeysApi } from './api.ts';
import { mayOffer, offerMemory } from './offer-rule.ts';

/**
 * Whether the hand-off shows the passkey offer now (offer-rule.ts), and when it does, that it
 * was shown (this browser is not asked again for 30 days, unless the tenant prefers
 * passkeys). The password sign-in's mark is used up either way. An account that already has
 * a passkey for this domain is not asked; when that cannot be read, neither. Only a device that
 * can keep a passkey itself (fingerprint, face, screen lock) is asked, as the offer promises.
 */
export async function offerPasskeyNow(
  branding: Branding | null,
  provider: 'keycard' | 'authx' | 'passkey',
): Promise<boolean> {
  const passwordUsed = passwordSignIn.take();
  if (!branding || !passwordUsed) return false;
  const now = Date.now();
  const may = mayOffer({
    mode: await passkeyModeOf(branding),
    passwordSignIn: passwordUsed,
    webAuthn: await isPlatformAuthenticatorAvailable(),
    provider,
    shownAt: offerMemory.shownAt(branding.tenantCode),
    now,
  });
  if (!may) return false;
  try {
    const { passkeys } = await passkeysApi.list();
    if (passkeys.some((passkey) => passkey.usableHere)) return false;
  } catch {
    return false;
  }
  offerMemory.remember(branding.tenantCode, now);
  return true;
}
