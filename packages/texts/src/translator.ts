import type { Locale } from '@keycard/contract/user-state';
import { format } from './format.ts';

/**
 * The translator of the portal and the console: a catalogue per language with English as the
 * typed source, dotted keys (`login.email.heading`), `{{name}}` placeholders, plural forms
 * chosen by `Intl.PluralRules`, English as the fallback, and a tenant's overrides of a few
 * texts in the current language. Each app binds it to React in its own `lib/i18n.tsx`.
 */

/** The CLDR plural categories `Intl.PluralRules` selects from. */
export type PluralCategory = 'zero' | 'one' | 'two' | 'few' | 'many' | 'other';

/**
 * A text with plural forms, chosen by the `count` value: `{ one: 'every day', other: 'every
 * {{count}} days' }`. Each language writes the categories its rules select (Thai and
 * Indonesian only `other`; French, Spanish, Italian and Portuguese `one`, `many`, `other`).
 */
export type Plural = { readonly other: string } & {
  readonly [C in Exclude<PluralCategory, 'other'>]?: string;
};

/** One text of a catalogue: a string, or a plural node. */
export type Text = string | Plural;

/** Whether a catalogue node is a plural node: `other` and nothing but plural categories. */
type IsPlural<T> = T extends { other: string }
  ? [Exclude<keyof T, PluralCategory>] extends [never]
    ? true
    : false
  : false;

/** Every text's dotted key in a catalogue; a plural node is one text. */
export type TextKey<T> = {
  [K in keyof T & string]: T[K] extends string
    ? K
    : IsPlural<T[K]> extends true
      ? K
      : `${K}.${TextKey<T[K]>}`;
}[keyof T & string];

/** The keys of the plural texts, which take a `count`. */
export type PluralKey<T> = {
  [K in keyof T & string]: T[K] extends string
    ? never
    : IsPlural<T[K]> extends true
      ? K
      : `${K}.${PluralKey<T[K]>}`;
}[keyof T & string];

/** The keys of the texts without plural forms: what a screen may keep in a variable and show later. */
export type PlainKey<T> = Exclude<TextKey<T>, PluralKey<T>>;

/** The keys of groups of texts (`errors.provider.reasons`), for names known at run time (`keyIn`). */
export type GroupKey<T> = {
  [K in keyof T & string]: T[K] extends string
    ? never
    : IsPlural<T[K]> extends true
      ? never
      : K | `${K}.${GroupKey<T[K]>}`;
}[keyof T & string];

/** What a language implements: English's shape, any wording for a text, any categories for a plural. */
export type Translation<T> = {
  -readonly [K in keyof T]: T[K] extends string
    ? string
    : IsPlural<T[K]> extends true
      ? Plural
      : Translation<T[K]>;
};

export type TranslateValues = Readonly<Record<string, string | number>>;

/** `t(key, values)`: a key that does not exist does not compile, nor a plural text without `count`. */
export interface Translate<T> {
  (key: PlainKey<T>, values?: TranslateValues): string;
  (key: PluralKey<T>, values: TranslateValues & { readonly count: number }): string;
}

/** A tenant's own wording, per language and key (a theme's `texts`): plain text, never formatted. */
export type TextOverrides = Partial<Record<Locale, Readonly<Partial<Record<string, string>>>>>;

const pluralCategories: readonly string[] = ['zero', 'one', 'two', 'few', 'many', 'other'];

export function isPlural(node: unknown): node is Plural {
  return (
    typeof node === 'object' &&
    node !== null &&
    typeof (node as { other?: unknown }).other === 'string' &&
    Object.keys(node).every((key) => pluralCategories.includes(key))
  );
}

/** The text at a dotted key, or undefined (only a catalogue's own entries: `constructor` finds nothing). */
export function lookup(catalogue: unknown, key: string): Text | undefined {
  let node = catalogue;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, part)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string' || isPlural(node) ? node : undefined;
}

/** The tag for `Intl`: Keycard's Portuguese texts are European Portuguese ("1,5 dias", "dentro de"). */
export const intlLocale = (locale: Locale): string => (locale === 'pt' ? 'pt-PT' : locale);

const pluralRules = new Map<Locale, Intl.PluralRules>();

/** The plural category of `count` in a language (one `Intl.PluralRules` per language, kept). */
export function pluralCategory(locale: Locale, count: number): PluralCategory {
  let rules = pluralRules.get(locale);
  if (!rules) {
    rules = new Intl.PluralRules(intlLocale(locale));
    pluralRules.set(locale, rules);
  }
  return rules.select(count);
}

const numberFormats = new Map<Locale, Intl.NumberFormat>();

