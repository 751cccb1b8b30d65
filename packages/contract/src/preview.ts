/**
 * The admin console's live theme preview: the console frames the portal's preview route
 * (`paths.preview`, same origin: both on the operator host) and sends it the draft by
 * `postMessage`; the portal draws the real screen with it and says when it has.
 * Each side accepts messages from its own origin only.
 */
import type { Theme } from './api.ts';
import type { Locale } from './user-state.ts';

/** The screens a theme can be previewed on. */
export const previewScreens = ['login', 'password', 'reset', 'mfa', 'error'] as const;
export type PreviewScreen = (typeof previewScreens)[number];

/** Console → preview: draw `screen` in `locale` with this draft theme (sent again on each edit). */
export interface PreviewDraftMessage {
  type: 'keycard:preview-draft';
  theme: Theme;
  locale: Locale;
  /** The tenant the draft is for (its name and code in the screen's texts). */
  tenantCode: string;
}

/** Preview → console: the route is ready for drafts (sent on load). */
export interface PreviewReadyMessage {
  type: 'keycard:preview-ready';
}

/** Preview → console: the draft has been drawn (after the DOM update, for tests and a spinner). */
export interface PreviewRenderedMessage {
  type: 'keycard:preview-rendered';
  screen: PreviewScreen;
  locale: Locale;
  /** The draft's primary background, as drawn, to tell which draft this is. */
  primaryBackground: string;
}

export type PreviewMessage = PreviewDraftMessage | PreviewReadyMessage | PreviewRenderedMessage;

export function isPreviewMessage(data: unknown): data is PreviewMessage {
  return (
    typeof data === 'object' &&
    data !== null &&
    typeof (data as { type?: unknown }).type === 'string' &&
    (data as { type: string }).type.startsWith('keycard:preview-')
  );
}
