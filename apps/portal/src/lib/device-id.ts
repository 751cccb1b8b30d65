import { storageKeys } from '@keycard/contract/user-state';

/**
 * AUTH_X_DEVICE_ID, the trusted-device token, is a cookie (SPEC §9: 365 days): HttpOnly, so no
 * page script can read or leak it, set by the server when the user trusts this device and
 * read by the server at sign-in. The portal no longer keeps it.
 *
 * Browsers that trusted a device before kept the token in localStorage. That value is still
 * sent (the body field SPEC §7 names, which the server accepts when it has no cookie) until
 * the next sign-in moves it into the cookie; then it is forgotten here.
 */
function legacyDeviceId(): string | undefined {
  try {
    return localStorage.getItem(storageKeys.deviceId) ?? undefined;
  } catch {
    return undefined;
  }
}

/** After a sign-in the server holds the device token as a cookie: drop the old copy. */
export function forgetLegacyDeviceId(): void {
  try {
    localStorage.removeItem(storageKeys.deviceId);
    localStorage.removeItem(`${storageKeys.deviceId}_EXPIRES`);
  } catch {
    // Storage unavailable: nothing was kept.
  }
}

/** The legacy device token as a request field, or nothing (the usual case: the cookie goes by itself). */
export function deviceTokenField(): { userDeviceToken?: string } {
  const token = legacyDeviceId();
  return token ? { userDeviceToken: token } : {};
}
