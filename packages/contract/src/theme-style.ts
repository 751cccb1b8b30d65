/**
 * A theme's look beyond its colours (font, corners, logo size, background image, dark scheme)
 * as the portal's CSS variables and root attributes. Shared by the server's first paint and the
 * portal's script, so both draw the same; free of zod, so the login page's bundle stays small.
 */
import type { Theme } from './api.ts';
import { darkSchemeVariables, themeVariables } from './contrast.ts';
import { type ThemeFont, themeCornerRadius, themeFonts, themeLogoHeight } from './theme-bounds.ts';

export { type ThemeFont, themeCornerRadius, themeFonts, themeLogoHeight };

/**
 * Each pick as a font stack. A served font (theme-fonts.ts) comes first, and after it the device
 * fonts the pick named before it was served: they draw until it arrives (font-display: swap).
 */
export const themeFontStacks: Record<ThemeFont, string> = {
  system: 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans Thai", sans-serif',
  humanist:
    '"Source Sans 3", Seravek, "Gill Sans Nova", Ubuntu, Calibri, "DejaVu Sans", "Noto Sans Thai", sans-serif',
  serif:
    '"Source Serif 4", Charter, "Bitstream Charter", "Sitka Text", Cambria, Georgia, "DejaVu Serif", serif',
  rounded:
    'Nunito, ui-rounded, "Hiragino Maru Gothic ProN", Quicksand, Comfortaa, "Arial Rounded MT", Calibri, sans-serif',
};

/** What a theme's optional look comes to: the portal's own values where it says nothing. */
export interface ThemeStyle {
  font: ThemeFont;
  cornerRadius: number;
  logoHeight: number;
  background: string;
  darkScheme: boolean;
}

export function themeStyle(theme: Theme): ThemeStyle {
  return {
    font: theme.font ?? 'system',
    cornerRadius: theme.cornerRadius ?? themeCornerRadius.default,
    logoHeight: theme.logoHeight ?? themeLogoHeight.default,
    background: theme.images.background ?? '',
    darkScheme: theme.darkScheme ?? false,
  };
}

/**
 * A URL as a CSS url() value that nothing in it can end early: every character outside
 * letters, digits and the URL's plain punctuation is a CSS escape (a quote, a backslash, and
 * `<`, which could close the first paint's <style> element).
 */
export function cssUrl(url: string): string {
  const escaped = url.replace(
    /[^A-Za-z0-9/:._~?&=%#+,;@!$*-]/g,
    (c) => `\\${c.codePointAt(0)?.toString(16)} `,
  );
  return `url("${escaped}")`;
}

/**
 * Every CSS variable a theme sets on the page's root: the colours (themeVariables), the font,
 * corner radius, logo height and background image, and with the dark scheme its colours as
 * --kc-dark-* (app.css swaps them in under `prefers-color-scheme: dark`).
 */
export function themeCssVariables(theme: Theme): Record<string, string> {
  const style = themeStyle(theme);
  const variables: Record<string, string> = {
    ...themeVariables(theme.colours),
    '--kc-font': themeFontStacks[style.font],
    '--kc-radius': `${style.cornerRadius}px`,
    '--kc-logo-height': `${style.logoHeight}px`,
    '--kc-background-image': style.background ? cssUrl(style.background) : 'none',
  };
  if (style.darkScheme) {
    for (const [name, value] of Object.entries(darkSchemeVariables(theme.colours))) {
      variables[name.replace('--kc-', '--kc-dark-')] = value;
    }
  }
  return variables;
}

/** Attributes on <html> that switch on the stylesheet's dark scheme and background rules. */
export function themeRootAttributes(theme: Theme): Record<'data-kc-dark' | 'data-kc-background', boolean> {
  const style = themeStyle(theme);
  return { 'data-kc-dark': style.darkScheme, 'data-kc-background': style.background !== '' };
}
