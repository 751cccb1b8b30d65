/**
 * The bounds of a theme's look beyond its colours: the fonts it may pick, its corner radius and
 * logo height. Apart from theme-style.ts so the theme's schema (api.ts) reads them without an
 * import cycle.
 */

/**
 * The fonts a theme may pick: `system`, the portal's own stack of fonts already on the device
 * (nothing is downloaded), or one of a small set the server serves from its own origin (no font
 * service sees the visitor): `humanist` Source Sans 3, `serif` Source Serif 4, `rounded` Nunito.
 * The ids are those of the device stacks they replaced, so stored themes keep their kind of
 * look. Thai pages keep Noto Sans Thai first, whatever the pick.
 */
export const themeFonts = ['system', 'humanist', 'serif', 'rounded'] as const;
export type ThemeFont = (typeof themeFonts)[number];

/** Corner radius of the card in px (buttons and fields get three quarters of it). */
export const themeCornerRadius = { min: 0, max: 24, default: 8 } as const;
/** Height of the logo in the card's band, in px. */
export const themeLogoHeight = { min: 24, max: 96, default: 40 } as const;
