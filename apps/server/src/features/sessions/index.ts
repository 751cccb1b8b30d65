/** The sessions feature's public face: what other features and the surfaces may use. */
export {
  clearSessionCookie,
  deviceToken,
  knownBrowserToken,
  sessionToken,
  setDeviceIdCookie,
  setKnownBrowserCookie,
  setSessionCookie,
} from './cookies.ts';
export { findKnownBrowserId, rememberBrowser } from './known-browser.ts';
export type { MfaMethod, SessionRow } from './session.service.ts';
export { createSession, hasRecentMfa, recordMfaPassed, revokeSession } from './session.service.ts';
export { endUserAccess } from './user-access.ts';
