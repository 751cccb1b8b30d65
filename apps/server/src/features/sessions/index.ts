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
export { countKnownBrowsers, findKnownBrowserId, rememberBrowser } from './known-browser.ts';
export type { MfaMethod, SessionRow } from './session.service.ts';
export {
  createSession,
  endSession,
  hasRecentMfa,
  recordMfaPassed,
  revokeSession,
} from './session.service.ts';
export {
  findSessionByRef,
  forgetSessionUse,
  listSessions,
  noteSessionUse,
  sessionRef,
  sessionSignInMethod,
  sessionTouchIntervalMs,
} from './session-details.ts';
export { appModels, clientIdOf, endOtherAccess, endUserAccess, revokeAppAccess } from './user-access.ts';
export { browserSummary } from './user-agent.ts';
