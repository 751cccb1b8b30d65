import type { Locale } from '@keycard/contract';

/**
 * A contrast ratio as people of the console's language write numbers ("4,48" in German and
 * French, "4.48" in English and Thai), cut, never rounded, to two decimals: a ratio just under
 * the line is never shown as meeting it.
 */
export function formatRatio(ratio: number, language: Locale): string {
  return new Intl.NumberFormat(language, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(
    Math.floor(ratio * 100) / 100,
  );
}

/** A ratio WCAG requires (3, 4.5), in the console's language. */
export function formatRequired(required: number, language: Locale): string {
  return new Intl.NumberFormat(language, { maximumFractionDigits: 1 }).format(required);
}