/** A count as the language writes it: "1,5" in French, "1,000" in English. */
export function formatCount(locale: Locale, count: number): string {
  let numbers = numberFormats.get(locale);
  if (!numbers) {
    numbers = new Intl.NumberFormat(intlLocale(locale));
    numberFormats.set(locale, numbers);
  }
  return numbers.format(count);
}

/** A text's wording for `count` in its language; a string is its own wording. */
export function chooseForm(text: Text, locale: Locale, count: unknown): string {
  if (typeof text === 'string') return text;
  return (typeof count === 'number' ? text[pluralCategory(locale, count)] : undefined) ?? text.other;
}

/**
 * The key `${group}.${name}` if English has that text, else undefined: for a name known only at
 * run time (an error code from the server), so the call site keeps a typed key and a fallback:
 * `t(keyIn(en, 'errors', code) ?? 'errors.unknown')`.
 */
export function keyIn<T, G extends GroupKey<T>>(
  english: T,
  group: G,
  name: string,
): Extract<TextKey<T>, `${G}.${string}`> | undefined {
  const key = `${group}.${name}`;
  return lookup(english, key) === undefined ? undefined : (key as Extract<TextKey<T>, `${G}.${string}`>);
}

/** Where a translator gets its texts. */
export interface TextSource<T> {
  /** English texts that are always there: the last fallback (the whole catalogue, or its core). */
  readonly base: unknown;
  /** A language's whole catalogue (each language its own chunk). */
  readonly load: (language: Locale) => Promise<Translation<T>>;
}

/**
 * One page's translator: the current language, the catalogues loaded so far and the tenant's
 * overrides. `t` is a new function after each change, so components that read it re-render.
 */
export class Translator<T> {
  #language: Locale;
  readonly #source: TextSource<T>;
  readonly #catalogues = new Map<Locale, Translation<T>>();
  #overrides: TextOverrides = {};
  readonly #listeners = new Set<() => void>();
  #t: Translate<T>;

  /** `texts`: the language's whole catalogue, or none yet (then `base` speaks until `complete`). */
  constructor(language: Locale, source: TextSource<T>, texts?: Translation<T>) {
    this.#language = language;
    this.#source = source;
    if (texts) this.#catalogues.set(language, texts);
    this.#t = this.#translator();
  }

  get language(): Locale {
    return this.#language;
  }

  get t(): Translate<T> {
    return this.#t;
  }

  /** Whether a language's whole catalogue is there. */
  has(language: Locale): boolean {
    return this.#catalogues.has(language);
  }

  /** Switches to a language whose whole catalogue is given (or already there). */
  use(language: Locale, texts?: Translation<T>): void {
    if (texts) this.#catalogues.set(language, texts);
    this.#language = language;
    this.#changed();
  }

  /** Loads a language's whole catalogue if need be, then switches to it. */
  async switchTo(language: Locale): Promise<void> {
    this.use(language, this.has(language) ? undefined : await this.#source.load(language));
  }

  /** Loads the current language's whole catalogue, if it is not there yet. */
  async complete(): Promise<void> {
    const language = this.#language;
    if (this.#catalogues.has(language)) return;
    this.#catalogues.set(language, await this.#source.load(language));
    if (language === this.#language) this.#changed();
  }

  /** Replaces the tenant's overrides (a theme's, or a preview's draft). */
  setOverrides(overrides: TextOverrides | undefined): void {
    this.#overrides = overrides ?? {};
    this.#changed();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  #changed(): void {
    this.#t = this.#translator();
    for (const listener of this.#listeners) listener();
  }

  #translator(): Translate<T> {
    const language = this.#language;
    const catalogue = this.#catalogues.get(language);
    const english = this.#catalogues.get('en');
    const base = this.#source.base;
    // A Map of the language's own entries: a key such as `constructor` finds nothing inherited.
    const overrides = new Map(Object.entries(this.#overrides[language] ?? {}));
    return (key: string, values?: TranslateValues): string => {
      // An override is plain text with no placeholders: shown as written, never formatted.
      const override = overrides.get(key);
      if (typeof override === 'string') return override;
      const own = lookup(catalogue, key);
      const text = own ?? lookup(english, key) ?? lookup(base, key);
      if (text === undefined) return key;
      const count = values?.count;
      if (typeof count !== 'number') {
        const wording = chooseForm(text, language, undefined);
        return values ? format(wording, values) : wording;
      }
      // English's wording is chosen by English's rules; the number is written the page's way.
      const wording = chooseForm(text, own === undefined ? 'en' : language, count);
      return format(wording, { ...values, count: formatCount(language, count) });
    };
  }
}
