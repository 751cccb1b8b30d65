import { storageKeys } from '@keycard/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../platform/config.ts';
import { knownBrowserLifetimeMs } from './known-browser.ts';
import { sessionLifetimeMs } from './session.service.ts';

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

/** SPEC §9: the device id cookie lives 365 days; whether the device is still trusted the server decides. */
export const deviceIdCookieLifetimeMs = 365 * 24 * 60 * 60 * 1000;

/**
 * AUTH_X_DEVICE_ID, the trusted-device token, set when the user trusts this browser
 * (POST /api/mfa/user-device-tokens). HttpOnly: no page script can read it, so an injected
 * script cannot carry the browser's trust elsewhere.
 */
export function setDeviceIdCookie(reply: FastifyReply, config: Config, token: string): void {
  reply.setCookie(storageKeys.deviceId, token, {
    ...cookieOptions(config),
    maxAge: Math.floor(deviceIdCookieLifetimeMs / 1000),
  });
}

/**
 * The device token of a request: the cookie first; else the body field SPEC §7 names
 * (userDeviceToken), which portals from before the cookie still send.
 */
export function deviceToken(request: FastifyRequest, fromBody?: string | undefined): string | undefined {
  const cookie = request.cookies[storageKeys.deviceId];
  // The same bound as the body field: a longer value is no token of ours.
  return (cookie && cookie.length <= 256 ? cookie : undefined) || fromBody;
}
