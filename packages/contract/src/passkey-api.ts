// API paths of passkeys (docs/passkeys.md), without zod so the portal imports them at no cost.
// The request and answer schemas are in passkeys.ts.

export const passkeyApi = {
  /** POST: options for a passkey sign-in (discoverable credentials, conditional UI or button). */
  signInOptions: '/api/passkeys/sign-in/options',
  /** POST: a passkey sign-in's assertion; answers the same single-use code as /api/login. */
  signIn: '/api/passkeys/sign-in',
  /** POST: options for creating a passkey on the signed-in account. */
  registrationOptions: '/api/passkeys/registration/options',
  /** POST: the new passkey's attestation. */
  register: '/api/passkeys/registration',
  /** POST: options to pass MFA (or a recent sign-in) with a passkey or security key. */
  verifyOptions: '/api/passkeys/verify/options',
  /** POST: the assertion that passes MFA for the session. */
  verify: '/api/passkeys/verify',
  /** GET: the signed-in account's passkeys. */
  list: '/api/passkeys',
  /** PATCH: rename; DELETE: remove one of the signed-in account's passkeys. */
  item: (id: string) => `/api/passkeys/${encodeURIComponent(id)}`,
} as const;
