import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { IDToken } from 'openid-client';

export interface PendingLogin {
  tenant: string;
  codeVerifier: string;
  nonce: string;
}

export interface DemoSession {
  tenant: string;
  idToken: string;
  claims: IDToken;
}

export interface ExpiringStore<V> {
  put(key: string, value: V): void;
  get(key: string): V | undefined;
  /** Returns the value and removes it, so it can be used only once. */
  take(key: string): V | undefined;
  remove(key: string): void;
}

/** An in-memory map whose entries expire, so abandoned logins and sessions do not pile up. */
export function createExpiringStore<V>(ttlMs: number): ExpiringStore<V> {
  const entries = new Map<string, { value: V; expiresAt: number }>();

  function removeExpired(now: number): void {
    for (const [key, entry] of entries) if (entry.expiresAt <= now) entries.delete(key);
  }

  function get(key: string): V | undefined {
    const entry = entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt > Date.now()) return entry.value;
    entries.delete(key);
    return undefined;
  }

  return {
    put(key, value) {
      const now = Date.now();
      removeExpired(now);
      entries.set(key, { value, expiresAt: now + ttlMs });
    },
    get,
    take(key) {
      const value = get(key);
      entries.delete(key);
      return value;
    },
    remove(key) {
      entries.delete(key);
    },
  };
}

export const sessionCookieName = 'demo_session';

export function createSessionId(): string {
  return randomBytes(32).toString('base64url');
}

export function readSessionId(request: IncomingMessage): string | undefined {
  for (const pair of (request.headers.cookie ?? '').split(';')) {
    const separator = pair.indexOf('=');
    if (separator === -1) continue;
    if (pair.slice(0, separator).trim() === sessionCookieName) return pair.slice(separator + 1).trim();
  }
  return undefined;
}

export function buildSessionCookie(sessionId: string, secure: boolean): string {
  return `${sessionCookieName}=${sessionId}; Path=/; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

export function buildClearedSessionCookie(secure: boolean): string {
  return `${sessionCookieName}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure ? '; Secure' : ''}`;
}
