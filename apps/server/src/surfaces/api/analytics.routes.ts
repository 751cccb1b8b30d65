import { acceptedResponse, analyticsEventRequest, apiPaths, errorCodes } from '@keycard/contract';
import { recordAnalyticsEvent } from '../../features/analytics/index.ts';
import { limitKeys } from '../../platform/security/limit-keys.ts';
import { AppError, retryAfter } from '../../platform/shared/errors.ts';
import { defineRoute } from './api-route.ts';

/** Events per client address and tenant per minute: a page sends a handful. */
export const analyticsEventsPerMinute = 60;

/** SPEC §1 analytics: the portal reports MFA events; stored per tenant, forwarded when configured. */
export const analyticsRoutes = [
  defineRoute({
    method: 'POST',
    path: apiPaths.analyticsEvents,
    summary: "Record an MFA event of the portal's (stored per tenant, forwarded when configured)",
    // The session, when there is one, says who the user is; the page's word is only a fallback.
    auth: 'optional-session',
    origin: 'same-origin',
    tenant: 'required',
    body: analyticsEventRequest,
    responses: { 202: acceptedResponse },
    errors: [errorCodes.rateLimited],
    // Every event counts against the limit, well-formed or not.
    beforeInput: async ({ deps, request, tenant }) => {
      const rate = await deps.limiter.reserve(
        limitKeys.analyticsAddress(tenant.code, request.ip),
        { limit: analyticsEventsPerMinute, windowMs: 60_000, lockMs: 0 },
        deps.clock.now(),
      );
      if (!rate.allowed)
        throw new AppError(errorCodes.rateLimited, { fields: retryAfter(rate.retryAfterMs) });
    },
    handler: async ({ deps, tenant, session, body }) => {
      await recordAnalyticsEvent(
        { db: deps.db, provider: deps.analytics },
        tenant,
        {
          event: body.event,
          userType: session?.identity.type ?? body.properties.userType ?? null,
          userId: session?.user.id ?? null,
          deliveryType: body.properties.deliveryType,
        },
        deps.clock.now(),
      );
      return { accepted: true } as const;
    },
  }),
];
