import type { Locale } from '@keycard/contract/user-state';
import { en, format, type Texts } from '@keycard/texts';
import { createContext, type ReactNode, useContext, useMemo, useSyncExternalStore } from 'react';

/**
 * The portal's translations: one catalogue per language (English always there as the
 * fallback), keys as dotted paths, {{name}} placeholders. All the portal needs of an i18n
 * library, in a few hundred bytes of the login route's 100 kB budget.
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
  readonly #catalogues = new Map<Locale, Texts>([['en', en]]);
  readonly #listeners = new Set<() => void>();
  /** A new function per language, so components that use it re-render on a switch. */
  #t: Translate;

  constructor(language: Locale, texts: Texts) {
    this.#language = language;
    this.#catalogues.set(language, texts);
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

  /** Switches to a language whose catalogue is given (or already there). */
  use(language: Locale, texts?: Texts): void {
    if (texts) this.#catalogues.set(language, texts);
    this.#language = language;
    this.#t = this.#translator();
    for (const listener of this.#listeners) listener();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  #translator(): Translate {
    const catalogue = this.#catalogues.get(this.#language) ?? en;
    return (key, values) => {
      const text = lookup(catalogue, key) ?? lookup(en, key) ?? key;
      return values ? format(text, values) : text;
    };
  }
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
