import type { ThemeTexts } from '@keycard/contract/theme-texts';
import type { Locale } from '@keycard/contract/user-state';
import { loadTexts } from '@keycard/texts/catalogues';
import type { Texts } from '@keycard/texts/en';
import { enCore } from '@keycard/texts/en-core';
import { format } from '@keycard/texts/format';
import { createContext, type ReactNode, useContext, useMemo, useSyncExternalStore } from 'react';

/**
 * The portal's translations: one catalogue per language, keys as dotted paths, {{name}}
 * placeholders. All the portal needs of an i18n library, in a few hundred bytes of the login
 * route's 100 kB budget. The login route carries English's core texts only (the fallback of
 * last resort); a flow's screens wait for their language's whole catalogue (`ensureTexts`,
 * called as their chunk loads), which for English adds the lifecycle and MFA texts.
 * A tenant's theme may override a few texts per language (`texts`, contract theme-texts.ts):
 * the current language's overrides come first, then its catalogue; another language's
 * override is never used.
 */
export type TranslateValues = Record<string, string | number>;
export type Translate = (key: string, values?: TranslateValues) => string;

function lookup(catalogue: unknown, key: string): string | undefined {
  let node = catalogue;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string' ? node : undefined;
}

export class Translator {
  #language: Locale;
  /** Whole catalogues loaded so far. */
  readonly #catalogues = new Map<Locale, Texts>();
  /** The tenant's overrides, per language (the theme's `texts`). */
  #overrides: ThemeTexts = {};
  readonly #listeners = new Set<() => void>();
  /** A new function per change, so components that use it re-render. */
  #t: Translate;

  /** `texts`: the language's whole catalogue, or none yet (English starts with its core). */
  constructor(language: Locale, texts?: Texts) {
    this.#language = language;
    if (texts) this.#catalogues.set(language, texts);
    this.#t = this.#translator();
  }

  get language(): Locale {
    return this.#language;
  }

  get t(): Translate {
    return this.#t;
  }

  has(language: Locale): boolean {
    return this.#catalogues.has(language);
  }

  /** Switches to a language whose whole catalogue is given (or already there). */
  use(language: Locale, texts?: Texts): void {
    if (texts) this.#catalogues.set(language, texts);
    this.#language = language;
    this.#changed();
  }

  /** Replaces the tenant's text overrides (the theme's, or a preview's draft). */
  setOverrides(overrides: ThemeTexts | undefined): void {
    this.#overrides = overrides ?? {};
    this.#changed();
  }

  /** Loads the current language's whole catalogue, if only the core is there. */
  async complete(): Promise<void> {
    const language = this.#language;
    if (this.#catalogues.has(language)) return;
    this.#catalogues.set(language, await loadTexts(language));
    if (language === this.#language) this.#changed();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  #changed(): void {
    this.#t = this.#translator();
    for (const listener of this.#listeners) listener();
  }

  #translator(): Translate {
    const catalogue = this.#catalogues.get(this.#language);
    const english = this.#catalogues.get('en');
    // A Map of the language's own entries: a key such as `constructor` finds nothing inherited.
    const own = new Map(Object.entries(this.#overrides[this.#language] ?? {}));
    return (key, values) => {
      // An override is plain text with no placeholders: shown as written, never formatted.
      const override = own.get(key);
      if (typeof override === 'string') return override;
      const text = lookup(catalogue, key) ?? lookup(english, key) ?? lookup(enCore, key) ?? key;
      return values ? format(text, values) : text;
    };
  }
}

/** The page's translator (one per page load). */
let current: Translator | undefined;

export function createTranslator(language: Locale, texts?: Texts): Translator {
  current = new Translator(language, texts);
  return current;
}

/**
 * Shows a tenant's own wording: `texts` is a theme's `texts` (per language, key → text), from
 * the tenant's theme at start or a draft theme in the admin console's preview. Replaces the
 * overrides given before; every screen re-renders with them, in whichever language it shows.
 */
export function applyTextOverrides(translator: Translator, texts: ThemeTexts | undefined): void {
  translator.setOverrides(texts);
}

/** Resolves once the page language's whole catalogue is there (lazy screens wait for it). */
export function ensureTexts(): Promise<void> {
  return current ? current.complete() : Promise.resolve();
}

const TranslatorContext = createContext<Translator | null>(null);

export function I18nProvider({ translator, children }: { translator: Translator; children: ReactNode }) {
  return <TranslatorContext.Provider value={translator}>{children}</TranslatorContext.Provider>;
}

/** The current language's `t`, re-rendering the component when the language changes. */
export function useTranslation(): { t: Translate; i18n: { language: Locale } } {
  const translator = useContext(TranslatorContext);
  if (!translator) throw new Error('useTranslation is used inside <I18nProvider>.');
  const t = useSyncExternalStore(translator.subscribe, () => translator.t);
  const language = translator.language;
  return useMemo(() => ({ t, i18n: { language } }), [t, language]);
}

/** The translator itself, for the language menu. */
export function useTranslator(): Translator {
  const translator = useContext(TranslatorContext);
  if (!translator) throw new Error('useTranslator is used inside <I18nProvider>.');
  return translator;
}
