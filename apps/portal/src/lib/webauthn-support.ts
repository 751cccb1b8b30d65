/**
 * Whether this browser has WebAuthn (webauthn.ts re-exports it): the browser's own API, no
 * library, so the login route can ask before it loads any ceremony code. The finer checks
 * (autofill, a platform authenticator) are in webauthn.ts: only the ceremonies' callers ask them.
 */

/** The browser has WebAuthn at all (a secure context with PublicKeyCredential). */
export function isWebAuthnAvailable(): boolean {
  return (
    typeof window !== 'undefined' &&
    window.isSecureContext &&
    typeof window.PublicKeyCredential === 'function' &&
    typeof navigator.credentials?.get === 'function'
  );
}
