import type { AnalyticsEventName, MfaDeliveryType } from '@keycard/contract/mfa';
import { signInApi } from '@keycard/contract/sign-in-api';
import type { UserType } from '@keycard/contract/user-state';

export interface AnalyticsProperties {
  userType?: UserType;
  deliveryType?: MfaDeliveryType;
}

/**
 * SPEC §1 analytics: sends one event to the server, which stores it for the tenant and
 * forwards it to the tenant's analytics provider. Never blocks or breaks the flow: a failed
 * send is dropped. keepalive lets an event sent just before a navigation still arrive.
 */
export function trackEvent(event: AnalyticsEventName, properties: AnalyticsProperties = {}): Promise<void> {
  return fetch(signInApi.analyticsEvents, {
    method: 'POST',
    credentials: 'same-origin',
    keepalive: true,
    headers: { 'content-type': 'application/json', 'x-trace-token': crypto.randomUUID() },
    body: JSON.stringify({ event, properties }),
  }).then(
    () => undefined,
    () => undefined,
  );
}
