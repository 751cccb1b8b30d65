/**
 * The console's sign-in: OpenID Connect authorization code with PKCE (S256) against the
 * operator tenant's issuer, as the public client `keycard-console` (docs/console.md). The
 * access token (opaque, ten minutes, for the admin API) lives in memory only; the verifier,
 * state and nonce live in sessionStorage only while the browser is at the provider. When the
 * token runs out the console signs in again, silently while the provider's session holds —
 * but not when a fresh token is refused: that account is not an operator, and signing in
 * again would only loop (and use up the address's failed-token allowance).
 */
export const consoleClientId = 'keycard-console';
export const consoleBase = '/console/';
export const callbackPath = '/console/callback';

/** Every key the console keeps in sessionStorage starts so; sign-out removes them all. */
const storagePrefix = 'keycard-console:';
const pendingKey = `${storagePrefix}sign-in`;
/** When this tab last completed a sign-in (epoch ms). */
const signedInAtKey = `${storagePrefix}signed-in-at`;
/** A token refused this soon after its sign-in, never accepted before, is refused for who holds it. */
const refusalWindowMs = 60_000;

interface Discovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  end_session_endpoint?: string;
}

interface Session {
  accessToken: string;
  idToken: string;
  /** Epoch ms; the token is renewed a little before. */
  expiresAt: number;
  /** The admin API has answered this token with a success. */
  accepted: boolean;
}

interface PendingSignIn {
  verifier: string;
  state: string;
  nonce: string;
  returnTo: string;
}

let discovery: Promise<Discovery> | null = null;
let session: Session | null = null;
let redirecting = false;
let leaving: Promise<never> | null = null;
let refused = false;
const refusalListeners = new Set<() => void>();

/** True once the console leaves for the provider itself (no "unsaved changes" prompt then). */
export function isRedirectingToSignIn(): boolean {
  return redirecting;
}

function issuer(): string {
  return `${window.location.origin}/oidc`;
}

function discover(): Promise<Discovery> {
  discovery ??= fetch(`${issuer()}/.well-known/openid-configuration`).then(async (response) => {
    if (!response.ok) throw new Error(`discovery answered ${response.status}`);
    return (await response.json()) as Discovery;
  });
  return discovery;
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function randomToken(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(32)));
}

/** Only a page of the console itself may be the way back (no open redirect through state). */
function safeReturn(path: string): string {
  return path.startsWith(consoleBase) && !path.startsWith('//') ? path : consoleBase;
}

/** The access token for the admin API, or null when there is none or it is about to expire. */
export function accessToken(): string | null {
  if (!session || Date.now() >= session.expiresAt - 15_000) return null;
  return session.accessToken;
}

/** The admin API took the token: a later 401 means the token ended, not the operator's access. */
export function markTokenAccepted(): void {
  if (session) session.accepted = true;
}

/**
 * Whether a 401 is the account's refusal rather than a token's end: the sign-in that made this
 * token completed moments ago and the API has never taken it. Signing in again would bring a
 * new token at once and the same refusal, endlessly.
 */
export function isFreshTokenRefused(): boolean {
  if (!session || session.accepted) return false;
  const signedInAt = Number(sessionStorage.getItem(signedInAtKey));
  return Number.isFinite(signedInAt) && Date.now() - signedInAt < refusalWindowMs;
}

/** The console stops and says the account may not use it (main.tsx shows that screen). */
export function refuseAccess(): void {
  if (refused) return;
  refused = true;
  for (const listener of refusalListeners) listener();
}

export function isAccessRefused(): boolean {
  return refused;
}

export function onAccessRefused(listener: () => void): () => void {
  refusalListeners.add(listener);
  return () => {
    refusalListeners.delete(listener);
  };
}

/**
 * Goes to the provider to sign in, and back to `returnTo` afterwards. Never settles: the page
 * is left. Unsaved work must already be in sessionStorage (the theme draft always is). Calls
 * that fail together (every 401 of a page) share one departure.
 */
export function signIn(returnTo = window.location.pathname + window.location.search): Promise<never> {
  leaving ??= goToProvider(returnTo).catch((error: unknown) => {
    leaving = null;
    throw error;
  });
  return leaving;
}

