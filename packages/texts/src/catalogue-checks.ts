import type { Locale } from '@keycard/contract/user-state';
import { intlLocale, isPlural } from './translator.ts';

/**
 * Checks shared by the texts tests of the portal (texts.test.ts), the admin console
 * (console/texts.test.ts) and the plural forms (plurals.test.ts): a catalogue's key paths,
 * its {{placeholders}} and its plural nodes.
 */

/**
 * Flattens a catalogue into dotted key path → leaf value (leaves are whatever isn't a plain
 * object, and plural nodes: one text with its forms).
 */
export function leaves(node: unknown, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (node !== null && typeof node === 'object' && !Array.isArray(node)) {
    for (const [key, value] of Object.entries(node)) {
      const path = prefix ? `${prefix}.${key}` : key;
      if (value !== null && typeof value === 'object' && !Array.isArray(value) && !isPlural(value)) {
        const nested = leaves(value, path);
        // An empty group has no leaves; keep it visible as a path of its own.
        if (nested.size === 0) out.set(path, value);
        for (const [p, v] of nested) out.set(p, v);
      } else {
        out.set(path, value);
      }
    }
  }
  return out;
}

/** The {{name}} placeholder names in a text, sorted and de-duplicated (same pattern as `format`). */
export function placeholders(text: string): string[] {
  return [...new Set([...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1] ?? ''))].sort();
}

/** Anything brace-like that is not a well-formed {{name}} placeholder, e.g. `{name}` or `{{ name }}`. */
export function strayBraces(text: string): boolean {
  return /[{}]/.test(text.replace(/\{\{\w+\}\}/g, ''));
}

export function compareKeys(expected: unknown, actual: unknown): { missing: string[]; extra: string[] } {
  const want = [...leaves(expected).keys()];
  const have = new Set(leaves(actual).keys());
  return {
    missing: want.filter((path) => !have.has(path)),
    extra: [...have].filter((path) => !want.includes(path)),
  };
}

/** A text's wordings: a string's one, a plural node's one per category (none for anything else). */
export function wordings(text: unknown): string[] {
  if (typeof text === 'string') return [text];
  return isPlural(text) ? Object.values(text).filter((form) => typeof form === 'string') : [];
}

/** The placeholders a text takes: a plural node's are those of its `other` form, the full one. */
export function textPlaceholders(text: unknown): string[] {
  if (typeof text === 'string') return placeholders(text);
  return isPlural(text) ? placeholders(text.other) : [];
}

/** Whether two texts read the same (a plural node: in every form). */
export function sameText(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The plural categories a language's rules can select, which each of its plural nodes writes. */
export function pluralCategoriesOf(locale: Locale): string[] {
  return [...new Intl.PluralRules(intlLocale(locale)).resolvedOptions().pluralCategories].sort();
}

/**
 * Whether a language's `one` is the number 1 alone, so that its `one` form may say "a day"
 * without the number. French's `one` is also 0 and 1.5, so French writes "{{count}} jour".
 */
export function oneIsOnlyOne(locale: Locale): boolean {
  const rules = new Intl.PluralRules(intlLocale(locale));
  const samples = [0, 0.5, 1.5, 2, 11, 21, 101, 1001, 1_000_001];
  return rules.select(1) === 'one' && samples.every((n) => rules.select(n) !== 'one');
}

/**
 * The texts of a translation (`translated`, from `leaves`) that are not a non-empty text, or
 * not the same kind (a string, a plural node) as English's, as `path: value`.
 */
export function malformedTexts(english: Map<string, unknown>, translated: Map<string, unknown>): string[] {
  return [...translated]
    .filter(([path, value]) => {
      const forms = wordings(value);
      return (
        forms.length === 0 ||
        forms.some((form) => form.trim() === '') ||
        typeof value !== typeof english.get(path)
      );
    })
    .map(([path, value]) => `${path}: ${JSON.stringify(value)}`);
}

/** The texts whose {{placeholders}} differ from English's or are malformed (missing texts left out). */
export function placeholderMismatches(
  english: Map<string, unknown>,
  translated: Map<string, unknown>,
): string[] {
  const bad: string[] = [];
  for (const [path, source] of english) {
    const value = translated.get(path);
    if (wordings(value).length === 0) continue;
    const want = textPlaceholders(source);
    const have = textPlaceholders(value);
    if (JSON.stringify(want) !== JSON.stringify(have) || wordings(value).some(strayBraces)) {
      bad.push(`${path}: expected ${JSON.stringify(want)}, got ${JSON.stringify(value)}`);
    }
  }
  return bad;
}

/** The texts whose ellipsis differs from English's (… where English has one), or that use three dots. */
export function ellipsisMismatches(
  english: Map<string, unknown>,
  translated: Map<string, unknown>,
): string[] {
  const bad: string[] = [];
  for (const [path, source] of english) {
    const value = translated.get(path);
    const text = wordings(value).join(' ');
    if (text === '') continue;
    const sourceText = wordings(source).join(' ');
    if (text.includes('...') || sourceText.includes('…') !== text.includes('…')) {
      bad.push(`${path}: ${JSON.stringify(value)}`);
    }
  }
  return bad;
}

/** The texts with leading, trailing or doubled whitespace. */
export function strayWhitespace(translated: Map<string, unknown>): string[] {
  return [...translated]
    .filter(([, value]) => wordings(value).some((form) => form !== form.trim() || /\s{2}/.test(form)))
    .map(([path, value]) => `${path}: ${JSON.stringify(value)}`);
}
