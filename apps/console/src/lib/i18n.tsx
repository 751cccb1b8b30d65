import { type Locale, locales } from '@keycard/contract/user-state';
import { loadConsoleTexts } from '@keycard/texts/console/catalogues';
import { type ConsoleEnglish, en } from '@keycard/texts/console/en';
import {
  Translator as CoreTranslator,
  lookup,
  type PlainKey,
  type Translate as TranslateOf,
  type TranslateValues,
} from '@keycard/texts/translator';
import { createContext, type ReactNode, useContext, useSyncExternalStore } from 'react';

/**
 * The console's binding of the shared translator (`@keycard/texts/translator`), its texts in
 * `packages/texts/src/console/`: English is bundled (the fallback for any missing key); each
 * other language is a chunk of its own, loaded when chosen.
 */
/** A key of the console's texts that takes no `count` (a screen may keep one in its state). */
export type TextKey = PlainKey<ConsoleEnglish>;
export type Translate = TranslateOf<ConsoleEnglish>;

/** Each language's name in itself, for the language menu. */
export const languageNames: Record<Locale, string> = {
  en: 'English',
  de: 'Deutsch',
  es: 'Español',
  fr: 'Français',
  id: 'Bahasa Indonesia',
  it: 'Italiano',
  pt: 'Português',
  th: 'ไทย',
};

const storageKey = 'keycard-console:language';

class ConsoleTranslator {
  readonly #core = new CoreTranslator<ConsoleEnglish>('en', { base: en, load: loadConsoleTexts }, en);

  get language(): Locale {
    return this.#core.language;
  }

  get t(): Translate {
    return this.#core.t;
  }

  /** Switches the console to a language (loading its chunk) and remembers the choice. */
  async use(language: Locale): Promise<void> {
    await this.#core.switchTo(language);
    document.documentElement.lang = language;
    try {
      localStorage.setItem(storageKey, language);
    } catch {
      // Storage refused (private mode): the choice lasts this page only.
    }
  }

  /** A text by a key computed at run time (an error code), or undefined when English has none. */
  optional(key: string, values?: TranslateValues): string | undefined {
    // The one place a run-time key becomes a typed one: English (the typed source) has it.
    return lookup(en, key) === undefined ? undefined : this.t(key as TextKey, values);
  }

  subscribe = (listener: () => void): (() => void) => this.#core.subscribe(listener);
}

export const translator = new ConsoleTranslator();

/** The remembered language, else the browser's first known one, else English. */
export function initialLanguage(): Locale {
  const known = (tag: string | null | undefined): Locale | undefined => {
    const base = tag?.toLowerCase().split('-')[0];
    return (locales as readonly string[]).includes(base ?? '') ? (base as Locale) : undefined;
  };
  let remembered: string | null = null;
  try {
    remembered = localStorage.getItem(storageKey);
  } catch {
    remembered = null;
  }
  return known(remembered) ?? navigator.languages.map(known).find(Boolean) ?? 'en';
}

const I18nContext = createContext(translator);

export function I18nProvider({ children }: { children: ReactNode }) {
  return <I18nContext.Provider value={translator}>{children}</I18nContext.Provider>;
}

export function useTranslation(): { t: Translate; language: Locale; translator: ConsoleTranslator } {
  const value = useContext(I18nContext);
  const t = useSyncExternalStore(value.subscribe, () => value.t);
  return { t, language: value.language, translator: value };
}
