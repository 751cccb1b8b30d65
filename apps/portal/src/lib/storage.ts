import { storageKeys } from '@keycard/contract/user-state';

// Flow values (the pending interaction, the redirect) live per tab; the remembered e-mail
// and the trusted-device id outlive the tab.
function safe<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch {
    return fallback;
  }
}

export const flowStorage = {
  get: (key: string) => safe(() => sessionStorage.getItem(key), null),
  set: (key: string, value: string) => safe(() => sessionStorage.setItem(key, value), undefined),
  remove: (key: string) => safe(() => sessionStorage.removeItem(key), undefined),
};

export const lastUser = {
  get: () => safe(() => localStorage.getItem(storageKeys.lastUser), null),
  set: (email: string) => safe(() => localStorage.setItem(storageKeys.lastUser, email), undefined),
  clear: () => safe(() => localStorage.removeItem(storageKeys.lastUser), undefined),
};

export const loginStateKey = 'AUTH_X_STATE';

export function randomState(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return btoa(String.fromCharCode(...bytes)).replace(/[+/=]/g, (c) =>
    c === '+' ? '-' : c === '/' ? '_' : '',
  );
}

/**
 * SPEC §3 session store 'partner identity token': what POST /api/partners/{code}/sso answered,
 * kept per tab for /authenticated's generate-token call (SPEC §4 step 4). It is bound to the
 * session cookie on the server, so on its own it opens nothing.
 */
export const partnerIdentityKey = 'AUTH_X_PARTNER_IDENTITY';

export interface PartnerIdentity {
  token: string;
  tenantCode: string;
}

export const partnerIdentity = {
  get: (): PartnerIdentity | null =>
    safe(() => {
      const stored = JSON.parse(sessionStorage.getItem(partnerIdentityKey) ?? 'null') as unknown;
      const value = stored as Partial<PartnerIdentity> | null;
      return typeof value?.token === 'string' && typeof value.tenantCode === 'string'
        ? { token: value.token, tenantCode: value.tenantCode }
        : null;
    }, null),
  set: (identity: PartnerIdentity) =>
    safe(() => sessionStorage.setItem(partnerIdentityKey, JSON.stringify(identity)), undefined),
  clear: () => safe(() => sessionStorage.removeItem(partnerIdentityKey), undefined),
};

/**
 * What the password step hands the account-disabled page (history state, so a reload keeps
 * it) when the account's lockout refused the sign-in: when the lock ends.
 */
export interface AccountDisabledState {
  lockedUntil?: number;
  /** The address typed, for the reset link. */
  email?: string;
}
