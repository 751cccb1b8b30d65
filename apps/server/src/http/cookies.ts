import { storageKeys } from '@keycard/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { knownBrowserLifetimeMs } from '../sessions/known-browser.ts';
import { sessionLifetimeMs } from '../sessions/session.service.ts';

/** Invariant 3: the session cookie is HttpOnly, SameSite=Lax, Secure over HTTPS, host-only. */
export function setSessionCookie(reply: FastifyReply, config: Config, token: string): void {
  reply.setCookie(storageKeys.sessionCookie, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: config.publicScheme === 'https',
    path: '/',
    maxAge: Math.floor(sessionLifetimeMs / 1000),
  });
}

export function clearSessionCookie(reply: FastifyReply, config: Config): void {
  reply.clearCookie(storageKeys.sessionCookie, {
    httpOnly: true,
    sameSite: 'lax',
    secure: config.publicScheme === 'https',
    path: '/',
  });
}

export function sessionToken(request: FastifyRequest): string | undefined {
  return request.cookies[storageKeys.sessionCookie];
}

/** The known-browser token (sessions/known-browser.ts): HttpOnly, a year, this host only. */
export function setKnownBrowserCookie(reply: FastifyReply, config: Config, token: string): void {
  reply.setCookie(storageKeys.knownBrowserCookie, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: config.publicScheme === 'https',
    path: '/',
    maxAge: Math.floor(knownBrowserLifetimeMs / 1000),
  });
}

export function knownBrowserToken(request: FastifyRequest): string | undefined {
  return request.cookies[storageKeys.knownBrowserCookie];
}
