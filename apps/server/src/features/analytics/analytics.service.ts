import { randomUUID } from 'node:crypto';
import type { AnalyticsEventName, MfaDeliveryType, UserType } from '@keycard/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';
import type { TenantContext } from '../tenants/index.ts';
import { AnalyticsForwardError, type AnalyticsProvider } from './analytics.provider.ts';

export interface NewAnalyticsEvent {
  event: AnalyticsEventName;
  userType: UserType | null;
  userId: string | null;
  deliveryType?: MfaDeliveryType | undefined;
}

/**
 * Stores an event for its tenant, then forwards it to the analytics provider when the tenant
 * has an analytics id. A provider failure is recorded on the event, never shown to the user.
 */
export async function recordAnalyticsEvent(
  deps: { db: Kysely<Database>; provider: AnalyticsProvider | undefined },
  tenant: TenantContext,
  input: NewAnalyticsEvent,
  now: number,
): Promise<{ id: string; forwarded: boolean }> {
  const id = randomUUID();
  const properties = { deliveryType: input.deliveryType ?? null };
  await deps.db
    .insertInto('analytics_events')
    .values({
      id,
      tenant_code: tenant.code,
      event: input.event,
      user_type: input.userType,
      user_id: input.userId,
      properties: JSON.stringify(properties),
      created_at: now,
      forwarded_at: null,
      forward_error: null,
    })
    .execute();
  const analyticsId = tenant.settings.analyticsId;
  if (!analyticsId || !deps.provider) return { id, forwarded: false };
  try {
    await deps.provider.forward({
      analyticsId,
      event: input.event,
      timestamp: now,
      properties: { userType: input.userType, tenant: tenant.code, ...properties },
    });
    await deps.db.updateTable('analytics_events').set({ forwarded_at: now }).where('id', '=', id).execute();
    return { id, forwarded: true };
  } catch (error) {
    const code = error instanceof AnalyticsForwardError ? error.code : 'analytics.failed';
    await deps.db.updateTable('analytics_events').set({ forward_error: code }).where('id', '=', id).execute();
    return { id, forwarded: false };
  }
}
