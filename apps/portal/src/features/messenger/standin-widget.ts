import { createIntercomWidget } from './intercom-widget.ts';
import type { MessengerWidget, MessengerWidgetOptions } from './messenger-widget.ts';

/**
 * A self-hosted stand-in for browser tests without the internet: its script (e2e/support/
 * messenger-standin.ts) speaks Intercom's command API and records what it is told, so the
 * portal drives it exactly as it drives Intercom, from the stand-in's own origin. The server
 * never offers it in production.
 */
export function createStandinWidget(options: MessengerWidgetOptions): MessengerWidget {
  return createIntercomWidget(options);
}
