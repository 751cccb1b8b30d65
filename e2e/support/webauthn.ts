import type { CDPSession, Page } from 'playwright-core';

/**
 * Chromium's virtual authenticator (DevTools protocol, `WebAuthn` domain): a passkey provider
 * or a security key the test holds, which answers the page's ceremonies as a person would
 * (presence and user verification given at once).
 */
export interface VirtualAuthenticator {
  cdp: CDPSession;
  id: string;
  credentials(): Promise<VirtualCredential[]>;
  addCredential(credential: VirtualCredential): Promise<void>;
  /** Off: the authenticator waits for a touch that never comes (a dialog left open). */
  presence(enabled: boolean): Promise<void>;
}

export interface VirtualCredential {
  credentialId: string;
  isResidentCredential: boolean;
  rpId: string;
  privateKey: string;
  userHandle?: string;
  signCount: number;
  backupEligibility?: boolean;
  backupState?: boolean;
}

/**
 * Adds an authenticator to the page: by default a platform passkey provider (internal
 * transport, resident keys, user verification); `usb` for a security key with a PIN.
 */
export async function addAuthenticator(
  page: Page,
  options: { transport?: 'internal' | 'usb'; synced?: boolean } = {},
): Promise<VirtualAuthenticator> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: options.transport ?? 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
      // A synced passkey (a password manager's) is backup eligible: amr swk, acr phr.
      ...(options.synced ? { defaultBackupEligibility: true, defaultBackupState: true } : {}),
    },
  });
  return {
    cdp,
    id: authenticatorId,
    credentials: async () =>
      (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials as VirtualCredential[],
    addCredential: async (credential) => {
      await cdp.send('WebAuthn.addCredential', { authenticatorId, credential });
    },
    presence: async (enabled) => {
      await cdp.send('WebAuthn.setAutomaticPresenceSimulation', { authenticatorId, enabled });
    },
  };
}

/** A browser without the autofill for passkeys (conditional UI): only the button is left. */
export async function withoutConditionalUi(page: Page): Promise<void> {
  await page.addInitScript(() => {
    if (window.PublicKeyCredential) {
      Object.defineProperty(PublicKeyCredential, 'isConditionalMediationAvailable', {
        value: () => Promise.resolve(false),
      });
    }
  });
}
