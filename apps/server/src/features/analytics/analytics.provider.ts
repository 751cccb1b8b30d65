import type { AnalyticsEventName, UserType } from '@keycard/contract';

/** One event as the analytics provider receives it: no user id, no e-mail, no IP. */
export interface ForwardedEvent {
  /** The tenant's analytics id (SPEC §3 runtime configuration: analytics id). */
  analyticsId: string;
  event: AnalyticsEventName;
  /** Epoch ms. */
  timestamp: number;
  properties: { userType: UserType | null; tenant: string; [key: string]: string | null };
}

/** Where the events of tenants with an analytics id go. */
export interface AnalyticsProvider {
  readonly name: string;
  forward(event: ForwardedEvent): Promise<void>;
}

export class AnalyticsForwardError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

/**
 * A collector that takes events as JSON over HTTPS (ANALYTICS_URL). Each POST carries one
 * event; the analytics id says whose property it is.
 */
export function createHttpAnalyticsProvider(url: string, timeoutMs = 2000): AnalyticsProvider {
  return {
    name: 'http',
    async forward(event) {
      let response: Response;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(event),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        throw new AnalyticsForwardError('analytics.unreachable', (error as Error).message);
      }
      await response.body?.cancel();
      if (!response.ok) throw new AnalyticsForwardError(`analytics.http_${response.status}`, 'refused');
    },
  };
}
