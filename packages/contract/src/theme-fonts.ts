/**
 * The fonts the server serves (issue 19 item 11; apps/server surfaces/web/served-fonts.ts), by
 * the family name their stacks (theme-style.ts) put first. Apart from theme-style.ts, which the
 * login page's script carries: only the server and the theme preview need these.
 */
import type { ThemeFont } from './theme-bounds.ts';

export const servedFontFamilies = {
  humanist: 'Source Sans 3',
  serif: 'Source Serif 4',
  rounded: 'Nunito',
} as const satisfies Record<Exclude<ThemeFont, 'system'>, string>;
export type ServedFont = keyof typeof servedFontFamilies;

/** Where the server serves a font's @font-face rules (the preview loads a draft's from there). */
export const servedFontStylesheet = (font: ServedFont) => `/_keycard/fonts/${font}.css`;
