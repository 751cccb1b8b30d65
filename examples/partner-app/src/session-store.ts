import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { JWTPayload } from 'jose';

/** A user back from the hotel portal, signed in to this app. */
export interface PartnerSession {
  tenant: string;
  claims: JWTPayload;
}

export interface SessionStore {
  put(id: string, session: PartnerSession): void;
  get(id: string): PartnerSession | undefined;
  remove(id: string): void;
}

/** In-memory sessions that expire, so a demo left running does not pile them up. */
export function createSessionStore(ttlMs: number): SessionStore {
  const entries = new Map<string, { session: PartnerSession; expiresAt: number }>();
  return {
    put(id, session) {
      const now = Date.now();
      for (const [key, entry] of entries) if (entry.expiresAt <= now) entries.delete(key);
      entries.set(id, { session, expiresAt: now + ttlMs });
    },
    get(id) {
      const entry = entries.get(id);
      if (entry && entry.expiresAt > Date.now()) return entry.session;
      entries.delete(id);
      return undefined;
    },
    remove(id) {
      entries.delete(id);
    },
  };
}

// Cookies ignore ports: a name of its own keeps it apart from the demo app's on localhost:3001.
export const sessionCookieName = 'partner_session';

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
