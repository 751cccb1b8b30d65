import { storageKeys } from '@keycard/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { knownBrowserLifetimeMs } from '../sessions/known-browser.ts';
import { sessionLifetimeMs } from '../sessions/session.service.ts';

/**
 * Invariant 3: Keycard's cookies are HttpOnly, SameSite=Lax, Secure whenever the public URLs
 * are https, and host-only (no Domain), so one tenant's login domain never sees another's.
 */
function cookieOptions(config: Config) {
  return { httpOnly: true, sameSite: 'lax', secure: config.publicScheme === 'https', path: '/' } as const;
}

export function setSessionCookie(reply: FastifyReply, config: Config, token: string): void {
  reply.setCookie(storageKeys.sessionCookie, token, {
    ...cookieOptions(config),
    maxAge: Math.floor(sessionLifetimeMs / 1000),
  });
}

export function clearSessionCookie(reply: FastifyReply, config: Config): void {
  reply.clearCookie(storageKeys.sessionCookie, cookieOptions(config));
}

export function sessionToken(request: FastifyRequest): string | undefined {
  return request.cookies[storageKeys.sessionCookie];
}

/** The known-browser token (sessions/known-browser.ts), kept a year. */
export function setKnownBrowserCookie(reply: FastifyReply, config: Config, token: string): void {
  reply.setCookie(storageKeys.knownBrowserCookie, token, {
    ...cookieOptions(config),
    maxAge: Math.floor(knownBrowserLifetimeMs / 1000),
  });
}

export function knownBrowserToken(request: FastifyRequest): string | undefined {
  return request.cookies[storageKeys.knownBrowserCookie];
}
