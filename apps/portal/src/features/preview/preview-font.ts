import type { Theme } from '@keycard/contract/api';
import { servedFontStylesheet } from '@keycard/contract/theme-fonts';
import { themeStyle } from '@keycard/contract/theme-style';

const linkId = 'kc-preview-font';

/**
 * The draft's font in the preview. A page's first paint carries the @font-face rules of its
 * own tenant's pick only (the server's served-fonts.ts); a draft may pick another, so its rules
 * come as a stylesheet of this origin. The `system` pick needs none.
 */
export function showPreviewFont(theme: Theme): void {
  const { font } = themeStyle(theme);
  const present = document.getElementById(linkId);
  if (font === 'system') {
    present?.remove();
    return;
  }
  const href = servedFontStylesheet(font);
  if (present instanceof HTMLLinkElement && present.getAttribute('href') === href) return;
  const link = document.createElement('link');
  link.id = linkId;
  link.rel = 'stylesheet';
  link.href = href;
  if (present) present.replaceWith(link);
  else document.head.append(link);
}
