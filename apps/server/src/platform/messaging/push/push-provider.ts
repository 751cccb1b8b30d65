import type { Clock } from '../../shared/clock.ts';
import { DeliveryError, type OutboxMessage, type PushContent, type Transport } from '../message.types.ts';

/** One notification to one device, as every push service needs it. */
export interface PushNotification {
  /** The FCM registration token or the APNs device token. */
  token: string;
  title: string;
  body: string;
  /** Flat string values: FCM's data map takes nothing else, and APNs gets the same keys. */
  data: Record<string, string>;
  /** Epoch ms after which the push service should drop it rather than deliver it late. */
  expiresAt: number;
  /** The same for every attempt at one notification, so a retried push is shown once. */
  collapseKey: string;
  /** The outbox message id. */
  reference: string;
}

/**
 * A push service. Failures throw `pushDeliveryError(kind, providerCode, …)`, so the outbox
 * knows whether to retry and the stored code says what the service answered.
 */
export interface PushProvider {
  readonly name: string;
  send(notification: PushNotification): Promise<void>;
  /** Ends kept-open connections. */
  close(): Promise<void>;
}

/** Provider-neutral kinds of push failure (stored as `<kind>:<provider code>`). */
export const pushFailureKinds = {
  /** The app was uninstalled or the token retired: this token will never work again. */
  unregistered: 'push.unregistered',
  /** The token is not one of this app's (wrong app, wrong APNs environment, malformed). */
  badToken: 'push.bad_token',
  /** The service refused the request itself (payload, headers). */
  invalidRequest: 'push.invalid_request',
  /** Our credentials were refused: the configuration needs fixing. */
  authFailed: 'push.auth_failed',
  /** The service throttles us: try later. */
  rateLimited: 'push.rate_limited',
  /** The service is down or unreachable: try later. */
  unavailable: 'push.unavailable',
  /** Anything the service answered that we did not expect. */
  providerError: 'push.provider_error',
  /** The challenge expired before the push could be delivered: it is dropped. */
  expired: 'push.expired',
  /** No push service is configured for the device's platform (production). */
  unconfigured: 'push.unconfigured',
} as const;
export type PushFailureKind = (typeof pushFailureKinds)[keyof typeof pushFailureKinds];

export function pushDeliveryError(
  kind: PushFailureKind,
  providerCode: string | number | null,
  retryable: boolean,
  detail: string,
  retryAfterMs?: number,
): DeliveryError {
  const code = providerCode === null ? kind : `${kind}:${providerCode}`;
  return new DeliveryError(detail, { retryable, code, retryAfterMs });
}

/**
 * An HTTP Retry-After value (RFC 9110 §10.2.3: delay-seconds or an HTTP-date) as milliseconds
 * from now; undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // An HTTP-date names its weekday and month ("Wed, 25 Nov 2026 12:00:00 GMT"); Date.parse
  // alone would also take "-5" as a year.
  if (!/^[A-Za-z]{3}, /.test(trimmed)) return undefined;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

export interface PushProviders {
  /** Firebase Cloud Messaging, for ANDROID devices. */
  android?: PushProvider | undefined;
  /** APNs, for IOS devices. */
  ios?: PushProvider | undefined;
  /**
   * Embedded mode: a push for a platform without a provider stays in the outbox (the local
   * outbox page shows it) instead of failing.
   */
  keepUnroutedInOutbox: boolean;
  /**
   * Called when the push service says a device token is retired for good (the app was
   * uninstalled, the token expired): the token is forgotten, so later challenges are not
   * pushed into the void (the app still reads them over its subscription when opened).
   */
  forgetToken?: (token: string) => Promise<void>;
}

/**
 * The outbox transport of the 'push' channel. ANDROID goes to FCM, IOS to APNs; WEB devices
 * have no push service (the device app reads its challenges over its GraphQL subscription),
 * so their push only stays in the outbox (the local outbox page shows it). A push whose
 * challenge has expired is dropped, not sent: an approval request arriving after its sign-in
 * gave up would only invite a careless tap.
 */
export function createPushTransport(
  providers: PushProviders,
  clock: Clock,
): Transport & { close(): Promise<void> } {
  return {
    async send(message: OutboxMessage) {
      const content = message.content as PushContent;
      if (!(clock.now() < content.expiresAt)) {
        throw pushDeliveryError(
          pushFailureKinds.expired,
          null,
          false,
          'the challenge expired before delivery',
        );
      }
      // WEB devices, and app devices that registered without a push token (the recipient is
      // then the device id), have nothing to push to: the app reads the challenge itself.
      if (content.platform === 'WEB' || message.recipient === content.deviceId) return;
      const provider =
        content.platform === 'ANDROID'
          ? providers.android
          : content.platform === 'IOS'
            ? providers.ios
            : undefined;
      if (!provider) {
        if (providers.keepUnroutedInOutbox && (content.platform === 'ANDROID' || content.platform === 'IOS'))
          return;
        throw pushDeliveryError(
          pushFailureKinds.unconfigured,
          String(content.platform),
          false,
          `no push service for platform ${String(content.platform)}`,
        );
      }
      try {
        await provider.send({
          token: message.recipient,
          title: content.title,
          body: content.body,
          data: stringValues(content.data as unknown as Record<string, unknown>),
          expiresAt: content.expiresAt,
          collapseKey: content.data.challengeId,
          reference: message.id,
        });
      } catch (error) {
        if (
          error instanceof DeliveryError &&
          error.code.split(':')[0] === pushFailureKinds.unregistered &&
          providers.forgetToken
        ) {
          await providers.forgetToken(message.recipient);
        }
        throw error;
      }
    },
    async close() {
      await Promise.all([providers.android?.close(), providers.ios?.close()]);
    },
  };
}

/** FCM refuses a data map with anything but strings (INVALID_ARGUMENT): turn values into strings here. */
function stringValues(data: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(data)) {
    if (value === undefined || value === null) continue;
    out[key] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return out;
}
