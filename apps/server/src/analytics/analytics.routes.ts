import { analyticsEventRequest, errorCodes } from '@keycard/contract';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../http/context.ts';
import { sessionToken } from '../http/cookies.ts';
import { assertSameOrigin } from '../http/security.ts';
import { requireTenant } from '../http/tenant.ts';
import { parseInput } from '../http/validate.ts';
import { resolveSession } from '../sessions/session-identity.ts';
import { AppError } from '../shared/errors.ts';
import { recordAnalyticsEvent } from './analytics.service.ts';

/** Events per client address and tenant per minute: a page sends a handful. */
export const analyticsEventsPerMinute = 60;

/** SPEC §1 analytics: the portal reports MFA events; stored per tenant, forwarded when configured. */
export async function analyticsRoutes(app: FastifyInstance, services: Services): Promise<void> {
  const { db, clock, limiter } = services;

  app.post('/api/analytics/events', async (request, reply) => {
    assertSameOrigin(request);
    const tenant = requireTenant(request);
    const now = clock.now();
    const rate = await limiter.hit(
      `analytics:${tenant.code}:${request.ip}`,
      analyticsEventsPerMinute,
      60_000,
      now,
    );
    if (!rate.allowed) throw new AppError(errorCodes.rateLimited, 429, 'Too many events.');
    const input = parseInput(analyticsEventRequest, request.body);
    // The session, when there is one, says who the user is; the page's word is only a fallback.
    const resolved = await resolveSession(db, tenant, sessionToken(request), now);
    await recordAnalyticsEvent(
      { db, provider: services.analytics },
      tenant,
      {
        event: input.event,
        userType: resolved?.identity.type ?? input.properties.userType ?? null,
        userId: resolved?.user.id ?? null,
        deliveryType: input.properties.deliveryType,
      },
      now,
    );
    return reply.status(202).send({ accepted: true });
  });
}
