/**
 * A tenant's six SPEC colours as the portal's CSS variables, with a contrast guarantee: every
 * pair the portal draws (text on its background, links on the card, focus rings next to it)
 * meets WCAG 2.2 AA, whatever colours a brand picks. A pair that fails is drawn with the
 * nearest colour that passes: the same hue, lightened or darkened only as far as needed.
 * Shared by the server's first paint and the portal, so both draw the same.
 */
import type { Theme } from './api.ts';

type Rgb = [number, number, number];

/** #rgb, #rgba, #rrggbb or #rrggbbaa (the contract's hexColour); alpha is ignored. */
export function parseHex(hex: string): Rgb {
  let digits = hex.replace(/^#/, '');
  if (digits.length === 3 || digits.length === 4) digits = [...digits.slice(0, 3)].map((d) => d + d).join('');
  const value = Number.parseInt(digits.slice(0, 6), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

export function toHex([r, g, b]: Rgb): string {
  return `#${[r, g, b].map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;
}

/** WCAG 2.x relative luminance. */
function luminance([r, g, b]: Rgb): number {
  const channel = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** WCAG contrast ratio of two colours, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [la, lb] = [luminance(parseHex(a)), luminance(parseHex(b))];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** Mixes a colour toward black (amount < 0) or white (amount > 0), 0 to ±1. */
function mix(rgb: Rgb, amount: number): Rgb {
  const target = amount < 0 ? 0 : 255;
  const t = Math.abs(amount);
  return rgb.map((c) => c + (target - c) * t) as Rgb;
}

/**
 * The colour itself when it meets `ratio` against every background given, else the nearest
 * one that does: mixed toward black or toward white (whichever passes with less change).
 * When nothing between passes (two backgrounds far apart), the one of black and white that
 * contrasts best with the worst of them.
 */
export function nearestPassing(colour: string, backgrounds: string | string[], ratio: number): string {
  const against = Array.isArray(backgrounds) ? backgrounds : [backgrounds];
  const passes = (candidate: string) => against.every((bg) => contrastRatio(candidate, bg) >= ratio);
  const own = toHex(parseHex(colour));
  if (passes(own)) return own;
  const rgb = parseHex(colour);
  for (let step = 1; step <= 100; step++) {
    for (const direction of [-1, 1]) {
      const candidate = toHex(mix(rgb, (direction * step) / 100));
      if (passes(candidate)) return candidate;
    }
  }
  const worst = (candidate: string) => Math.min(...against.map((bg) => contrastRatio(candidate, bg)));
  return worst('#000000') >= worst('#ffffff') ? '#000000' : '#ffffff';
}

/** WCAG 2.2 AA: 4.5:1 for text, 3:1 for the parts of controls and focus indicators. */
export const textContrast = 4.5;
export const nonTextContrast = 3;

/** The card's background and body text (fixed, so forms stay legible on every brand). */
export const cardBackground = '#ffffff';

/**
 * The portal's colour variables for a theme: the six SPEC colours as they are
 * (--kc-primary-bg … --kc-tertiary-fg), and what the portal draws with them, each passing AA:
 * - --kc-primary-text, --kc-secondary-text, --kc-tertiary-text: each foreground on its own
 *   background (the card's brand band and main buttons; the page around the card and its
 *   footer; accents such as the identity chip);
 * - --kc-link: links on the card, in the brand's primary colour when it reads, else its
 *   tertiary one, else the nearest passing colour;
 * - --kc-focus: focus rings, in the tertiary colour, against the card and the page;
 * - --kc-primary-edge: a main button's edge against the card (its fill may be pale).
 */
export function themeVariables(colours: Theme['colours']): Record<string, string> {
  const hex = (value: string) => toHex(parseHex(value));
  const [primaryBg, secondaryBg, tertiaryBg] = [
    hex(colours.primaryBackground),
    hex(colours.secondaryBackground),
    hex(colours.tertiaryBackground),
  ];
  const reads = (colour: string) => contrastRatio(colour, cardBackground) >= textContrast;
  const linkSource = reads(primaryBg) || !reads(tertiaryBg) ? primaryBg : tertiaryBg;
  return {
    '--kc-primary-bg': primaryBg,
    '--kc-primary-fg': hex(colours.primaryForeground),
    '--kc-secondary-bg': secondaryBg,
    '--kc-secondary-fg': hex(colours.secondaryForeground),
    '--kc-tertiary-bg': tertiaryBg,
    '--kc-tertiary-fg': hex(colours.tertiaryForeground),
    '--kc-primary-text': nearestPassing(colours.primaryForeground, primaryBg, textContrast),
    '--kc-secondary-text': nearestPassing(colours.secondaryForeground, secondaryBg, textContrast),
    '--kc-tertiary-text': nearestPassing(colours.tertiaryForeground, tertiaryBg, textContrast),
    '--kc-link': nearestPassing(linkSource, cardBackground, textContrast),
    '--kc-focus': nearestPassing(tertiaryBg, [cardBackground, secondaryBg], nonTextContrast),
    '--kc-primary-edge': nearestPassing(primaryBg, cardBackground, nonTextContrast),
  };
}

export type ColourField = keyof Theme['colours'];

/** One pair the portal draws, as the brand picked it. */
export interface ContrastCheck {
  /** What the pair is: each foreground on its background, links, focus rings, button edges. */
  pair: 'primaryText' | 'secondaryText' | 'tertiaryText' | 'link' | 'focus' | 'primaryEdge';
  /** The theme colour drawn in front, and the one a correction changes. */
  field: ColourField;
  colour: string;
  /** What it is drawn against (the card is the fixed white; focus rings meet two backgrounds). */
  backgrounds: string[];
  /** The lowest ratio against those backgrounds. */
  ratio: number;
  /** WCAG 2.2 AA: 4.5 for text, 3 for controls and focus indicators. */
  required: number;
  passes: boolean;
  /**
   * For a failing pair, the nearest colour for `field` that passes: what the portal draws in
   * its place (themeVariables), offered to the brand to pick on purpose. Null when it passes.
   */
  suggestion: string | null;
}

/**
 * Every pair themeVariables draws, checked as the brand picked it: the admin console shows it
 * beside the theme editor, so a failing pair is seen with its correction before it is
 * published (the portal would draw the correction anyway).
 */
export function contrastReport(colours: Theme['colours']): ContrastCheck[] {
  const hex = (value: string) => toHex(parseHex(value));
  const c = {
    primaryBackground: hex(colours.primaryBackground),
    primaryForeground: hex(colours.primaryForeground),
    secondaryBackground: hex(colours.secondaryBackground),
    secondaryForeground: hex(colours.secondaryForeground),
    tertiaryBackground: hex(colours.tertiaryBackground),
    tertiaryForeground: hex(colours.tertiaryForeground),
  };
  const reads = (colour: string) => contrastRatio(colour, cardBackground) >= textContrast;
  const linkField: ColourField =
    reads(c.primaryBackground) || !reads(c.tertiaryBackground) ? 'primaryBackground' : 'tertiaryBackground';
  const check = (
    pair: ContrastCheck['pair'],
    field: ColourField,
    backgrounds: string[],
    required: number,
  ): ContrastCheck => {
    const colour = c[field];
    const ratio = Math.min(...backgrounds.map((background) => contrastRatio(colour, background)));
    const passes = ratio >= required;
    return {
      pair,
      field,
      colour,
      backgrounds,
      ratio,
      required,
      passes,
      suggestion: passes ? null : nearestPassing(colour, backgrounds, required),
    };
  };
  return [
    check('primaryText', 'primaryForeground', [c.primaryBackground], textContrast),
    check('secondaryText', 'secondaryForeground', [c.secondaryBackground], textContrast),
    check('tertiaryText', 'tertiaryForeground', [c.tertiaryBackground], textContrast),
    check('link', linkField, [cardBackground], textContrast),
    check('focus', 'tertiaryBackground', [cardBackground, c.secondaryBackground], nonTextContrast),
    check('primaryEdge', 'primaryBackground', [cardBackground], nonTextContrast),
  ];
}

/** The dark scheme's fixed colours, light enough to read on any dark card it derives. */
const darkFixed = { border: '#8f8f8f', error: '#ff8a80', success: '#81c784' } as const;

/** The colour mixed toward black just far enough that its luminance is at most `target`. */
function darkenTo(colour: string, target: number): string {
  const rgb = parseHex(colour);
  for (let step = 0; step <= 100; step++) {
    const candidate = mix(rgb, -step / 100);
    if (luminance(candidate) <= target) return toHex(candidate);
  }
  return '#000000';
}

/** The palette's lightest colour: what the dark scheme writes its text in. */
function lightestOf(colours: Theme['colours']): string {
  const all = Object.values(colours).map((value) => toHex(parseHex(value)));
  return all.reduce((best, colour) =>
    luminance(parseHex(colour)) > luminance(parseHex(best)) ? colour : best,
  );
}

/** One pair the dark scheme draws. */
export interface DarkContrastCheck {
  pair:
    | 'text'
    | 'secondaryText'
    | 'muted'
    | 'link'
    | 'focus'
    | 'primaryEdge'
    | 'border'
    | 'error'
    | 'success';
  colour: string;
  backgrounds: string[];
  ratio: number;
  required: number;
  passes: boolean;
}

/**
 * The dark scheme a palette gives, for `prefers-color-scheme: dark` (docs/configuration.md,
 * Theme): the page and the card darkened from the secondary and primary colours, the text in
 * the palette's lightest colour, links, focus rings and button edges lightened from the brand's
 * own as far as needed (as themeVariables does on white). The brand band, buttons and accents
 * keep their light-scheme colours. Each value is a variable the light scheme has too
 * (--kc-card-bg, --kc-text, …), so the stylesheet swaps them under the media query.
 */
export function darkSchemeVariables(colours: Theme['colours']): Record<string, string> {
  const hex = (value: string) => toHex(parseHex(value));
  const [primaryBg, tertiaryBg] = [hex(colours.primaryBackground), hex(colours.tertiaryBackground)];
  const card = darkenTo(primaryBg, 0.018);
  const page = darkenTo(hex(colours.secondaryBackground), 0.008);
  const text = lightestOf(colours);
  const reads = (colour: string) => contrastRatio(colour, card) >= textContrast;
  const linkSource = reads(primaryBg) || !reads(tertiaryBg) ? primaryBg : tertiaryBg;
  return {
    '--kc-card-bg': card,
    '--kc-secondary-bg': page,
    '--kc-text': text,
    '--kc-secondary-text': text,
    '--kc-muted': nearestPassing(toHex(mix(parseHex(text), -0.2)), card, textContrast),
    '--kc-link': nearestPassing(linkSource, card, textContrast),
    '--kc-focus': nearestPassing(tertiaryBg, [card, page], nonTextContrast),
    '--kc-primary-edge': nearestPassing(primaryBg, card, nonTextContrast),
    '--kc-border': darkFixed.border,
    '--kc-error': darkFixed.error,
    '--kc-success': darkFixed.success,
  };
}

/**
 * Every pair the dark scheme draws, checked to WCAG 2.2 AA. The text is the palette's own
 * lightest colour, uncorrected: a palette without a colour light enough fails here, and a
 * theme asking for the dark scheme with it is refused (configuration.ts themeConfigSchema).
 */
export function darkContrastReport(colours: Theme['colours']): DarkContrastCheck[] {
  const v = darkSchemeVariables(colours);
  const [card, page] = [v['--kc-card-bg'] as string, v['--kc-secondary-bg'] as string];
  const check = (
    pair: DarkContrastCheck['pair'],
    variable: string,
    backgrounds: string[],
    required: number,
  ): DarkContrastCheck => {
    const colour = v[variable] as string;
    const ratio = Math.min(...backgrounds.map((background) => contrastRatio(colour, background)));
    return { pair, colour, backgrounds, ratio, required, passes: ratio >= required };
  };
  return [
    check('text', '--kc-text', [card], textContrast),
    check('secondaryText', '--kc-secondary-text', [page], textContrast),
    check('muted', '--kc-muted', [card], textContrast),
    check('link', '--kc-link', [card], textContrast),
    check('error', '--kc-error', [card], textContrast),
    check('success', '--kc-success', [card], textContrast),
    check('focus', '--kc-focus', [card, page], nonTextContrast),
    check('primaryEdge', '--kc-primary-edge', [card], nonTextContrast),
    check('border', '--kc-border', [card], nonTextContrast),
  ];
}

/** Why a palette cannot have the dark scheme, in words; empty when it can. */
export function darkSchemeProblems(colours: Theme['colours']): string[] {
  return darkContrastReport(colours)
    .filter((check) => !check.passes)
    .map(
      (check) =>
        `dark scheme: ${check.pair} ${check.colour} on ${check.backgrounds.join(' and ')} is ` +
        `${check.ratio.toFixed(2)}:1, WCAG 2.2 AA needs ${check.required}:1 ` +
        '(the dark scheme writes in the palette’s lightest colour: add a light one, such as #ffffff)',
    );
}
