import { acceptedResponse, analyticsEventRequest, apiPaths, errorCodes } from '@keycard/contract';
import type { FastifyInstance } from 'fastify';
import { recordAnalyticsEvent } from '../../features/analytics/analytics.service.ts';
import { sessionToken } from '../../features/sessions/cookies.ts';
import { loadSignIn } from '../../features/sign-in/sign-in-state.ts';
import { answers } from '../../platform/http/contract.ts';
import { assertSameOrigin } from '../../platform/http/security.ts';
import { parseInput } from '../../platform/http/validate.ts';
import { AppError, retryAfter } from '../../platform/shared/errors.ts';
import type { Services } from '../context.ts';
import { requireTenant } from '../tenant.ts';

/** Events per client address and tenant per minute: a page sends a handful. */
export const analyticsEventsPerMinute = 60;

/** SPEC §1 analytics: the portal reports MFA events; stored per tenant, forwarded when configured. */
export async function analyticsRoutes(app: FastifyInstance, services: Services): Promise<void> {
  const { db, clock, limiter, config } = services;

  app.post(apiPaths.analyticsEvents, answers(acceptedResponse), async (request, reply) => {
    assertSameOrigin(request, config);
    const tenant = requireTenant(request);
    const now = clock.now();
    const rate = await limiter.reserve(
      `analytics:${tenant.code}:${request.ip}`,
      { limit: analyticsEventsPerMinute, windowMs: 60_000, lockMs: 0 },
      now,
    );
    if (!rate.allowed) throw new AppError(errorCodes.rateLimited, { fields: retryAfter(rate.retryAfterMs) });
    const input = parseInput(analyticsEventRequest, request.body);
    // The session, when there is one, says who the user is; the page's word is only a fallback.
    const resolved = await loadSignIn(db, tenant, sessionToken(request), now);
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
