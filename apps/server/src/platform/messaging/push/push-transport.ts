import type { Config } from '../../config.ts';
import type { Clock } from '../../shared/clock.ts';
import type { Transport } from '../message.types.ts';
import { createApnsProvider } from './apns.provider.ts';
import { createFcmProvider } from './fcm.provider.ts';
import { createPushTransport } from './push-provider.ts';

/**
 * The 'push' channel's transport as the configuration asks: FCM for ANDROID when FCM_* is
 * set, APNs for IOS when APNS_* is set. A platform without a provider keeps its pushes in
 * the outbox in embedded mode (the local outbox page shows them) and fails them with
 * push.unconfigured in production; WEB devices never get an external push.
 */
export function createPushTransportFromConfig(
  config: Pick<Config, 'embedded' | 'fcm' | 'apns'>,
  clock: Clock,
  forgetToken?: (token: string) => Promise<void>,
): Transport & { close(): Promise<void> } {
  return createPushTransport(
    {
      android: config.fcm ? createFcmProvider(config.fcm, clock) : undefined,
      ios: config.apns ? createApnsProvider(config.apns, clock) : undefined,
      keepUnroutedInOutbox: config.embedded,
      forgetToken,
    },
    clock,
  );
}
