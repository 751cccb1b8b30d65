// API paths of the account page (docs/account.md), without zod so the portal imports them at
// no cost. The request and answer schemas are in account.ts.

export const accountApi = {
  /** GET: what the account page shows first: the account, its sign-in methods, the recent-sign-in window. */
  overview: '/api/account',
  /** POST: change the password (current password, policy, history). */
  password: '/api/account/password',
  /** POST: prove a recent sign-in again with the password (a passkey uses the passkeys verify call). */
  reauthenticate: '/api/account/reauthenticate',
  /** GET: sessions and apps; DELETE: sign out everywhere else. */
  sessions: '/api/account/sessions',
  /** DELETE: end one session. */
  session: (id: string) => `/api/account/sessions/${encodeURIComponent(id)}`,
  /** DELETE: sign out of one app (its grants and tokens). */
  app: (clientId: string) => `/api/account/apps/${encodeURIComponent(clientId)}`,
  /** GET: trusted browsers; DELETE: forget them all. */
  trustedBrowsers: '/api/account/trusted-browsers',
  /** DELETE: forget one trusted browser. */
  trustedBrowser: (id: string) => `/api/account/trusted-browsers/${encodeURIComponent(id)}`,
  /** GET: the last 30 days of sign-ins and security changes. */
  activity: '/api/account/activity',
  /** DELETE: remove one MFA factor (as the tenant's policy allows). */
  factor: (id: string) => `/api/account/factors/${encodeURIComponent(id)}`,
} as const;
