import {
  authorizeRequest,
  errorCodes,
  logoutRequest,
  type SessionResponse,
  toLocale,
} from '@keycard/contract';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../http/context.ts';
import { clearSessionCookie, sessionToken } from '../http/cookies.ts';
import { resolveRedirect } from '../http/redirects.ts';
import { assertSameOrigin } from '../http/security.ts';
import { requireTenant } from '../http/tenant.ts';
import { parseInput } from '../http/validate.ts';
import { finishInteraction } from '../oidc/interaction.service.ts';
import { AppError } from '../shared/errors.ts';
import { revokeSession } from './session.service.ts';
import { resolveSession } from './session-identity.ts';

export async function sessionRoutes(app: FastifyInstance, services: Services): Promise<void> {
  const { db, clock, config, providers } = services;

  app.get('/api/session', async (request, reply): Promise<SessionResponse> => {
    const tenant = requireTenant(request);
    reply.header('cache-control', 'no-store');
    const resolved = await resolveSession(db, tenant, sessionToken(request), clock.now());
    if (!resolved) return { exists: false };
    return {
      exists: true,
      provider: resolved.session.provider === 'authx' ? 'authx' : 'keycard',
      partnerCode: resolved.session.partner_code,
      identity: resolved.identity,
    };
  });

  /** Silent authorize: finish the app's pending sign-in, or go to a registered redirect. */
  app.post('/api/authorize', async (request, reply) => {
    assertSameOrigin(request);
    const tenant = requireTenant(request);
    const input = parseInput(authorizeRequest, request.body);
    const resolved = await resolveSession(db, tenant, sessionToken(request), clock.now());
    if (!resolved) throw new AppError(errorCodes.sessionRequired, 401, 'Sign in first.');
    if (!resolved.complete) {
      throw new AppError(errorCodes.sessionIncomplete, 403, 'Every sign-in step must be completed first.');
    }
    reply.header('cache-control', 'no-store');
    if (input.iid) {
      const { provider } = await providers.get(tenant);
      const amr = resolved.session.mfa_verified_at ? ['pwd', 'mfa'] : ['pwd'];
      const location = await finishInteraction(provider, input.iid, { accountId: resolved.user.id, amr });
      if (!location)
        throw new AppError(errorCodes.interactionNotFound, 404, 'This sign-in request has expired.');
      return { location };
    }
    const target = input.redirectUri
      ? resolveRedirect(tenant, request, input.redirectUri)
      : tenant.defaultRedirectUri;
    if (!target)
      throw new AppError(errorCodes.redirectNotAllowed, 400, 'This redirect address is not registered.');
    const url = new URL(target);
    if (input.userDeviceToken) url.searchParams.set('user-device-token', input.userDeviceToken);
    return { location: url.href };
  });

  app.post('/api/logout', async (request, reply) => {
    assertSameOrigin(request);
    const tenant = requireTenant(request);
    const input = parseInput(logoutRequest, request.body);
    const token = sessionToken(request) ?? input.token;
    if (token) await revokeSession(db, tenant.code, token);
    clearSessionCookie(reply, config);
    reply.header('cache-control', 'no-store');
    const target = resolveRedirect(tenant, request, input.redirectUri);
    if (target) return { location: target };
    const login = new URLSearchParams({ loggedOut: 'true' });
    const lang = toLocale(input.langCode);
    if (lang) login.set('langCode', lang);
    return { location: `/login?${login}` };
  });
}
