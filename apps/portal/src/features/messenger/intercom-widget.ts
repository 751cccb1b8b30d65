import type { MessengerWidget, MessengerWidgetOptions } from './messenger-widget.ts';

/** Intercom's JavaScript API: one function taking a command and its options. */
type IntercomApi = ((command: string, options?: Record<string, unknown>) => void) & {
  /** Commands given before the script arrived; the script runs them when it loads. */
  q?: unknown[][];
  /** How Intercom's own snippet queues a command (its arguments); kept for compatibility. */
  c?: (args: ArrayLike<unknown>) => void;
};

declare global {
  interface Window {
    Intercom?: IntercomApi;
  }
}

/**
 * The Intercom Messenger through its documented command API: `Intercom('boot', { app_id })`,
 * `'update'` on each in-app navigation, `'shutdown'` to remove it. Until the script has
 * loaded, a queueing stand-in function takes the commands, as Intercom's own snippet does.
 */
export function createIntercomWidget({ appId, scriptUrl }: MessengerWidgetOptions): MessengerWidget {
  let scriptAdded = false;

  function api(): IntercomApi {
    if (!window.Intercom) {
      const queue: unknown[][] = [];
      const queueing: IntercomApi = (command, options) => {
        queue.push(options === undefined ? [command] : [command, options]);
      };
      queueing.q = queue;
      queueing.c = (args) => {
        queue.push(Array.from(args));
      };
      window.Intercom = queueing;
    }
    if (!scriptAdded) {
      scriptAdded = true;
      const script = document.createElement('script');
      script.src = scriptUrl;
      script.async = true;
      document.head.append(script);
    }
    return window.Intercom;
  }

  return {
    // Anonymous on purpose: only the app id. Identifying a visitor safely needs Intercom's
    // identity verification (a server-side HMAC), which Keycard does not offer.
    boot: () => api()('boot', { app_id: appId }),
    update: () => window.Intercom?.('update'),
    shutdown: () => window.Intercom?.('shutdown'),
  };
}