async function goToProvider(returnTo: string): Promise<never> {
  const config = await discover();
  const pending: PendingSignIn = {
    verifier: randomToken(),
    state: randomToken(),
    nonce: randomToken(),
    returnTo: safeReturn(returnTo),
  };
  sessionStorage.setItem(pendingKey, JSON.stringify(pending));
  const challenge = base64url(
    new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(pending.verifier))),
  );
  const url = new URL(config.authorization_endpoint);
  url.search = new URLSearchParams({
    client_id: consoleClientId,
    response_type: 'code',
    redirect_uri: `${window.location.origin}${callbackPath}`,
    scope: 'openid admin',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: pending.state,
    nonce: pending.nonce,
  }).toString();
  redirecting = true;
  window.location.assign(url.href);
  return new Promise<never>(() => {});
}

export class SignInError extends Error {}

function decodeClaims(jwt: string): Record<string, unknown> {
  const payload = jwt.split('.')[1] ?? '';
  const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
  return JSON.parse(new TextDecoder().decode(Uint8Array.from(json, (c) => c.charCodeAt(0)))) as Record<
    string,
    unknown
  >;
}

/**
 * Finishes a sign-in at the callback: the state must be the one this tab sent (OAuth 2.0
 * Security BCP §4.7), the code is redeemed with the verifier, and the ID token's nonce,
 * issuer and audience checked. The ID token comes straight from the token endpoint of this
 * origin, so its signature needs no check of its own (OIDC Core §3.1.3.7). Answers the
 * console page to go back to.
 */
export async function completeSignIn(callback: URL): Promise<string> {
  const stored = sessionStorage.getItem(pendingKey);
  sessionStorage.removeItem(pendingKey);
  const pending = stored ? (JSON.parse(stored) as PendingSignIn) : null;
  const state = callback.searchParams.get('state');
  if (!pending || !state || state !== pending.state) throw new SignInError('state');
  const error = callback.searchParams.get('error');
  if (error) throw new SignInError(error);
  const code = callback.searchParams.get('code');
  if (!code) throw new SignInError('code');
  const config = await discover();
  const response = await fetch(config.token_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: `${window.location.origin}${callbackPath}`,
      client_id: consoleClientId,
      code_verifier: pending.verifier,
    }),
  });
  if (!response.ok) throw new SignInError('token');
  const tokens = (await response.json()) as { access_token?: string; id_token?: string; expires_in?: number };
  if (!tokens.access_token || !tokens.id_token) throw new SignInError('token');
  const claims = decodeClaims(tokens.id_token);
  const audience = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (
    claims.nonce !== pending.nonce ||
    claims.iss !== config.issuer ||
    !audience.includes(consoleClientId) ||
    typeof claims.exp !== 'number' ||
    claims.exp * 1000 < Date.now()
  )
    throw new SignInError('id_token');
  session = {
    accessToken: tokens.access_token,
    idToken: tokens.id_token,
    expiresAt: Date.now() + (tokens.expires_in ?? 600) * 1000,
    accepted: false,
  };
  sessionStorage.setItem(signedInAtKey, String(Date.now()));
  return pending.returnTo;
}

/** Removes everything the console keeps in this tab: the next operator here must not find it. */
function clearConsoleStorage(): void {
  const keys = Array.from({ length: sessionStorage.length }, (_, index) => sessionStorage.key(index));
  for (const key of keys) if (key?.startsWith(storagePrefix)) sessionStorage.removeItem(key);
}

/**
 * RP-initiated logout: the provider ends its session and sends the browser back to the console.
 * Unpublished drafts go too, so whoever signs in next in this tab never gets them.
 */
/** The `state` the provider hands back after a sign-out (main.tsx shows "You have signed out"). */
export const signedOutState = 'signed-out';

export async function signOut(): Promise<void> {
  const config = await discover();
  const idToken = session?.idToken;
  session = null;
  clearConsoleStorage();
  if (!config.end_session_endpoint) {
    window.location.assign(consoleBase);
    return;
  }
  const url = new URL(config.end_session_endpoint);
  url.search = new URLSearchParams({
    client_id: consoleClientId,
    post_logout_redirect_uri: `${window.location.origin}${consoleBase}`,
    // Comes back as ?state=signed-out: the console says so instead of signing in again.
    state: signedOutState,
    ...(idToken ? { id_token_hint: idToken } : {}),
  }).toString();
  window.location.assign(url.href);
}
