/**
 * Who the server found signed in when it rendered the login page (its `kc-signed-in` data
 * block, apps/server/src/surfaces/web/portal.ts): the e-mail step says so, with a way on and a
 * way out. Read once; a log-out in this page forgets it.
 */
let email: string | null | undefined;

export function signedInEmail(): string | null {
  if (email === undefined) {
    email = null;
    const text = document.getElementById('kc-signed-in')?.textContent;
    try {
      const value = text ? (JSON.parse(text) as { email?: unknown }).email : undefined;
      if (typeof value === 'string' && value) email = value;
    } catch {
      // A block that is not JSON says nothing.
    }
  }
  return email;
}

/** The session the page was rendered with has ended (the log-out page). */
export function forgetSignedIn(): void {
  email = null;
}
