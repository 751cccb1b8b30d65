import { storageKeys } from '@keycard/contract/user-state';

/** SPEC §9: the device id (userDeviceToken) is kept 365 days. */
const keepMs = 365 * 24 * 60 * 60 * 1000;
const expiresKey = `${storageKeys.deviceId}_EXPIRES`;

function safe<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch {
    return fallback;
  }
}

/**
 * AUTH_X_DEVICE_ID: the trusted-device token, in localStorage for 365 days. The server decides
 * whether it still counts (its trusted period is shorter); past 365 days it is dropped here.
 */
export const deviceId = {
  get(): string | undefined {
    return safe(() => {
      const value = localStorage.getItem(storageKeys.deviceId);
      const expires = Number(localStorage.getItem(expiresKey) ?? Number.POSITIVE_INFINITY);
      if (value && Date.now() >= expires) {
        localStorage.removeItem(storageKeys.deviceId);
        localStorage.removeItem(expiresKey);
        return undefined;
      }
      return value ?? undefined;
    }, undefined);
  },
  set(token: string): void {
    safe(() => {
      localStorage.setItem(storageKeys.deviceId, token);
      localStorage.setItem(expiresKey, String(Date.now() + keepMs));
    }, undefined);
  },
};

/**
 * The device token as a request field, or nothing without one. Sent with every password login
 * (the owner's trusted browser is counted apart, so guesses elsewhere cannot lock it out), and
 * with the code exchange and the hand-off (SPEC §4).
 */
export function deviceTokenField(): { userDeviceToken?: string } {
  const token = deviceId.get();
  return token ? { userDeviceToken: token } : {};
}
