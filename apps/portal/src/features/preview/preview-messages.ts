import { themeSchema } from '@keycard/contract/api';
import {
  type PreviewDraftMessage,
  type PreviewReadyMessage,
  type PreviewRenderedMessage,
  type PreviewScreen,
  previewScreens,
} from '@keycard/contract/preview';
import { locales } from '@keycard/contract/user-state';
import { z } from 'zod';

/** A draft as the console must send it; anything else is dropped (zod is in this lazy chunk only). */
const draftSchema = z.object({
  type: z.literal('keycard:preview-draft'),
  theme: themeSchema,
  locale: z.enum(locales),
  tenantCode: z.string().min(1).max(64),
});

export function toPreviewScreen(value: string | undefined): PreviewScreen | undefined {
  return previewScreens.find((screen) => screen === value);
}

/**
 * The draft a message carries, when it may be trusted: sent by the console that frames this
 * page (the parent window, on this very origin: the operator host) and well formed. Another
 * origin, another window (a tab this page opened, a frame inside it) or a malformed theme is
 * ignored, so nothing but the console can paint on a page that shows the operator's portal.
 */
export function trustedDraft(event: MessageEvent): PreviewDraftMessage | null {
  if (event.origin !== window.location.origin) return null;
  if (window.parent === window || event.source !== window.parent) return null;
  const parsed = draftSchema.safeParse(event.data);
  return parsed.success ? parsed.data : null;
}

/** Tells the console (the parent, on this origin only) what the preview did. */
export function postToConsole(message: PreviewReadyMessage | PreviewRenderedMessage): void {
  if (window.parent === window) return;
  window.parent.postMessage(message, window.location.origin);
}
