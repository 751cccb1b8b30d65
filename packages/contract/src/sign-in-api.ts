// API paths of the sign-in itself (SPEC §7): what the login route calls, in a module of its own
// so the portal's entry carries these and not every flow's (api-paths.ts composes them all).

export const signInApi = {
  loginDomain: (domain: string) => `/api/login-domains/${encodeURIComponent(domain)}`,
  login: '/api/login',
  authenticate: '/api/authenticate',
  session: '/api/session',
  authorize: '/api/authorize',
  /** GET: the app this browser's pending sign-in is for (its name), by the interaction cookie. */
  authorizeInteraction: '/api/authorize/interaction',
  /** POST: go back to the app without signing in (`error=access_denied`, OIDC Core §3.1.2.6). */
  authorizeAbort: '/api/authorize/abort',
  logout: '/api/logout',
  analyticsEvents: '/api/analytics/events',
  /** GET: the tenant's messenger widget configuration (SPEC §3). */
  messenger: '/api/messenger',
} as const;
