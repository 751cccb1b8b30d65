import { passkeyCeremonyCookie } from '@keycard/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../platform/config.ts';
import { createToken } from '../../platform/shared/crypto.ts';

/** The ceremony cookie lasts an hour from the last options asked (a challenge, five minutes). */
const ceremonyCookieMaxAgeS = 60 * 60;

/**
 * The browser's passkey ceremony token: the HttpOnly cookie every challenge is bound to
 * (passkey.repository.ts), so a challenge given to one browser is worth nothing in another.
 * Host-only, SameSite=Strict, only sent to /api/passkeys, Secure over https. Options calls
 * make one when the browser has none and keep it otherwise, so the button and the autofill
 * may hold a ceremony each.
 */
export function ceremonyToken(request: FastifyRequest): string | undefined {
  const value = request.cookies[passkeyCeremonyCookie];
  return value && value.length >= 32 && value.length <= 128 ? value : undefined;
}

export function ensureCeremonyToken(request: FastifyRequest, reply: FastifyReply, config: Config): string {
  const token = ceremonyToken(request) ?? createToken();
  reply.setCookie(passkeyCeremonyCookie, token, {
    httpOnly: true,
    sameSite: 'strict',
    secure: config.publicScheme === 'https',
    path: '/api/passkeys',
    maxAge: ceremonyCookieMaxAgeS,
  });
  return token;
}
