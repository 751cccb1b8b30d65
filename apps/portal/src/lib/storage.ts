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
